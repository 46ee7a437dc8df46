/**
 * Time travel on MAME (TIME_TRAVEL_FEATURE): a ring of save states taken at stops (one when at least
 * MIN_GAP_CYCLES ran since the last, and one for the present before a trip to the past), and replays from them.
 * A moment in the past is a state and a count of instructions after it: the machine is taken there by loading the
 * state and stepping that many instructions quietly (no stop reaches the session); an interval's instructions and
 * writes come from a replay with MAME's trace (interval-trace.ts). The timeline's cycles are MAME's totalcycles as
 * the machine ran forward; inside an interval they are the replay's, kept in order.
 */
import { join } from 'node:path';
import { mkdir, stat } from 'node:fs/promises';
import { badRequest, internalError, notStopped, unsupported } from '../../../core/errors.js';
import type { TargetEmitter, StopInfo } from '../../../core/target.js';
import {
  checkInSpan,
  historyOff,
  type HistorySpan,
  type InstructionTrace,
  type RecordedStop,
  type TimeTravel,
  type WriteRecord,
} from '../../../core/time-travel.js';
import { StateRing, type RingBudget } from './state-ring.js';
import { mameNumber, runToMoment, traceInterval, type Replayer, type TracedInterval } from './interval-trace.js';

/**
 * A state at every stop while they are small (a Spectrum's is about 1 KB, saved in about 1 ms), so the interval a
 * Step Back replays is the last step's; larger ones (a Sprinter's, 140 KB) once MIN_GAP_CYCLES ran since the last
 * (a C line step is far less; a frame is 69 888).
 */
const DENSE_STATE_BYTES = 16 * 1024;
const MIN_GAP_CYCLES = 50_000;
/** an interval longer than this (about 2 s of a Spectrum) is not replayed instruction by instruction */
const MAX_TRACE_CYCLES = 7_000_000;
const MAX_STOPS = 200;
/**
 * frames run before a moment so every line MAME's screen shows there was drawn after the load: its bitmap holds the
 * frame being drawn over the one before last (two would leave part of that one)
 */
const REDRAW_FRAMES = 3;
const TRACES_KEPT = 16;
/** MAME's debugger variable that counts a moved-to PC's arrivals */
const COUNTER = 'temp7';

/** The refusal of a picture of a moment the screen cannot be redrawn at. */
export const noPastPicture = () =>
  unsupported(
    `The screen cannot be shown as it was at this moment: MAME's save states hold no picture, and the history keeps no state ${REDRAW_FRAMES} frames before it to redraw it from (the history's start, or keys typed); MAME's screen shows another moment.`,
    { history: 'no-picture' },
  );

export interface MameHistoryHost extends Replayer {
  running(): boolean;
  readonly cpuTag: string;
  readonly events: TargetEmitter;
  registers(): Promise<Record<string, number>>;
  /** MAME keeps its screen as it stands, for a screenshot later (a copy in MAME, not over the socket) */
  keepPicture(): Promise<void>;
}

interface Position {
  /** ring index of the state */
  k: number;
  /** instructions after it */
  n: number;
}

export class MameTimeTravel implements TimeTravel {
  readonly granularity =
    "MAME keeps a save state at each stop (at least 50 000 cycles apart where states are large, as the Sprinter's; and one for the present); any instruction boundary since the oldest state is reached by loading the state before it and running forward";
  private readonly ring: StateRing;
  private readonly recorded: RecordedStop[] = [];
  private readonly traces = new Map<string, TracedInterval>();
  /** the timeline's moment where the machine is */
  private now = 0;
  /** MAME's totalcycles there, when it continues the count (not right after a state load) */
  private tc?: number;
  private lastStop: { pc: number; registers: Record<string, number> };
  /** where the machine is while in the past */
  private past?: Position;
  private seq = 0;
  /** while the screen may show another moment than the machine's: the cycle from which it is redrawn again */
  private redrawnAt?: number;
  /** the present whose picture MAME keeps, taken as the machine first leaves it: a return without a redraw shows it */
  private presentKept?: number;
  /** inside aside(): the state whose moment the last replay ended at, where the machine stands (deterministic) */
  private replayedTo?: number;
  /** the state a run-control op was asked to save */
  private recording?: { file: string; at: { pc: number; registers: Record<string, number> } };
  readonly off?: string;

