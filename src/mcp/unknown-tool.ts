/**
 * A call to a tool this connection does not show: the SDK answers "Tool X not
 * found"; we say which group has it (and how to load it), or name close
 * matches when no group has it.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { GroupSummary } from './tool-kit.js';
import { closeMatches } from '../core/close-matches.js';

const NOT_FOUND = /^MCP error -32602: Tool (\S+) not found$/;

/** How to reach `name`: the group to load, or the nearest tool names. */
export function unknownToolHint(name: string, groups: readonly GroupSummary[]): { message: string; group?: string } {
  const owner = groups.find((g) => g.tools.includes(name));
  if (owner) {
    return {
      group: owner.name,
      message: `Tool ${name} is in the tool group "${owner.name}", which is not loaded on this connection: call load_tool_group {"group": "${owner.name}"} first.`,
    };
  }
  const near = closeMatches(
    name,
    groups.flatMap((g) => g.tools),
  );
  return {
    message: `No tool ${name}${near.length ? `; did you mean ${near.join(', ')}?` : ''} (list_tool_groups lists every tool).`,
  };
}

/** The SDK's "Tool X not found" result rewritten with the hint; any other message unchanged. */
export function explainUnknownTool(message: JSONRPCMessage, groups: () => readonly GroupSummary[]): JSONRPCMessage {
  const result = (message as { result?: { isError?: boolean; content?: { type: string; text?: string }[] } }).result;
  const text = result?.isError && result.content?.length === 1 ? result.content[0].text : undefined;
  const m = text ? NOT_FOUND.exec(text) : null;
  if (!m) return message;
  const hint = unknownToolHint(m[1], groups());
  const error = {
    code: 'not_found',
    message: hint.message,
    details: { tool: m[1], ...(hint.group ? { group: hint.group } : {}) },
  };
  return {
    ...message,
    result: {
      isError: true,
      content: [{ type: 'text', text: `not_found: ${hint.message}` }],
      structuredContent: { error },
    },
  } as JSONRPCMessage;
}
