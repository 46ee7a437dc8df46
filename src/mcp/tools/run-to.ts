/**
 * run_to: the canonical "run to this C line" in one call. A breakpoint owned
 * by the caller is set, the CPU resumed (when stopped), the stop awaited and
 * reported; the breakpoint is removed once the wait ends with a stop or an
 * error. When no stop comes in time the breakpoint stays (its id is in the
 * reply), so wait_for_stop can go on waiting for it.
 */
import * as z from 'zod/v4';
import type { BreakpointInfo } from '../../session/types.js';
import { badRequest } from '../../core/errors.js';
import { describeLocation, formatStop, stopSentence } from '../format.js';
import { requireRunControl, runThenWait, waitTimeoutInput } from '../run-control.js';
import { generationInput, sessionIdInput } from '../schemas.js';
import { MUTATES, defineTool } from '../tool-kit.js';
import { runOutput } from './c.js';

export const runTo = defineTool({
  name: 'run_to',
  title: 'Run to a line or function',
  description: 'Resume until file:line or a function and report the stop (a temporary breakpoint).',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    file: z.string().optional().describe('source file (name or path), with line'),
    line: z.number().int().min(1).optional().describe('with file'),
    function: z.string().optional().describe('C function name, instead of file and line'),
    timeout_ms: waitTimeoutInput,
  },
  output: {
    ...runOutput,
    reached: z.boolean().describe('false: something else stopped it first'),
    breakpoint_id: z.number().int().optional().describe('kept when no stop came in time'),
  },
  annotations: MUTATES,
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const { session } = me;
    const byLine = args.file !== undefined || args.line !== undefined;
    if (byLine === (args.function !== undefined)) throw badRequest('Give file and line, or function (not both).');
    if (byLine && (args.file === undefined || args.line === undefined))
      throw badRequest('run_to a line needs both file and line.');
    await requireRunControl(session, `running to ${target(args)}`);
    const opts = { generation: args.generation };
    const bp: BreakpointInfo =
      args.function !== undefined
        ? await me.setFunctionBreakpoint(args.function)
        : await me.setLineBreakpoint(args.file!, args.line!);
    let keep = false;
    try {
      if (!bp.verified)
        throw badRequest(`Cannot run to ${target(args)}: ${(bp.message ?? 'no code there').replace(/\.$/, '')}.`, {
          breakpoint: bp,
        });
      const running = (await session.status()).state === 'running';
      const { status, timed_out } = await runThenWait(
        me,
        () => (running ? Promise.resolve() : me.resume(opts)),
        args.timeout_ms,
        ctx.call,
      );
      keep = timed_out;
      const stop = formatStop(status);
      const reached = !!stop?.breakpoint_ids.includes(bp.id);
      const where = status.state === 'stopped' ? describeLocation(status.location) : '';
      return {
        session,
        state: status.state,
        data: {
          timed_out,
          stop,
          location: status.state === 'stopped' ? status.location : undefined,
          reached,
          breakpoint_id: keep ? bp.id : undefined,
        },
        summary: reached
          ? `Reached ${where}.`
          : timed_out
            ? `${target(args)} not reached within ${args.timeout_ms} ms; still ${status.state}. Breakpoint ${bp.id} stays: wait_for_stop waits on, clear_breakpoint removes it.`
            : status.last_stop?.watch
              ? `${stopSentence(status)} (before reaching ${target(args)})`
              : `Stopped in ${where || status.state} before reaching ${target(args)}.`,
      };
    } finally {
      if (!keep) await me.clearBreakpoint(bp.id).catch(() => undefined);
    }
  },
});

function target(args: { file?: string; line?: number; function?: string }): string {
  return args.function !== undefined ? `function ${args.function}` : `${args.file}:${args.line}`;
}