  constructor(
    private readonly host: MameHistoryHost,
    private readonly dir: string,
    budget: RingBudget,
    private readonly cyclesPerSecond: number,
    private readonly cyclesPerFrame: number,
    first: { pc: number; registers: Record<string, number>; cycles?: number },
  ) {
    this.ring = new StateRing(budget, cyclesPerSecond);
    this.off = historyOff(budget);
    this.lastStop = first;
    this.tc = first.cycles;
  }

  /** A stop the session sees (not a time-travel move): the clock moves on by MAME's cycles. */
  stopped(stop: StopInfo, registers: Record<string, number>, cycles: number | undefined): void {
    if (this.off) return;
    if (this.tc !== undefined && cycles !== undefined && cycles > this.tc) this.now += cycles - this.tc;
    this.tc = cycles;
    this.lastStop = { pc: stop.pc, registers };
    while (this.recorded.length && this.recorded[this.recorded.length - 1].cycle >= this.now) this.recorded.pop();
    this.recorded.push({ cycle: this.now, reason: stop.reason, pc: stop.pc });
    if (this.recorded.length > MAX_STOPS) this.recorded.shift();
  }

  /**
   * Before the CPU runs from a stop: leaves the past (its future is dropped) and, when one is due, names the file
   * the run-control op has MAME save a state in first (`ran` takes the reply).
   */
  beforeRun(): { record?: string } {
    if (this.off) return {};
    if (this.past) {
      // at the oldest state itself MAME's cycle count does not go on from the recorded one: the history restarts here
      this.ring.truncateAfter(this.past.n === 0 && this.past.k === 0 ? -1 : this.past.k);
      this.traces.clear();
      this.past = undefined;
    }
    const last = this.ring.last;
    if (last && (this.now <= last.cycle || (last.bytes > DENSE_STATE_BYTES && this.now - last.cycle < MIN_GAP_CYCLES)))
      return {};
    this.recording = { file: join(this.dir, `h${++this.seq}.sta`), at: { ...this.lastStop } };
    return { record: this.recording.file };
  }

  /** The run-control op's reply: the state it saved, and MAME's cycle count where the CPU started. */
  ran(reply: { saved?: number; cycles?: number }): void {
    const rec = this.recording;
    this.recording = undefined;
    if (this.tc === undefined) this.tc = reply.cycles;
    if (!rec || !reply.saved) return;
    this.ring.add({ file: rec.file, bytes: reply.saved, cycle: this.now, pc: rec.at.pc, registers: rec.at.registers });
  }

  /** Keys reach the machine while it runs from the newest state: replaying that interval would not see them. */
  typed(): void {
    const last = this.ring.last;
    if (last) last.typed = true;
  }

  /** A reset or a restart: nothing before it can be returned to. */
  forget(): void {
    this.ring.clear();
    this.traces.clear();
    this.past = undefined;
    this.tc = undefined;
  }

  stops(): RecordedStop[] {
    const span = this.span();
    return this.recorded.filter((s) => s.cycle >= span.startCycle && s.cycle <= span.endCycle);
  }

  span(): HistorySpan {
    if (this.off) throw unsupported(`No time travel: ${this.off}.`, { history: 'off' });
    const first = this.ring.states[0];
    const end = this.past ? this.ring.last!.cycle : this.now;
    return {
      startCycle: first?.cycle ?? this.now,
      endCycle: end,
      nowCycle: this.now,
      inPast: this.past !== undefined,
      cyclesPerFrame: this.cyclesPerFrame,
      cyclesPerSecond: this.cyclesPerSecond,
      snapshots: this.ring.states.length,
      bytes: this.ring.bytes,
      maxBytes: this.ring.budget.maxBytes,
      seconds: this.ring.budget.seconds,
    };
  }

  /**
   * The picture of the machine's moment: 'live' when MAME's screen shows it, else 'kept' (the present's picture MAME
   * keeps), else undefined. MAME's save states hold no picture and its screen keeps the frame last drawn, so a move
   * redraws it by loading a state REDRAW_FRAMES before and running to the moment; where the history holds none (its
   * start, keys typed) the screen shows another moment until the machine ran that long.
   */
  picture(): 'live' | 'kept' | undefined {
    if (!this.past && this.presentKept === this.now) return 'kept'; // exactly the present's, redrawn or not
    return this.screenLive ? 'live' : undefined;
  }

  pictureMissing(): string | undefined {
    return this.picture() ? undefined : noPastPicture().message;
  }

