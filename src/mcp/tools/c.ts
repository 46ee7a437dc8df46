/** Tool group `c`: C-level debugging — breakpoints, run control, stack, variables. */
import * as z from 'zod/v4';
import type { MutationOptions, StepGranularity } from '../../session/types.js';
import type { ClientSession } from '../../session/client-session.js';
import { badRequest } from '../../core/errors.js';
import {
  describeLocation,
  formatBreakpoint,
  formatFrame,
  formatStop,
  stopSentence,
  formatVariable,
  parseAddress,
} from '../format.js';
import { DEFAULT_WAIT_MS, requireRunControl, runThenWait, waitTimeoutInput } from '../run-control.js';
import {
  addressInput,
  breakpointSchema,
  frameSchema,
  generationInput,
  locationSchema,
  sessionIdInput,
  stopSchema,
  variableSchema,
} from '../schemas.js';
import { MUTATES, READ_ONLY, defineTool, type ToolContext, type ToolDef } from '../tool-kit.js';
import { formatWatchpoint, watchpointSchema } from './watch.js';

const setBreakpoint = defineTool({
  name: 'set_breakpoint',
  title: 'Set a breakpoint',
  description: 'Break at file+line, a function or an address; reports the line it moved to.',
  input: {
    session_id: sessionIdInput,
    file: z.string().optional().describe('source file (name or path)'),
    line: z.number().int().min(1).optional().describe('with file'),
    function: z.string().optional().describe('C function name'),
    address: addressInput.optional(),
    generation: generationInput,
    condition: z.string().max(500).optional().describe('C expression: stop only when true'),
    hit_condition: z.string().max(40).optional().describe('stop on hit N ("3"), from it (">= 3"), every Nth ("% 4")'),
    log_message: z.string().max(500).optional().describe('log this ({expr} evaluated) instead of stopping'),
  },
  output: { breakpoint: breakpointSchema, requested_line: z.number().int().optional(), moved: z.boolean() },
  annotations: MUTATES,
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const { session, client } = me;
    session.assertGeneration(args.generation);
    const kinds = [
      args.file !== undefined || args.line !== undefined,
      args.function !== undefined,
      args.address !== undefined,
    ];
    if (kinds.filter(Boolean).length !== 1) {
      throw badRequest('Give exactly one of: file and line, function, or address.');
    }
    await requireRunControl(session, 'a breakpoint');
    let bp;
    const extras = { hitCondition: args.hit_condition, logMessage: args.log_message };
    if (args.function !== undefined) bp = await me.setFunctionBreakpoint(args.function, args.condition, extras);
    else if (args.address !== undefined)
      bp = await me.setAddressBreakpoint(parseAddress(args.address), args.condition, extras);
    else {
      if (args.file === undefined || args.line === undefined)
        throw badRequest('A line breakpoint needs both file and line.');
      bp = await me.setLineBreakpoint(args.file, args.line, args.condition, extras);
    }
    if (bp.nowhere) {
      // an agent's typo is an error naming the nearest places, not a breakpoint that never fires
      await me.clearBreakpoint(bp.id);
      throw badRequest(bp.message ?? 'No code there.', { file: args.file, line: args.line, function: args.function });
    }
    const moved = args.line !== undefined && bp.line !== undefined && bp.line !== args.line;
    return {
      session,
      data: { breakpoint: formatBreakpoint(bp, client.id), requested_line: args.line, moved },
      summary:
        `Breakpoint ${bp.id} ${bp.verified ? 'verified' : 'NOT verified'}` +
        (bp.file && bp.line ? ` at ${bp.file}:${bp.line}` : '') +
        (moved ? ` (moved from line ${args.line})` : '') +
        (bp.message ? `: ${bp.message}` : ''),
    };
  },
});

const clearBreakpoint = defineTool({
  name: 'clear_breakpoint',
  title: 'Clear a breakpoint',
  description: 'Remove one of your breakpoints or watchpoints.',
  input: { session_id: sessionIdInput, id: z.number().int().describe('its id'), generation: generationInput },
  output: { cleared: z.number().int() },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const { session } = me;
    session.assertGeneration(args.generation);
    // one numbering for breakpoints and watchpoints
    if (session.listWatchpoints().some((w) => w.id === args.id)) await me.clearWatchpoint(args.id);
    else await me.clearBreakpoint(args.id);
    return { session, data: { cleared: args.id } };
  },
});

const listBreakpoints = defineTool({
  name: 'list_breakpoints',
  title: 'List breakpoints',
  description: 'Every breakpoint and watchpoint with its owner; read_only when not yours.',
  input: { session_id: sessionIdInput },
  output: { breakpoints: z.array(breakpointSchema), watchpoints: z.array(watchpointSchema) },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, client } = ctx.connection.use(args.session_id);
    return {
      session,
      data: {
        breakpoints: session.listBreakpoints().map((bp) => formatBreakpoint(bp, client.id)),
        watchpoints: session.listWatchpoints().map((w) => formatWatchpoint(w, client.id)),
      },
    };
  },
});

export const runOutput = {
  timed_out: z.boolean(),
  stop: stopSchema.optional(),
  location: locationSchema.optional(),
};

