/** Tool group `session`: start, inspect and stop sessions; the control lease; waiting for a stop. */
import * as z from 'zod/v4';
import type { LeaseInfo, SessionStatus } from '../../session/types.js';
import { RetroError } from '../../core/errors.js';
import { agentLaunchConfig } from '../../session/launch-policy.js';
import { isStarter } from '../connection.js';
import { describeLocation, formatStop } from '../format.js';
import { DEFAULT_WAIT_MS, MAX_WAIT_MS, waitForStopOrTimeout } from '../run-control.js';
import { leaseSchema, locationSchema, sessionIdInput, stopSchema } from '../schemas.js';
import { MUTATES, READ_ONLY, defineTool, type ToolDef } from '../tool-kit.js';
import { hex } from '../../core/hex.js';

const PHASES = ['starting_emulator', 'booting', 'program_loaded', 'ready', 'exited', 'failed'] as const;
const MAX_PROGRESS_LINES = 20;

function formatLease(lease: LeaseInfo | undefined, myClientId: string | undefined) {
  if (!lease) return undefined;
  return { holder: lease.holder, expires_in_ms: lease.expires_in_ms, held_by_you: lease.holder.id === myClientId };
}

const launchInput = {
  machine: z.string().min(1).default('spectrum').describe('machine name, e.g. "spectrum"'),
  emulator: z
    .enum(['mame', 'vice', 'builtin', 'dosbox'])
    .default('mame')
    .describe('"dosbox" runs a DOS guest (machine "dos"; options in dos; the dos tool group drives it)'),
  program: z.string().optional().describe('program image (ROM .rom/.bin or .ihx), relative to cwd'),
  debugInfo: z
    .string()
    .optional()
    .describe('debug info (SDCC .cdb or cc65 .dbg); default: program with .cdb, then .dbg'),
  mamePath: z.string().optional().describe('MAME executable; default mame on PATH, then /usr/games/mame'),
  rompath: z.string().optional(),
  media: z.record(z.string(), z.string()).optional().describe('MAME media options, e.g. {"cart": "game.bin"}'),
  headless: z.boolean().optional().describe('no window, no sound (default true)'),
  throttle: z.boolean().optional().describe('run at real speed (default false)'),
  stopOnEntry: z.boolean().optional().describe('stop at main once loaded (default true)'),
  cwd: z.string().optional().describe('folder relative paths resolve against'),
  extraArgs: z.array(z.string()).max(32).optional().describe('extra MAME arguments'),
  vicePath: z.string().optional().describe('VICE x64sc executable (emulator "vice"); default x64sc on PATH'),
  viceMonitor: z
    .string()
    .regex(/^[\w.-]+:\d+$/)
    .optional()
    .describe('attach to a running VICE binary monitor at "host:port" instead of starting x64sc'),
  dos: z
    .object({
      backend: z
        .enum(['native', 'wasm-dosbox', 'wasm-dosbox-x'])
        .optional()
        .describe('default: embedded wasm DOSBox-X when the optional "emulators" package is installed, else native'),
      pid: z.number().int().positive().optional().describe('attach to a running native DOSBox by process id'),
      executable: z.string().optional(),
      isolation: z.enum(['dummy', 'xvfb']).optional(),
      conf: z.string().optional(),
      args: z.string().max(120).optional(),
      memsizeMb: z.number().int().min(1).max(64).optional(),
      profile: z.string().optional().describe('program profile JSON to load once the guest is up'),
    })
    .optional()
    .describe('emulator "dosbox" only'),
};

const startSession = defineTool({
  name: 'start_session',
  title: 'Start a debug session',
  description:
    'Start an emulator session for a program (returns at once; watch session_status for boot progress). ' +
    'With stopOnEntry (default) it stops at main. Refused with session_exists while one runs for the same program.',
  input: launchInput,
  output: {
    phase: z.enum(PHASES),
    progress: z.array(z.string()),
    your_client_id: z.string(),
  },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  async run(args, ctx) {
    const config = agentLaunchConfig({ ...args }, ctx.launchPolicy);
    // The manager refuses a second live session for the same program/emulator ('session_exists').
    const me = ctx.manager.start(config, ctx.connection.starter);
    ctx.connection.adopt(me);
    const { session, client } = me;
    const st = await session.status();
    return {
      session,
      state: st.state,
      data: { phase: st.phase, progress: st.progress.slice(-MAX_PROGRESS_LINES), your_client_id: client.id },
      summary: `Session ${session.id} is starting (${st.phase}); poll session_status until phase is ready.`,
    };
  },
});