  /** MAME's screen shows the machine's moment: no move made, or redrawn, or the machine ran long enough since. */
  private get screenLive(): boolean {
    return this.redrawnAt === undefined || this.now >= this.redrawnAt;
  }

  async goTo(cycle: number, quiet = false): Promise<void> {
    this.requireStopped('travel in time');
    checkInSpan(this.span(), cycle);
    await this.keepPresent();
    const pos = await this.positionOf(cycle);
    // the present's picture is kept: a return there needs no redraw
    const present = pos.k === this.ring.states.length - 1 && pos.n === 0;
    await this.moveTo(pos, !present || this.presentKept !== this.ring.states[pos.k].cycle);
    this.past = present ? undefined : pos;
    if (quiet) return;
    const frame = (c: number) => Math.floor(c / this.cyclesPerFrame);
    const inPast = this.past !== undefined;
    const pastFrame = inPast ? { frame: frame(this.now), present: frame(this.ring.last!.cycle) } : undefined;
    this.host.events.emit({ type: 'stopped', stop: { reason: 'goto', pc: this.lastStop.pc, inPast, pastFrame } });
  }

  async trace(before: number, opts: { skipCalls?: boolean } = {}): Promise<InstructionTrace | undefined> {
    this.requireStopped('read the history');
    await this.keepPresent();
    const k = this.ring.indexAt(before - 1);
    if (k < 0 || k >= this.ring.states.length - 1) return undefined;
    const kept = this.keptTrace(k, opts.skipCalls);
    const wasNow = before === this.now;
    // a replay moves the machine: it goes back after one, not when the interval's trace is kept
    const t = kept ?? (await this.aside(() => this.traced(k, opts.skipCalls)));
    // a full trace that replaced a traceover one moved the present moment's label (cycles are each replay's)
    if (wasNow) before = this.now;
    const cycles = this.cyclesOf(k, t);
    let n = cycles.length;
    while (n > 0 && cycles[n - 1] >= before) n--;
    return {
      start: this.ring.states[k].cycle,
      cycles: cycles.slice(0, n),
      pcs: t.pcs.slice(0, n),
      sps: t.sps.slice(0, n),
    };
  }

  async lastWrite(address: number, length: number, before: number): Promise<WriteRecord | undefined> {
    this.requireStopped('search the history');
    await this.keepPresent();
    return this.aside(async () => {
      const wasNow = before === this.now;
      for (let k = Math.min(this.ring.indexAt(before - 1), this.ring.states.length - 2); k >= 0; k--) {
        const t = (await this.replay(k, { watch: { address, length } }))!;
        if (!this.keptTrace(k)) this.keep(k, t);
        if (wasNow) before = this.now;
        // positions are the same in every replay, MAME's cycle counts not quite: the timeline's are the cached trace's
        const cycles = this.cyclesOf(k, await this.traced(k));
        const end = this.ring.states[k + 1].cycle;
        const at = (p: number) => (p < cycles.length ? cycles[p] : end);
        const w = t.writes.filter((x) => at(x.position - 1) < before).at(-1);
        if (w)
          return {
            cycle: at(w.position),
            at: at(w.position - 1),
            pc: w.pc,
            address: w.address,
            old: w.old,
            value: w.value,
          };
      }
      return undefined;
    });
  }

  /** The present gets a state of its own before the machine leaves it (so a trip back ends exactly there). */
  private async keepPresent(): Promise<void> {
    if (this.past) return;
    if (this.presentKept !== this.now && this.screenLive) {
      await this.host.keepPicture();
      this.presentKept = this.now;
    }
    if (this.ring.last?.cycle !== this.now) await this.save();
  }

