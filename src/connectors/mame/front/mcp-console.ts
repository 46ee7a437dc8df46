/**
 * Tool group `mame`, the debugger console: read-only commands for everyone;
 * anything else only under the exclusive raw lease, after which the session
 * re-reads the machine and bumps the generation.
 */
import * as z from 'zod/v4';
import { RetroError } from '../../../core/errors.js';
import { vetConsoleCommand } from '../console-vetting.js';
import { generationInput, sessionIdInput } from '../../../mcp/schemas.js';
import { MUTATES, defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import { useMame } from './mcp-common.js';

const debuggerCommand = defineTool({
  name: 'debugger_command',
  title: 'MAME debugger console command',
  description:
    'Run one MAME debugger console command and return its output lines. Read-only commands (print, printf, bplist, ' +
    'wplist, rplist, history, help, symlist, cpulist, time — no assignments) run for anyone. Any other command is refused by name ' +
    'unless you hold the exclusive raw lease (claim_raw_lease); after such a command the session re-reads the machine and bumps the generation.',
  input: { session_id: sessionIdInput, command: z.string().min(1).max(500), generation: generationInput },
  output: { command: z.string(), read_only: z.boolean(), lines: z.array(z.string()) },
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session, client, raw } = useMame(ctx, args.session_id);
    const vetted = vetConsoleCommand(args.command);
    if (!vetted.readOnly) {
      try {
        client.requireRawLease({ generation: args.generation });
      } catch (err) {
        if (err instanceof RetroError && err.code === 'no_lease') {
          throw new RetroError(
            'no_lease',
            `debugger_command refused "${vetted.name}": ${vetted.reason}. Nothing was run. ` +
              'Run it only under the exclusive raw lease (claim_control, then claim_raw_lease).',
            { command: vetted.name },
          );
        }
        throw err;
      }
    }
    await session.breakpointsSettled(); // bplist right after a hard reset sees the breakpoints re-armed, once each
    const lines = await raw.console(args.command.trim());
    if (!vetted.readOnly) await session.afterRawCommand(vetted.name);
    return {
      session,
      data: { command: args.command.trim(), read_only: vetted.readOnly, lines },
      summary: lines.slice(0, 10).join('\n'),
    };
  },
});

const claimRawLease = defineTool({
  name: 'claim_raw_lease',
  title: 'Claim the exclusive raw lease',
  description:
    'Opt in to unvetted MAME console commands (they may change anything: the C view is re-read after each one). ' +
    'Needs the control lease; ends when you release it, lose control, or disconnect.',
  input: { session_id: sessionIdInput },
  output: { raw_lease: z.boolean() },
  annotations: MUTATES,
  async run(args, ctx) {
    const client = ctx.connection.use(args.session_id);
    const { session } = client;
    client.claimRawLease();
    return { session, data: { raw_lease: true }, summary: 'You hold the exclusive raw lease.' };
  },
});

const releaseRawLease = defineTool({
  name: 'release_raw_lease',
  title: 'Release the exclusive raw lease',
  description: 'Back to read-only console commands.',
  input: { session_id: sessionIdInput },
  output: { raw_lease: z.boolean() },
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run(args, ctx) {
    const client = ctx.connection.use(args.session_id);
    const { session } = client;
    client.releaseRawLease();
    return { session, data: { raw_lease: false } };
  },
});

export const mameConsoleTools: ToolDef[] = [debuggerCommand, claimRawLease, releaseRawLease];