export function statusData(st: SessionStatus, myClientId: string | undefined) {
  return {
    phase: st.phase,
    progress: st.progress.slice(-MAX_PROGRESS_LINES),
    machine: st.machine,
    emulator: st.emulator,
    program: st.program,
    pc: st.pc,
    pc_hex: st.pc === undefined ? undefined : hex(st.pc),
    location: st.location,
    stop: formatStop(st),
    lease: formatLease(st.lease, myClientId),
    failure: st.error,
    your_client_id: myClientId,
  };
}

const sessionStatus = defineTool({
  name: 'session_status',
  title: 'Session status',
  description:
    'Phase (boot progress), run state, where the CPU stopped (file:line, function), who holds the control lease.',
  input: { session_id: sessionIdInput },
  output: {
    phase: z.enum(PHASES),
    progress: z.array(z.string()),
    machine: z.string(),
    emulator: z.string(),
    program: z.string().optional(),
    pc: z.number().int().optional(),
    pc_hex: z.string().optional(),
    location: locationSchema.optional(),
    stop: stopSchema.optional(),
    lease: leaseSchema.optional(),
    failure: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .describe('why the session failed, when it did'),
    your_client_id: z.string().optional(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, client } = ctx.connection.use(args.session_id);
    const st = await session.status();
    return {
      session,
      state: st.state,
      data: statusData(st, client.id),
      summary: `${st.phase}, ${st.state}${st.state === 'stopped' ? ' in ' + describeLocation(st.location) : ''}`,
    };
  },
});

const stopSession = defineTool({
  name: 'stop_session',
  title: 'Stop a session',
  description:
    'End the session (and the emulator, if this session started it). Only the client that started it or the lease holder may.',
  input: { session_id: sessionIdInput },
  output: { stopped: z.boolean() },
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session, client } = ctx.connection.use(args.session_id);
    const st = await session.status();
    if (!isStarter(session, client.id) && st.lease?.holder.id !== client.id) {
      const holder = st.lease ? `; the lease is held by ${st.lease.holder.label}` : '';
      throw new RetroError(
        'not_owner',
        `Only the client that started session ${session.id} or the control lease holder may stop it${holder}. Use claim_control first.`,
      );
    }
    await session.stop(`stopped by ${client.label}`);
    return { session, state: 'exited', data: { stopped: true }, summary: `Session ${session.id} stopped.` };
  },
});

const claimControl = defineTool({
  name: 'claim_control',
  title: 'Claim the control lease',
  description:
    'Take the control lease needed for run control, breakpoints and memory writes. ' +
    'Refused with lease_held (naming the holder) unless take_over is true.',
  input: {
    session_id: sessionIdInput,
    take_over: z.boolean().default(false).describe('take the lease from its current holder'),
  },
  output: { lease: leaseSchema },
  annotations: MUTATES,
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const { session, client } = me;
    const lease = me.claimControl({ takeOver: args.take_over });
    return {
      session,
      data: { lease: formatLease(lease, client.id)! },
      summary: `You hold the control lease of ${session.id}.`,
    };
  },
});

const releaseControl = defineTool({
  name: 'release_control',
  title: 'Release the control lease',
  description: 'Give the control lease back so another client (e.g. the person in VS Code) can drive.',
  input: { session_id: sessionIdInput },
  output: { released: z.boolean() },
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    me.releaseControl();
    const { session } = me;
    return { session, data: { released: true } };
  },
});

const waitForStop = defineTool({
  name: 'wait_for_stop',
  title: 'Wait for the CPU to stop',
  description:
    `Wait up to timeout_ms (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS}) for a stop; returns it with file:line ` +
    'and function, or state running with timed_out true (not an error; call again).',
  input: {
    session_id: sessionIdInput,
    timeout_ms: z.number().int().min(0).max(MAX_WAIT_MS).default(DEFAULT_WAIT_MS),
  },
  output: { timed_out: z.boolean(), stop: stopSchema.optional(), location: locationSchema.optional() },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const { status, timed_out } = await waitForStopOrTimeout(session, args.timeout_ms);
    return {
      session,
      state: status.state,
      data: { timed_out, stop: formatStop(status), location: status.location },
      summary: timed_out
        ? `Still ${status.state} after ${args.timeout_ms} ms.`
        : `Stopped in ${describeLocation(status.location)}.`,
    };
  },
});

export const sessionTools: ToolDef[] = [
  startSession,
  sessionStatus,
  stopSession,
  claimControl,
  releaseControl,
  waitForStop,
];
