/**
 * The built-in C64's recording: a full machine-state snapshot every
 * SNAPSHOT_FRAMES frames, and one at each stop where a client changed the
 * machine (memory, registers, keys, joystick), so replay never has to
 * re-apply an input: from a snapshot, running the machine again gives the
 * same cycles, registers and memory (the machine has no other input). Each
 * snapshot carries the bitmap of addresses the CPU wrote until the next
 * one, so "who last wrote this" replays only the intervals that wrote it.
 * Bounded by `seconds` of machine time and `maxBytes` (the snapshots and
 * bitmaps, with room kept for the one a trip to the past saves).
 */
import type { BuiltinC64 } from '../c64.js';
import { captureMachine, type MachineState } from '../machine-state.js';
import { historyOff } from '../../../core/time-travel.js';

/** PAL C64: cycles a second */
export const CYCLES_PER_SECOND = 985_248;
/** a snapshot every this many frames (0.1 s): what one step back may replay at most */
export const SNAPSHOT_FRAMES = 5;
const BITMAP_BYTES = 0x2000;

export interface HistoryBudget {
  /** machine time kept, in seconds; 0: no history */
  seconds: number;
  /** memory the history may hold, in bytes; 0: no history */
  maxBytes: number;
}

export const DEFAULT_HISTORY = { seconds: 60, maxMegabytes: 128 } as const;

export interface Snapshot {
  readonly state: MachineState;
  /** taken where a client changed the machine: a replay may start here but never run across it */
  readonly input: boolean;
  /** the addresses the CPU wrote from this snapshot until the next (the last one's is the bus's live bitmap) */
  written?: Uint8Array;
}

export class HistoryRecorder {
  private snaps: Snapshot[] = [];
  private held = 0;
  private lastFrame = -1;
  /** why there is no history, when there is none */
  readonly off?: string;

  constructor(
    private readonly m: BuiltinC64,
    readonly budget: HistoryBudget,
    private readonly cyclesPerFrame: number,
  ) {
    this.off = historyOff(budget);
    if (!this.off) {
      const one = captureMachine(m).bytes + BITMAP_BYTES;
      if (2 * one > budget.maxBytes)
        this.off = `history is off: history.maxMegabytes (${(budget.maxBytes / 2 ** 20).toFixed(3)}) holds less than two snapshots of ${one} bytes`;
    }
    if (!this.off) m.onHistoryFrame = () => this.frameEnded();
  }

  get snapshots(): readonly Snapshot[] {
    return this.snaps;
  }

  /** The bytes held now (snapshots and write bitmaps, the live one included). */
  get bytes(): number {
    return this.held + BITMAP_BYTES;
  }

  /** The history begins again here (a reset, an autostart): nothing before it can be replayed. */
  restart(): void {
    if (this.off) return;
    this.snaps = [];
    this.held = 0;
    this.m.bus.written = new Uint8Array(BITMAP_BYTES);
    this.take();
  }

  /** A client changed the machine at this stop: a snapshot here (replacing one taken at the same cycle). */
  changed(): void {
    if (this.off) return;
    const last = this.snaps.at(-1);
    if (last && last.state.cycle === this.m.cpu.cycles) {
      this.snaps.pop();
      this.held -= last.state.bytes + BITMAP_BYTES;
      const before = this.snaps.at(-1);
      // the live bitmap goes on collecting the interval the replaced snapshot began
      if (before?.written) {
        for (let i = 0; i < BITMAP_BYTES; i++) this.m.bus.written[i] |= before.written[i];
        before.written = undefined;
      }
    }
    this.take(true);
  }

  /** Everything recorded after `cycle` is dropped (resuming from the past: that future will not happen now). */
  truncateAfter(cycle: number): void {
    while (this.snaps.length > 1 && this.snaps[this.snaps.length - 1].state.cycle > cycle) {
      const gone = this.snaps.pop()!;
      this.held -= gone.state.bytes + BITMAP_BYTES;
    }
    const last = this.snaps.at(-1);
    if (last?.written) {
      // the interval that holds `cycle` is the live one again; its bits may name later writes, which only costs a replay
      this.m.bus.written = last.written;
      last.written = undefined;
    }
  }

  private frameEnded(): void {
    const frame = this.m.frame;
    if (frame - this.lastFrame < SNAPSHOT_FRAMES) return;
    this.take();
  }

  private take(input = false): void {
    const last = this.snaps.at(-1);
    if (last) {
      last.written = this.m.bus.written;
      this.m.bus.written = new Uint8Array(BITMAP_BYTES);
    }
    const state = captureMachine(this.m);
    this.snaps.push({ state, input });
    this.held += state.bytes + BITMAP_BYTES;
    this.lastFrame = this.m.frame;
    this.enforce(state.bytes + BITMAP_BYTES);
  }

  /** Drops the oldest snapshots until the budget holds, with `reserve` bytes kept free for a trip to the past. */
  private enforce(reserve: number): void {
    const keepFrom = this.m.cpu.cycles - this.budget.seconds * CYCLES_PER_SECOND;
    while (
      this.snaps.length > 1 &&
      (this.bytes + reserve > this.budget.maxBytes || this.snaps[1].state.cycle <= keepFrom)
    ) {
      const gone = this.snaps.shift()!;
      this.held -= gone.state.bytes + BITMAP_BYTES;
    }
  }

  /**
   * Where a replay to `cycle` starts: the latest snapshot at or before
   * `cycle - margin` (else the oldest), but never one with an input
   * snapshot after it at or before `cycle` (then the latest such input one).
   */
  snapshotBefore(cycle: number, margin = 0): Snapshot | undefined {
    let found: Snapshot | undefined;
    for (const s of this.snaps) {
      if (s.state.cycle > cycle) break;
      if (found === undefined || s.input || s.state.cycle <= cycle - margin) found = s;
    }
    return found;
  }

  /** The snapshot after `snap`, if any. */
  next(snap: Snapshot): Snapshot | undefined {
    const i = this.snaps.indexOf(snap);
    return i >= 0 ? this.snaps[i + 1] : undefined;
  }
}
