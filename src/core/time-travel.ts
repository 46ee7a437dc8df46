/**
 * Time travel: a target that records its machine's history provides this
 * feature (the built-in C64). Moments are the machine's cycle counts; the
 * session maps them to C lines, frames and seconds.
 */
import { badRequest } from './errors.js';
import { featureKey } from './target.js';

export interface HistorySpan {
  /** the oldest moment that can be returned to */
  startCycle: number;
  /** the present: where the machine was when it was last taken back */
  endCycle: number;
  /** where the machine is now (endCycle unless in the past) */
  nowCycle: number;
  inPast: boolean;
  cyclesPerFrame: number;
  cyclesPerSecond: number;
  snapshots: number;
  bytes: number;
  maxBytes: number;
  seconds: number;
}

/** The instructions run from `start` up to a moment: each one's start cycle, PC and stack pointer. */
export interface InstructionTrace {
  start: number;
  cycles: number[];
  pcs: number[];
  sps: number[];
}

/** One write found in the history. */
export interface WriteRecord {
  /** the moment after the writing instruction (where a session is taken to see it) */
  cycle: number;
  /** the writing instruction's start cycle and address */
  at: number;
  pc: number;
  address: number;
  old: number;
  value: number;
}

/** A stop the machine made while recording (a breakpoint hit, a step, a pause). */
export interface RecordedStop {
  cycle: number;
  reason: string;
  pc: number;
}

export interface TimeTravel {
  /** for people: what a step back moves by, what is recorded */
  readonly granularity: string;
  /** Throws `unsupported` with the reason when the history is off. */
  span(): HistorySpan;
  /**
   * Takes the stopped machine to `cycle` (the first instruction boundary at or after it; endCycle: the present); a
   * stop follows, unless `quiet`: then the caller only looks there (a condition) and must end with a move that stops.
   */
  goTo(cycle: number, quiet?: boolean): Promise<void>;
  /**
   * The instructions of the recorded interval that ends before `before` (undefined: nothing is recorded before it).
   * `skipCalls`: the instructions inside calls made in the interval may be left out (MAME's traceover: far fewer
   * to replay), for walks that pass over deeper frames anyway; the moments listed can still be gone to.
   */
  trace(before: number, opts?: { skipCalls?: boolean }): Promise<InstructionTrace | undefined>;
  /** The stops recorded inside the history's span, oldest first (time-travel moves are not listed). */
  stops(): RecordedStop[];
  /** The last CPU write to [address, address + length) before `before`, or undefined when none is recorded. */
  lastWrite(address: number, length: number, before: number): Promise<WriteRecord | undefined>;
  /** Why the screen cannot show the machine's moment (a past one it cannot redraw), or undefined when it can. */
  pictureMissing?(): string | undefined;
}

export const TIME_TRAVEL_FEATURE = featureKey<TimeTravel>('time-travel');

/** A move to `cycle` stays inside the span, or is refused with the span named (the machine stays). */
export function checkInSpan(span: HistorySpan, cycle: number): void {
  if (!Number.isFinite(cycle) || cycle < span.startCycle || cycle > span.endCycle)
    throw badRequest(
      `cycle ${cycle} is outside the recorded history (cycles ${span.startCycle}-${span.endCycle}); the machine stays at cycle ${span.nowCycle}.`,
      { startCycle: span.startCycle, endCycle: span.endCycle },
    );
}

/** Why a history budget records nothing (either bound at 0), or undefined. */
export function historyOff(budget: { seconds: number; maxBytes: number }): string | undefined {
  if (budget.seconds > 0 && budget.maxBytes > 0) return undefined;
  return `history is off: the launch options set ${budget.seconds > 0 ? 'history.maxMegabytes' : 'history.seconds'} to 0 (set both above 0 to record)`;
}
