import { RetroError, mayHaveMutated } from '../core/errors.js';
import type { StopInfo } from '../core/target.js';

interface Waiter {
  resolve: (s: StopInfo) => void;
  reject: (e: unknown) => void;
  /** the timeout, cleared once answered: a pending one would keep the waiter (and what it holds) until it fires */
  timer?: NodeJS.Timeout;
}

/**
 * Internal multi-leg operations (C-line steps, running to main) wait for the
 * emulator's next stop here, so the session can keep those legs from clients.
 */
export class StopWaiters {
  private waiters: Waiter[] = [];

  get pending(): boolean {
    return this.waiters.length > 0;
  }

  /** The next stop; arm it before issuing the command so a fast stop cannot slip past. */
  arm(timeoutMs?: number): Promise<StopInfo> {
    const next = new Promise<StopInfo>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      this.waiters.push(waiter);
      if (!timeoutMs) return;
      waiter.timer = setTimeout(() => {
        if (!this.waiters.includes(waiter)) return;
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          mayHaveMutated(`No stop within ${timeoutMs} ms; the machine is still running.`, {
            timeout_ms: timeoutMs,
          }),
        );
      }, timeoutMs).unref();
    });
    // Marked handled: a session ended while its arming leg still awaits the emulator's run command rejects this
    // before anyone awaits it, and an unhandled rejection would end the whole server. Awaiting it still throws.
    next.catch(() => undefined);
    return next;
  }

  /** Hands a stop to everyone waiting; false when nobody was. */
  resolve(stop: StopInfo): boolean {
    const waiters = this.take();
    waiters.forEach((w) => w.resolve(stop));
    return waiters.length > 0;
  }

  rejectAll(err: RetroError): void {
    this.take().forEach((w) => w.reject(err));
  }

  private take(): Waiter[] {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) clearTimeout(w.timer);
    return waiters;
  }
}
