/**
 * Issue a run-control command and, when asked, wait a bounded time for the
 * stop it causes. The listener is attached before the command so a stop that
 * arrives while the command is still being acknowledged is not missed.
 */
import type { SessionApi, SessionStatus } from '../session/types.js';
import { RetroError } from '../core/errors.js';

export const MAX_WAIT_MS = 60_000;
export const DEFAULT_WAIT_MS = 10_000;

export interface RunOutcome {
  status: SessionStatus;
  /** true when we waited for a stop and none came in time */
  timed_out: boolean;
}

export async function runThenWait(
  session: SessionApi,
  command: () => Promise<void>,
  waitMs: number,
): Promise<RunOutcome> {
  let onStop!: () => void;
  const stopped = new Promise<void>((resolve) => {
    onStop = resolve;
  });
  const off = session.onEvent((e) => {
    if (e.event.type === 'stopped' || e.event.type === 'exited') onStop();
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await command();
    let timedOut = false;
    if (waitMs > 0) {
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), waitMs);
      });
      timedOut = (await Promise.race([stopped, timeout])) === 'timeout';
    }
    return { status: await session.status(), timed_out: timedOut };
  } finally {
    off();
    if (timer) clearTimeout(timer);
  }
}

/** waitForStop that reports a timeout as a result, not an error: still running is a normal answer. */
export async function waitForStopOrTimeout(session: SessionApi, timeoutMs: number): Promise<RunOutcome> {
  try {
    return { status: await session.waitForStop(timeoutMs), timed_out: false };
  } catch (err) {
    if (err instanceof RetroError && err.code === 'timeout') return { status: await session.status(), timed_out: true };
    throw err;
  }
}
