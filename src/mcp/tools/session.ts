/** Tool group `session`: start, inspect and stop sessions; the control lease; waiting for a stop. */
import * as z from 'zod/v4';
import type { LeaseInfo, SessionStatus } from '../../session/types.js';
import { RetroError } from '../../core/errors.js';
import { USER_ONLY_LAUNCH_OPTIONS, agentLaunchConfig } from '../../session/launch-policy.js';
import { COMMON_OPTIONS, allLaunchOptions, parseLaunchConfig } from '../../session/launch-options.js';
import type { Connector } from '../../core/connector.js';
import { isStarter } from '../connection.js';
import { describeLocation, formatStop, pastNote, stopSentence } from '../format.js';
import { waitForStopOrTimeout, waitTimeoutInput, waitUntilReady } from '../run-control.js';
import { launchPathsInRoots, requireProgramFile } from '../launch-check.js';
import { allowedRoots } from '../tool-files.js';
import { leaseSchema, locationSchema, sessionIdInput, stopSchema } from '../schemas.js';
import { MUTATES, READ_ONLY, defineTool, type ToolDef } from '../tool-kit.js';
import { hex } from '../../core/hex.js';

const PHASES = ['starting_emulator', 'booting', 'program_loaded', 'ready', 'exited', 'failed'] as const;
const MAX_PROGRESS_LINES = 20;

function formatLease(lease: LeaseInfo | undefined, myClientId: string | undefined) {
  if (!lease) return undefined;
  return { holder: lease.holder, expires_in_ms: lease.expires_in_ms, held_by_you: lease.holder.id === myClientId };
}

/** start_session's input is every connector's launch options (src/session/launch-options.ts). */
const startSession = (connectors: readonly Connector[]) =>
  defineTool({
    name: 'start_session',
    title: 'Start a debug session',
    description:
      // stopping at main is stopOnEntry's description
      'Start an emulator for a program; answers at once (poll session_status), or when ready with wait:true.',
    unadvertised: [...USER_ONLY_LAUNCH_OPTIONS, 'dos.*', 'history.*', 'bridgeLoad'],
    openInput: true,
    input: {
      ...allLaunchOptions(connectors, true),
      machine: COMMON_OPTIONS.machine.default('spectrum'),
      wait: z.boolean().default(false).describe('answer once ready'),
      timeout_ms: waitTimeoutInput,
    },
    output: {
      phase: z.enum(PHASES),
      progress: z.array(z.string()),
      your_client_id: z.string(),
      timed_out: z.boolean(),
    },
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    async run({ wait, timeout_ms, ...args }, ctx) {
      // shapes first (an option the emulator does not take is refused, never dropped), then the user's policy
      const parsed = parseLaunchConfig(connectors, args);
      const connector = parsed.connector;
      const allowed = agentLaunchConfig(parsed.config, ctx.launchPolicy);
      const config = launchPathsInRoots(connector, allowed, await allowedRoots(ctx));
      await connector.checkMachine?.(config);
      await requireProgramFile(config);
      // The manager refuses a second live session for the same program/emulator ('session_exists').
      const me = ctx.manager.start(config, ctx.connection.starter);
      ctx.connection.adopt(me);
      const { session, client } = me;
      const { status: st, timed_out } = wait
        ? await waitUntilReady(me, timeout_ms, ctx.call)
        : { status: await session.status(), timed_out: false };
      const data = { phase: st.phase, progress: st.progress.slice(-MAX_PROGRESS_LINES), your_client_id: client.id };
      const summary = !wait
        ? `Session ${session.id} is starting (${st.phase}); poll session_status until phase is ready.`
        : timed_out
          ? `Session ${session.id} is not ready after ${timeout_ms} ms (${st.phase}); poll session_status.`
          : `Session ${session.id} is ready, ${st.state}${st.state === 'stopped' ? ' in ' + describeLocation(st.location) : ''}.`;
      return { session, state: st.state, data: { ...data, timed_out }, summary };
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
    debug_info_warnings: st.debug_info_warnings,
    your_client_id: myClientId,
  };
}

const sessionStatus = defineTool({
  name: 'session_status',
  title: 'Session status',
  description: 'Boot phase, run state, stop location, lease holder.',
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
    failure: z.object({ code: z.string(), message: z.string() }).optional(),
    debug_info_warnings: z.array(z.string()).optional().describe('skipped debug-info records'),
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
      summary: `${st.phase}, ${st.state}${st.state === 'stopped' ? ' in ' + describeLocation(st.location) + pastNote(st) : ''}`,
    };
  },
});

const stopSession = defineTool({
  name: 'stop_session',
  title: 'Stop a session',
  description: 'End the session (its starter or the lease holder only).',
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
  title: 'Claim or release the control lease',
  description:
    'Take the control lease for run control, breakpoints and writes (lease_held names the holder), or give it back.',
  input: {
    session_id: sessionIdInput,
    take_over: z.boolean().default(false).describe('take it from its holder'),
    release: z.boolean().default(false).describe('give it back instead'),
  },
  output: { lease: leaseSchema.optional(), released: z.boolean().optional() },
  annotations: MUTATES,
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const { session, client } = me;
    if (args.release) {
      me.releaseControl();
      return { session, data: { released: true }, summary: `You released the control lease of ${session.id}.` };
    }
    const lease = me.claimControl({ takeOver: args.take_over });
    return {
      session,
      data: { lease: formatLease(lease, client.id)! },
      summary: `You hold the control lease of ${session.id}.`,
    };
  },
});

const waitForStop = defineTool({
  name: 'wait_for_stop',
  title: 'Wait for the CPU to stop',
  description: 'Wait up to timeout_ms for a stop; timed_out: call again.',
  input: {
    session_id: sessionIdInput,
    timeout_ms: waitTimeoutInput,
  },
  output: { timed_out: z.boolean(), stop: stopSchema.optional(), location: locationSchema.optional() },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const { session } = me;
    const { status, timed_out } = await waitForStopOrTimeout(me, args.timeout_ms, ctx.call);
    return {
      session,
      state: status.state,
      data: { timed_out, stop: formatStop(status), location: status.location },
      summary: timed_out ? `Still ${status.state} after ${args.timeout_ms} ms.` : stopSentence(status),
    };
  },
});

export const sessionTools = (connectors: readonly Connector[]): ToolDef[] => [
  startSession(connectors),
  sessionStatus,
  stopSession,
  claimControl,
  waitForStop,
];