  private async save(): Promise<void> {
    if (!Object.keys(this.lastStop.registers).length) this.lastStop.registers = await this.host.registers();
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, `h${++this.seq}.sta`);
    await this.host.console(`statesave "${file}"`);
    const bytes = (await stat(file).catch(() => undefined))?.size;
    if (!bytes) throw internalError('MAME wrote no state file for the history.');
    this.ring.add({ file, bytes, cycle: this.now, pc: this.lastStop.pc, registers: this.lastStop.registers });
  }

  /** The state and instruction count of the first instruction boundary at or after `cycle`. */
  private async positionOf(cycle: number): Promise<Position> {
    const states = this.ring.states;
    const k = this.ring.indexAt(cycle);
    if (states[k].cycle === cycle) return { k, n: 0 };
    // a traceover trace leaves instructions out: it serves only the moments it lists
    const over = this.keptTrace(k, true);
    const listed = over && this.cyclesOf(k, over).includes(cycle);
    const cycles = this.cyclesOf(k, await this.traced(k, listed));
    let n = 0;
    while (n < cycles.length && cycles[n] < cycle) n++;
    if (n === cycles.length) return { k: k + 1, n: 0 };
    return { k, n };
  }

  /**
   * Loads the position's state and runs to it: to the c-th arrival at its PC with its SP after the state, counted
   * by a breakpoint condition in MAME (MAME's `step n` redraws the debugger's views every 100 steps and each of the
   * last 200: ten times slower). Position 0 is not counted: the CPU leaves it without a breakpoint check. A
   * traceover trace counts the same: an instruction left out ran deeper (lower SP) than the call that left it out.
   */
  private async moveTo(pos: Position, redraw: boolean): Promise<void> {
    const { k, n } = pos;
    const state = this.ring.states[k];
    const from = redraw ? this.redrawFrom(k) : undefined;
    await this.host.console(`stateload "${this.ring.states[from ?? k].file}"`);
    // MAME's totalcycles reads the count from before the load until the CPU runs; from there on it counts on
    this.tc = undefined;
    if (from !== undefined) await runToMoment(this.host, state);
    let where = { pc: state.pc, registers: state.registers };
    let expected = state.pc;
    const t = n > 0 ? (this.keptTrace(k, true) ?? (await this.traced(k))) : undefined;
    if (t) {
      const next = this.ring.states[k + 1];
      expected = n < t.pcs.length ? t.pcs[n] : next.pc;
      const sp = n < t.pcs.length ? t.sps[n] : (next.registers.SP ?? 0);
      let hits = 1;
      for (let i = 1; i < n; i++) if (t.pcs[i] === expected && t.sps[i] === sp) hits++;
      // a user's breakpoint or watchpoint on the way would stop the run early: off while it runs
      await this.host.console(`bpdisable; wpdisable; ${COUNTER} = 0`);
      // MAME's && evaluates both sides: the count goes up only where SP matches
      const at = `sp == ${mameNumber(sp)}`;
      const bp = await this.host.setBreakpoint(
        expected,
        `(${COUNTER} = ${COUNTER} + (${at})) == ${mameNumber(hits)} && ${at}`,
      );
      try {
        await this.host.quietly('resume', (stop, registers, cycles) => {
          where = { pc: stop.pc, registers };
          this.tc = cycles;
          return true;
        });
      } finally {
        await this.host.clearBreakpoint(bp);
        await this.host.console('bpenable; wpenable');
      }
    }
    if (where.pc !== expected || (t && where.registers.SP !== (n < t.pcs.length ? t.sps[n] : where.registers.SP)))
      throw internalError(
        `MAME's replay did not come back to the recorded moment (PC $${where.pc.toString(16)}, recorded $${expected.toString(16)}).`,
      );
    const cycles = t ? this.cyclesOf(k, t) : [];
    this.now = n === 0 ? state.cycle : n < cycles.length ? cycles[n] : this.ring.states[k + 1].cycle;
    this.lastStop = where;
    this.redrawnAt = from === undefined ? this.redrawnAfter() : undefined;
  }

  /**
   * The newest state at least REDRAW_FRAMES frames before state k whose intervals up to k replay exactly (no keys typed):
   * run from there, MAME draws every line of the frame the screen shows at k. Undefined where there is none.
   */
  private redrawFrom(k: number): number | undefined {
    const states = this.ring.states;
    for (let j = k - 1; j >= 0 && !states[j].typed; j--)
      if (states[j].cycle <= states[k].cycle - REDRAW_FRAMES * this.cyclesPerFrame) return j;
    return undefined;
  }

  /**
   * Runs `fn` (which moves the machine) and takes the machine back where it was: a replay that ended there (the
   * interval up to it, as the first Step Back's from the present) left it there, and a state load is saved (a
   * Sprinter's loads 64 MB of RAM).
   */
  private async aside<T>(fn: () => Promise<T>): Promise<T> {
    const back = this.past ?? { k: this.ring.states.length - 1, n: 0 };
    this.replayedTo = undefined;
    try {
      return await fn();
    } finally {
      // a move follows it, or the screen waits for one (picture() refuses)
      if (back.n === 0 && this.replayedTo === back.k) this.arrived(back.k);
      else await this.moveTo(back, false);
      this.replayedTo = undefined;
    }
  }

  /** The machine stands at state k's moment (a replay ran to it); the screen shows another moment. */
  private arrived(k: number): void {
    const state = this.ring.states[k];
    this.now = state.cycle;
    this.lastStop = { pc: state.pc, registers: state.registers };
    this.redrawnAt = this.redrawnAfter();
  }

  /** The cycle from which the screen shows the machine's moment again when it was not redrawn here. */
  private redrawnAfter(): number {
    return this.now + REDRAW_FRAMES * this.cyclesPerFrame;
  }

  /** The kept trace of interval k: a full one, or (`over`) a traceover one too. */
  private keptTrace(k: number, over = false): TracedInterval | undefined {
    const t = this.traces.get(this.ring.states[k].file);
    return t && (over || !t.over) ? t : undefined;
  }

  /**
   * The interval from state k to the next, traced once (the last few kept); `over`: a traceover trace will do
   * (a full one is taken where the interval ends inside a call it would leave out).
   */
  private async traced(k: number, over = false): Promise<TracedInterval> {
    const kept = this.keptTrace(k, over);
    if (kept) return kept;
    const t = (over ? await this.replay(k, { over }) : undefined) ?? (await this.replay(k))!;
    this.keep(k, t);
    return t;
  }

  /**
   * Keeps interval k's trace. A full one replacing a traceover one: the machine's place in it is found again by its
   * PC, SP and arrival count (the positions and each replay's cycles differ).
   */
  private keep(k: number, t: TracedInterval): void {
    const key = this.ring.states[k].file;
    const old = this.traces.get(key);
    this.traces.delete(key);
    this.traces.set(key, t);
    if (this.traces.size > TRACES_KEPT) this.traces.delete(this.traces.keys().next().value!);
    const past = this.past;
    if (!old?.over || t.over || past?.k !== k || past.n === 0 || past.n >= old.pcs.length) return;
    const [pc, sp] = [old.pcs[past.n], old.sps[past.n]];
    let hits = 0;
    for (let i = 1; i <= past.n; i++) if (old.pcs[i] === pc && old.sps[i] === sp) hits++;
    for (let i = 1; i < t.pcs.length; i++)
      if (t.pcs[i] === pc && t.sps[i] === sp && --hits === 0) {
        past.n = i;
        this.now = this.cyclesOf(k, t)[i];
        return;
      }
  }

  private async replay(
    k: number,
    opts: { watch?: { address: number; length: number }; over?: boolean } = {},
  ): Promise<TracedInterval | undefined> {
    const [state, next] = [this.ring.states[k], this.ring.states[k + 1]];
    if (state.typed)
      throw badRequest(
        'Keys were typed while the machine ran in this part of the history; MAME replays without them, so it cannot be returned to exactly.',
      );
    if (next.cycle - state.cycle > MAX_TRACE_CYCLES)
      throw badRequest(
        `The machine ran ${next.cycle - state.cycle} cycles between two recorded stops here (more than ${MAX_TRACE_CYCLES}); MAME replays such a run only to its ends, not instruction by instruction.`,
      );
    this.replayedTo = undefined;
    await this.host.console(`stateload "${state.file}"`);
    this.tc = undefined;
    this.redrawnAt = Infinity; // the moment is elsewhere: the move back redraws it
    const t = await traceInterval(this.host, join(this.dir, 'trace.log'), this.host.cpuTag, state, next, opts);
    // the run ended at the next state's moment (its PC and every register), traced or not (undefined: left out)
    this.replayedTo = k + 1;
    return t;
  }

  /** The timeline's cycles of an interval's positions: its start plus the replay's offsets, kept before its end. */
  private cyclesOf(k: number, t: TracedInterval): number[] {
    const start = this.ring.states[k].cycle;
    const end = this.ring.states[k + 1].cycle;
    const len = t.offsets.length;
    const out: number[] = [];
    for (let n = 0; n < len; n++) out.push(Math.max(start + n, Math.min(start + t.offsets[n], end - (len - n))));
    return out;
  }

  private requireStopped(what: string): void {
    if (this.off) throw unsupported(`No time travel: ${this.off}.`, { history: 'off' });
    if (this.host.running()) throw notStopped('running', { action: what });
  }
}
