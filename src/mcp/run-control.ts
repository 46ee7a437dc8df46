/**
 * Issue a run-control command and, when asked, wait a bounded time for the
 * stop it causes (ClientSession.nextStop arms the wait before the command, so
 * a stop that arrives while the command is still acknowledged is not missed).
 * Still running after the wait is a normal answer, not an error.
 */
import type { SessionApi, SessionStatus } from '../session/types.js';
import type { ClientSession } from '../session/client-session.js';
import { RetroError } from '../core/errors.js';

export const MAX_WAIT_MS = 60_000;
export const DEFAULT_WAIT_MS = 10_000;

export interface RunOutcome {
  status: SessionStatus;
  /** true when we waited for a stop and none came in time */
  timed_out: boolean;
}

export async function runThenWait(
  client: ClientSession,
  command: () => Promise<void>,
  waitMs: number,
): Promise<RunOutcome> {
  if (waitMs <= 0) {
    await command();
    return { status: await client.session.status(), timed_out: false };
  }
  return timeoutAsResult(client.session, () => client.nextStop(waitMs, command));
}

/** waitForStop that reports a timeout as a result, not an error. */
export function waitForStopOrTimeout(session: SessionApi, timeoutMs: number): Promise<RunOutcome> {
  return timeoutAsResult(session, () => session.waitForStop(timeoutMs));
}

async function timeoutAsResult(session: SessionApi, wait: () => Promise<SessionStatus>): Promise<RunOutcome> {
  try {
    return { status: await wait(), timed_out: false };
  } catch (err) {
    if (err instanceof RetroError && err.code === 'timeout') return { status: await session.status(), timed_out: true };
    throw err;
  }
}
