/**
 * MAME's recorded history: a bounded ring of save states, each taken at a stop (MAME `statesave` into the
 * session's run folder), with the moment it was taken (`cycle`, the session's own timeline) and the registers there,
 * which is how a replay from the state before knows it reached it. Bounded by `seconds` of machine time and
 * `maxBytes` of state files; the oldest go first.
 */
import { rm } from 'node:fs/promises';

export interface RingState {
  /** absolute path of the state file (MAME writes and reads it) */
  file: string;
  bytes: number;
  /** the timeline's moment of the stop it was taken at */
  cycle: number;
  pc: number;
  /** the registers at that stop (MAME's names), the end of the interval before it */
  registers: Record<string, number>;
  /** keys were typed while the machine ran from this state to the next: a replay of that interval would differ */
  typed?: boolean;
}

export interface RingBudget {
  seconds: number;
  maxBytes: number;
}

export class StateRing {
  private list: RingState[] = [];
  private held = 0;

  constructor(
    readonly budget: RingBudget,
    private readonly cyclesPerSecond: number,
  ) {}

  get states(): readonly RingState[] {
    return this.list;
  }

  get bytes(): number {
    return this.held;
  }

  get last(): RingState | undefined {
    return this.list.at(-1);
  }

  /** Adds a state (the newest) and drops the oldest beyond the budget, always keeping the newest one. */
  add(state: RingState): void {
    this.list.push(state);
    this.held += state.bytes;
    const keepFrom = state.cycle - this.budget.seconds * this.cyclesPerSecond;
    while (this.list.length > 1 && (this.held > this.budget.maxBytes || this.list[1].cycle <= keepFrom))
      this.drop(this.list.shift()!);
  }

  /** The index of the latest state at or before `cycle` (-1: none). */
  indexAt(cycle: number): number {
    let i = -1;
    while (i + 1 < this.list.length && this.list[i + 1].cycle <= cycle) i++;
    return i;
  }

  /** Drops the states after index `i` (resuming from the past: that future will not happen now). */
  truncateAfter(i: number): void {
    while (this.list.length > i + 1) this.drop(this.list.pop()!);
  }

  clear(): void {
    this.truncateAfter(-1);
  }

  private drop(state: RingState): void {
    this.held -= state.bytes;
    void rm(state.file, { force: true });
  }
}
