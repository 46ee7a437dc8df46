/**
 * Runs the built-in C64 in slices: warp (as fast as possible, yielding to
 * I/O between slices) or paced to the real machine's 50.125 frames a second.
 * The pacing clock keeps running through short stops (a hidden read of an
 * MCP client, a capture), so the machine catches up afterwards and watching
 * does not slow it; only a stop longer than RESTART_AFTER_MS (a person at a
 * breakpoint) or a change of speed starts it afresh.
 */
import { CYCLES_PER_FRAME, type BuiltinC64, type StopCause } from './c64.js';

/** PAL frame time in ms, for real-speed running */
const FRAME_MS = 1000 / 50.125;
/** what one slice runs at most before yielding to I/O */
const MAX_SLICE = CYCLES_PER_FRAME * 5;
/** a stop longer than this was a real one: do not race to catch up on it */
export const RESTART_AFTER_MS = 250;

export class SlicePacer {
  private timer?: NodeJS.Immediate | NodeJS.Timeout;
  private wallStart = performance.now();
  private cycleStart = 0;
  private stoppedAt?: number;
  private pacedLast?: boolean;

  constructor(
    private readonly machine: BuiltinC64,
    /** true: as fast as possible */
    private readonly warp: () => boolean,
    private readonly onStop: (cause: StopCause) => void,
  ) {}

  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  /** Runs (again) after a stop; the clock goes on unless the stop was long. */
  start(): void {
    if (this.stoppedAt === undefined || performance.now() - this.stoppedAt > RESTART_AFTER_MS) this.restartClock();
    this.stoppedAt = undefined;
    this.schedule();
  }

  /** The machine stopped (or the server closes): no more slices. */
  stop(): void {
    this.stoppedAt ??= performance.now();
    this.cancel();
  }

  /** Slices again without touching the clock (a stop nobody saw, e.g. with no client connected). */
  schedule(): void {
    if (this.timer) return;
    const warp = this.warp();
    this.timer = warp ? setImmediate(() => this.tick()) : setTimeout(() => this.tick(), 1);
  }

  private cancel(): void {
    if (!this.timer) return;
    clearTimeout(this.timer as NodeJS.Timeout);
    clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = undefined;
  }

  private restartClock(): void {
    this.wallStart = performance.now();
    this.cycleStart = this.machine.cpu.cycles;
  }

  private tick(): void {
    this.timer = undefined;
    const warp = this.warp();
    if (this.pacedLast !== !warp) this.restartClock(); // a new speed: real time counts from now
    this.pacedLast = !warp;
    let budget = MAX_SLICE;
    if (!warp) {
      const due = this.cycleStart + ((performance.now() - this.wallStart) / FRAME_MS) * CYCLES_PER_FRAME;
      budget = Math.min(MAX_SLICE, Math.max(0, Math.floor(due - this.machine.cpu.cycles)));
    }
    const cause = budget > 0 ? this.machine.runSlice(budget) : undefined;
    if (cause) {
      this.stoppedAt = performance.now();
      this.onStop(cause);
      return;
    }
    this.timer = warp ? setImmediate(() => this.tick()) : setTimeout(() => this.tick(), Math.max(1, FRAME_MS / 2));
  }
}