const waitInput = (defaultWait: boolean) => ({
  session_id: sessionIdInput,
  generation: generationInput,
  wait: z.boolean().default(defaultWait).describe('wait for the stop'),
  timeout_ms: waitTimeoutInput,
});

type RunCommand = (me: ClientSession, opts: MutationOptions) => Promise<void>;

/** One shape for every run-control tool: issue the command, maybe wait, report the new state. */
export async function runControl(
  ctx: ToolContext,
  args: { session_id?: string; generation?: number; wait: boolean; timeout_ms: number },
  command: RunCommand,
) {
  const me = ctx.connection.use(args.session_id);
  const { session } = me;
  const opts: MutationOptions = { generation: args.generation };
  const { status, timed_out } = await runThenWait(
    me,
    () => command(me, opts),
    args.wait ? args.timeout_ms : 0,
    ctx.call,
  );
  const summary =
    status.state === 'stopped'
      ? stopSentence(status)
      : timed_out
        ? `No stop within ${args.timeout_ms} ms; still ${status.state} (wait_for_stop waits longer, pause stops it).`
        : `Now ${status.state}.`;
  return {
    session,
    state: status.state,
    data: { timed_out, stop: formatStop(status), location: status.state === 'stopped' ? status.location : undefined },
    summary,
  };
}

const resume = defineTool({
  name: 'resume',
  title: 'Resume',
  description: 'Continue running.',
  input: waitInput(false),
  output: runOutput,
  annotations: MUTATES,
  run: (args, ctx) => runControl(ctx, args, (me, o) => me.resume(o)),
});

const pause = defineTool({
  name: 'pause',
  title: 'Pause',
  description: 'Stop the CPU and report where.',
  input: { session_id: sessionIdInput, generation: generationInput },
  output: runOutput,
  annotations: MUTATES,
  // a machine already stopped answers at once (the pause still checks the lease and generation)
  run: async (args, ctx) => {
    const stopped = (await ctx.connection.use(args.session_id).session.status()).state === 'stopped';
    return runControl(ctx, { ...args, wait: !stopped, timeout_ms: DEFAULT_WAIT_MS }, (me, o) => me.pause(o));
  },
});

const granularity = z.enum(['line', 'instruction']).default('line').describe('source line or one instruction');

const step = defineTool({
  name: 'step',
  title: 'Step',
  description: 'Step over calls, into them, or out of the function.',
  input: {
    ...waitInput(true),
    kind: z.enum(['over', 'into', 'out']).default('over').describe('out: until the function returns'),
    granularity,
  },
  output: runOutput,
  annotations: MUTATES,
  run: (args, ctx) =>
    runControl(ctx, args, (me, o) =>
      args.kind === 'out'
        ? me.stepOut(o)
        : args.kind === 'into'
          ? me.stepInto(args.granularity as StepGranularity, o)
          : me.stepOver(args.granularity as StepGranularity, o),
    ),
});

const backtrace = defineTool({
  name: 'backtrace',
  title: 'Backtrace',
  description: 'The call stack, innermost first.',
  input: { session_id: sessionIdInput },
  output: { frames: z.array(frameSchema) },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    await requireRunControl(session, 'a backtrace');
    const frames = (await session.backtrace()).map(formatFrame);
    return {
      session,
      data: { frames },
      summary: frames
        .map((f) => `#${f.index} ${describeLocation(f.location ?? { file: f.pc_hex, line: 0, function: f.function })}`)
        .join('\n'),
    };
  },
});

const frameInput = z.number().int().min(0).default(0).describe('0 = innermost');

const listVariables = defineTool({
  name: 'list_variables',
  title: 'List variables',
  description: 'Typed C values: locals of a frame, globals, or registers.',
  input: {
    session_id: sessionIdInput,
    scope: z.enum(['locals', 'globals', 'registers']).default('locals').describe('which values'),
    frame: frameInput,
  },
  output: { scope: z.string(), frame: z.number().int(), variables: z.array(variableSchema) },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    await requireRunControl(session, `listing ${args.scope}`);
    const vars = (await session.variables(args.scope, args.frame)).map(formatVariable);
    return {
      session,
      data: { scope: args.scope, frame: args.frame, variables: vars },
      summary: vars.map((v) => `${v.type} ${v.name} = ${v.value}`).join('\n'),
    };
  },
});

const evaluate = defineTool({
  name: 'evaluate',
  title: 'Evaluate',
  description: 'A C expression at a frame: "counter", "origin.x", "msg[1]", "*p", "(char)x", sizeof, $pc.',
  input: {
    session_id: sessionIdInput,
    expression: z.string().min(1).max(200).describe('C expression'),
    frame: frameInput,
  },
  output: { result: variableSchema },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    await requireRunControl(session, `evaluating ${args.expression}`);
    const v = formatVariable(await session.readVariable(args.expression, args.frame));
    return { session, data: { result: v }, summary: `${v.type} ${v.name} = ${v.value}` };
  },
});

export const cTools: ToolDef[] = [
  setBreakpoint,
  clearBreakpoint,
  listBreakpoints,
  resume,
  pause,
  step,
  backtrace,
  listVariables,
  evaluate,
];
