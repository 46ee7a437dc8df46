/**
 * Time travel's replays run MAME without the session seeing them: while one runs, the bridge's stops go to it
 * (a step count ended, a traced interval's end, a write watched, a user's breakpoint passed on the way) and the CPU
 * is resumed until the replay says it is done.
 */
import { timedOut } from '../../../core/errors.js';
import type { StopInfo } from '../../../core/target.js';
import type { BridgeClient } from '../bridge-client.js';

/** a replay (a traced interval, steps to a moment) that takes longer is stopped */
const REPLAY_TIMEOUT_MS = 60_000;

export type QuietDone = (stop: StopInfo, registers: Record<string, number>, cycles?: number) => boolean;

export class QuietRuns {
  private quiet?: (stop: StopInfo, registers: Record<string, number>, cycles?: number) => void;

  constructor(private readonly bridge: BridgeClient) {}

  /** A stop from the bridge: true when a replay took it (the session must not see it). */
  take(stop: StopInfo, registers: Record<string, number>, cycles: number | undefined): boolean {
    if (!this.quiet) return false;
    this.quiet(stop, registers, cycles);
    return true;
  }

  /** Starts the CPU (resume, or `start` instructions) and resolves at the stop `done` accepts. */
  run(start: 'resume' | number, done: QuietDone): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const finish = (err?: unknown) => {
        clearTimeout(timer);
        this.quiet = undefined;
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(() => {
        this.quiet = () => (this.quiet = undefined); // the pause's stop is the replay's too
        void this.bridge.request('pause').catch(() => undefined);
        reject(
          timedOut(`A time-travel replay in MAME took longer than ${REPLAY_TIMEOUT_MS / 1000} s; it was stopped.`),
        );
      }, REPLAY_TIMEOUT_MS);
      this.quiet = (stop, registers, cycles) => {
        let end = true;
        try {
          end = done(stop, registers, cycles);
        } catch (err) {
          return finish(err);
        }
        if (end) finish();
        else this.bridge.request('resume').catch(finish);
      };
      const op = start === 'resume' ? this.bridge.request('resume') : this.bridge.request('step', { count: start });
      op.catch(finish);
    });
  }
}
