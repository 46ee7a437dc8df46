/**
 * What frames while running cost a real VICE, measured: each capture then is
 * a hidden stop (PING stops it, DISPLAY_GET and PALETTE_GET read, EXIT
 * resumes), timed from the first request to the resume's answer, so the
 * figure is the stop plus about one round trip. Kept for the last 16 stops;
 * stops/s over the last 5 s.
 */
import type { FrameSourceInfo } from '../../core/target.js';

const KEPT = 16;
const WINDOW_MS = 5000;

export class StopCost {
  private readonly stops: { at: number; ms: number }[] = [];
  private firstAt?: number;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** Times one stop of the running machine. */
  async time<T>(work: () => Promise<T>): Promise<T> {
    const start = this.clock();
    try {
      return await work();
    } finally {
      this.record(start, this.clock() - start);
    }
  }

  record(at: number, ms: number): void {
    this.firstAt ??= at;
    this.stops.push({ at, ms });
    if (this.stops.length > KEPT) this.stops.shift();
  }

  /** The median stop and the stops a second lately; undefined before the first. */
  measured(): FrameSourceInfo['measured'] {
    if (!this.stops.length) return undefined;
    const sorted = this.stops.map((s) => s.ms).sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const stopMs = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    const now = this.clock();
    const recent = this.stops.filter((s) => now - s.at <= WINDOW_MS);
    // over the time since the first stop while that is shorter than the window, never under one second
    const span = Math.max(1000, Math.min(WINDOW_MS, now - (this.firstAt ?? now)));
    return { stopMs, stopsPerSecond: (recent.length * 1000) / span, samples: this.stops.length };
  }
}
