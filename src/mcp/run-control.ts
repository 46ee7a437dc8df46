/**
 * Issue a run-control command and, when asked, wait a bounded time for the
 * stop it causes (ClientSession.nextStop arms the wait before the command, so
 * a stop that arrives while the command is still acknowledged is not missed).
 * Still running after the wait is a normal answer, not an error; a session
 * that failed or exited is an error. Waits end when the client cancels the
 * request, and send progress notifications while they last (clients that
 * reset their timeout on progress can wait longer).
 */
import * as z from 'zod/v4';
import type { SessionApi, SessionStatus } from '../session/types.js';
import type { ClientSession } from '../session/client-session.js';
import { RetroError, unsupported, launchFailed, targetLost } from '../core/errors.js';
import type { CallContext } from './call-context.js';

/** Below the MCP SDK's default 60 s request timeout, so a wait answers before the client gives up. */
export const MAX_WAIT_MS = 50_000;
export const DEFAULT_WAIT_MS = 10_000;
/** How often a wait tells the client it is still waiting. */
export const PROGRESS_EVERY_MS = 2_000;

export const waitTimeoutInput = z.number().int().min(0).max(MAX_WAIT_MS).default(DEFAULT_WAIT_MS).describe('ms');

export interface RunOutcome {
  status: SessionStatus;
  /** true when we waited for a stop and none came in time */
  timed_out: boolean;
}

export async function runThenWait(
  client: ClientSession,
  command: () => Promise<void>,
  waitMs: number,
  call?: CallContext,
): Promise<RunOutcome> {
  if (waitMs <= 0) {
    await command();
    return { status: await client.session.status(), timed_out: false };
  }
  const outcome = await withProgress(client.session, call, () =>
    timeoutAsResult(client.session, () => client.nextStop(waitMs, command, call?.signal)),
  );
  return { ...outcome, status: requireAlive(outcome.status) };
}

/**
 * waitForStop that reports a timeout as a result, not an error; `unsupported`
 * at once on a machine that can never stop (a DOS guest).
 */
export async function waitForStopOrTimeout(
  client: ClientSession,
  timeoutMs: number,
  call?: CallContext,
): Promise<RunOutcome> {
  await requireRunControl(client.session, 'waiting for a stop');
  const outcome = await withProgress(client.session, call, () =>
    timeoutAsResult(client.session, () => waitSettled(client, timeoutMs, call?.signal)),
  );
  return { ...outcome, status: requireAlive(outcome.status) };
}

/** The current stop when already stopped and ready (or ended), else the next one. */
async function waitSettled(client: ClientSession, timeoutMs: number, signal?: AbortSignal): Promise<SessionStatus> {
  let seen = false;
  // armed before looking, so a stop between the look and the wait is not missed
  const off = client.session.onEvent(({ event }) => {
    if (event.type === 'stopped' || event.type === 'exited' || event.type === 'phase') seen = true;
  });
  try {
    const st = await client.session.status();
    if ((st.state === 'stopped' && st.phase === 'ready') || st.state === 'exited' || st.phase === 'failed') return st;
    if (seen) return await waitSettled(client, timeoutMs, signal);
    return await client.nextStop(timeoutMs, undefined, signal);
  } finally {
    off();
  }
}

/**
 * Wait until a booting session is ready, forwarding each boot phase to the
 * client as a progress notification. A failed boot is an error.
 */
export async function waitUntilReady(
  client: ClientSession,
  timeoutMs: number,
  call?: CallContext,
): Promise<RunOutcome> {
  const off = client.onEvent(({ event }) => {
    if (event.type === 'phase') call?.progress(`${event.phase}: ${event.message}`);
  });
  try {
    return await timeoutAsResult(client.session, () => client.whenReady(timeoutMs, call?.signal));
  } finally {
    off();
  }
}

/** A failed or exited session is an error where the caller waited for a stop. */
export function requireAlive(status: SessionStatus): SessionStatus {
  if (status.phase === 'failed') {
    throw launchFailed(`Session ${status.session_id} failed: ${status.error?.message ?? 'no reason given'}.`, {
      failure: status.error,
    });
  }
  if (status.state === 'exited')
    throw targetLost(`Session ${status.session_id} has exited; start a new one.`, {
      failure: status.error,
    });
  return status;
}

/** Every PROGRESS_EVERY_MS while `work` runs: "still running after N s". */
async function withProgress<T>(session: SessionApi, call: CallContext | undefined, work: () => Promise<T>): Promise<T> {
  if (!call) return work();
  const started = Date.now();
  const timer = setInterval(() => {
    void session.status().then(
      (st) => call.progress(`still ${st.state} after ${Math.round((Date.now() - started) / 1000)} s`),
      () => undefined,
    );
  }, PROGRESS_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

async function timeoutAsResult(session: SessionApi, wait: () => Promise<SessionStatus>): Promise<RunOutcome> {
  try {
    return { status: await wait(), timed_out: false };
  } catch (err) {
    if (err instanceof RetroError && err.code === 'timeout') return { status: await session.status(), timed_out: true };
    throw err;
  }
}

/**
 * `unsupported` at once on a machine that can never stop (a DOS guest: no CPU debugger), naming what works
 * there instead, rather than a breakpoint that never fires or "pause it first".
 */
export async function requireRunControl(session: SessionApi, what: string): Promise<void> {
  const now = await session.status();
  if (now.run_control !== false) return;
  throw unsupported(
    `Session ${now.session_id} (${now.machine} in ${now.emulator}) always runs and never stops, so ${what} is ` +
      'not possible (no CPU debugger, no C debug info). Read its memory while it runs (read_memory), type_keys, ' +
      'screenshot; the dos tool group watches a CALL (dosbox_trace) and named variables (dosbox_watch).',
    { machine: now.machine, emulator: now.emulator },
  );
}
