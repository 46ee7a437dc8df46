/**
 * Who holds a session's control lease, in the words the status bar and the screen panel use: the user's own
 * clients (a VS Code debug session, the screen panel) are "you"; an agent is named. Pure, so it is unit tested.
 */
import type { ClientRef } from '../session/types.js';

/** The user's own clients in the extension host: VS Code's debug sessions and the screen panel. */
export const isUsersClient = (holder: ClientRef): boolean => holder.kind === 'dap' || holder.kind === 'ui';

/** "claude-code" for "MCP client claude-code": the agent's own name. */
export function agentName(holder: ClientRef): string {
  return holder.label.replace(/^MCP client\s+/, '') || holder.label;
}

/** The holder in a few words: "you", "agent claude-code", "nobody". */
export function holderWords(holder: ClientRef | undefined): string {
  if (!holder) return 'nobody';
  if (isUsersClient(holder)) return 'you';
  return holder.kind === 'mcp' ? `agent ${agentName(holder)}` : holder.label;
}

export interface ControlStatusText {
  text: string;
  tooltip: string;
}

/** The status-bar item for a session's lease (a click takes it back for the user). */
export function controlStatusText(holder: ClientRef | undefined): ControlStatusText {
  const words = holderWords(holder);
  if (!holder)
    return {
      text: '$(unlock) Retro: free',
      tooltip: 'Nobody holds control of the emulator: your debug session and the screen panel take it when they act.',
    };
  if (isUsersClient(holder))
    return {
      text: '$(person) Retro: you',
      tooltip: `You have control of the emulator (${holder.label}): stepping, typing and clicking in the screen panel.`,
    };
  return {
    text: `$(hubot) Retro: ${words}`,
    tooltip: `${holder.label} has control of the emulator. Click to take it back.`,
  };
}

/** The screen panel's refusal when keys or the pointer cannot act: who holds control and the one click. */
export function panelRefusal(holder: ClientRef | undefined): string {
  return `${holder?.label ?? 'Another client'} has control of the machine: click "Take back" here or Retro Debug's control item in the status bar.`;
}
