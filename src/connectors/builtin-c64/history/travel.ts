/**
 * Moving the built-in C64 through its recorded history: restore the
 * snapshot before a moment and run the machine quietly up to it (no
 * checkpoint, no viewer frame). The present is kept while the machine is
 * in the past; resuming or changing the machine there drops the recorded
 * future (leavePast). Traces and write searches run from a snapshot and
 * put the machine back where it was, pictures included.
 */
import { checkInSpan, type HistorySpan, type InstructionTrace, type WriteRecord } from '../../../core/time-travel.js';
import type { ExecutedInstruction } from '../../../core/cpu-history.js';
import type { InstructionObserver } from '../../../cpu/6502/cpu6502.js';
import { WATCH_STORE } from '../c64-bus.js';
import { CYCLES_PER_FRAME, type BuiltinC64 } from '../c64.js';
import { captureMachine, restoreMachine, type MachineState } from '../machine-state.js';
import { CYCLES_PER_SECOND, type HistoryRecorder, type Snapshot } from './recorder.js';

/** Replay from at least two frames before a moment, so the completed frame the screen shows is redrawn. */
const PICTURE_MARGIN = 2 * CYCLES_PER_FRAME;
/** traced intervals kept (about 60 000 instructions, a few MB, each) */
const TRACES_KEPT = 2;

export class MachineTravel {
  /** the present, while the machine is in the past */
  private present?: { state: MachineState; written: Uint8Array };
  /** the intervals traced last (a walk back asks for the same one again and again) */
  private traces: { snap: Snapshot; end: number; trace: InstructionTrace }[] = [];

  constructor(
    private readonly m: BuiltinC64,
    readonly recorder: HistoryRecorder,
  ) {}

  get inPast(): boolean {
    return this.present !== undefined;
  }

  span(): HistorySpan {
    const r = this.recorder;
    const first = r.snapshots[0];
    const now = this.m.cpu.cycles;
    return {
      startCycle: first?.state.cycle ?? now,
      endCycle: this.present?.state.cycle ?? now,
      nowCycle: now,
      inPast: this.inPast,
      cyclesPerFrame: CYCLES_PER_FRAME,
      cyclesPerSecond: CYCLES_PER_SECOND,
      snapshots: r.snapshots.length,
      bytes: r.bytes + (this.present ? this.present.state.bytes : 0),
      maxBytes: r.budget.maxBytes,
      seconds: r.budget.seconds,
    };
  }

  /** Takes the machine to the first instruction boundary at or after `cycle`; returns the cycle reached. */
  goTo(cycle: number): number {
    const span = this.span();
    checkInSpan(span, cycle);
    if (cycle === span.endCycle) {
      this.backToPresent();
      return this.m.cpu.cycles;
    }
    if (!this.present) this.present = { state: captureMachine(this.m), written: this.m.bus.written };
    this.replayTo(this.recorder.snapshotBefore(cycle, PICTURE_MARGIN)!, cycle);
    return this.m.cpu.cycles;
  }

  /** The machine resumes or is changed where it is: the recorded future will not happen now. */
  leavePast(): void {
    if (!this.present) return;
    this.present = undefined;
    this.recorder.truncateAfter(this.m.cpu.cycles);
  }

  /** Nothing to go back to any more (a reset, an autostart: the history restarts). */
  forget(): void {
    this.present = undefined;
  }

  /** The instructions from the snapshot before `before` up to it; each interval is traced once (the last two kept). */
  trace(before: number): InstructionTrace | undefined {
    const snap = this.recorder.snapshotBefore(before - 1);
    if (!snap || snap.state.cycle >= before) return undefined;
    const end = this.recorder.next(snap)?.state.cycle ?? this.span().endCycle;
    let full = this.traces.find((t) => t.snap === snap && t.end === end)?.trace;
    if (!full) {
      full = this.traceInterval(snap, end);
      this.traces = [{ snap, end, trace: full }, ...this.traces].slice(0, TRACES_KEPT);
    }
    let n = full.cycles.length;
    while (n > 0 && full.cycles[n - 1] >= before) n--;
    return { start: full.start, cycles: full.cycles.slice(0, n), pcs: full.pcs.slice(0, n), sps: full.sps.slice(0, n) };
  }

  private traceInterval(snap: Snapshot, end: number): InstructionTrace {
    const trace: InstructionTrace = { start: snap.state.cycle, cycles: [], pcs: [], sps: [] };
    this.aside(() => {
      restoreMachine(this.m, snap.state);
      const cpu = this.m.cpu;
      while (cpu.cycles < end) {
        trace.cycles.push(cpu.cycles);
        trace.pcs.push(cpu.pc);
        trace.sps.push(cpu.s);
        if (this.m.runQuiet(1) === 'jam') break;
      }
    });
    return trace;
  }

  /** The last `count` instructions before now, oldest first: the intervals back from now, replayed with an observer. */
  recent(count: number): ExecutedInstruction[] {
    const parts: ExecutedInstruction[][] = [];
    let have = 0;
    let before = this.m.cpu.cycles;
    while (have < count) {
      const snap = this.recorder.snapshotBefore(before - 1);
      if (!snap || snap.state.cycle >= before) break;
      const part = this.instructions(snap, before);
      parts.unshift(part);
      have += part.length;
      before = snap.state.cycle;
    }
    return parts.flat().slice(-count);
  }

  /** Each instruction from `snap` up to `end` as the CPU was about to run it (after any interrupt entry). */
  private instructions(snap: Snapshot, end: number): ExecutedInstruction[] {
    const out: ExecutedInstruction[] = [];
    this.aside(() => {
      const { cpu, bus } = this.m;
      restoreMachine(this.m, snap.state);
      const observe: InstructionObserver = (pc, cycle, sp) => {
        const bytes: [number, number, number] = [
          bus.peek(pc),
          bus.peek((pc + 1) & 0xffff),
          bus.peek((pc + 2) & 0xffff),
        ];
        out.push({ cycle, pc, a: cpu.a, x: cpu.x, y: cpu.y, sp, flags: cpu.p, bytes });
      };
      if (end > cpu.cycles) this.m.runQuiet(end - cpu.cycles, undefined, observe);
    });
    return out;
  }

  lastWrite(address: number, length: number, before: number): WriteRecord | undefined {
    const snaps = this.recorder.snapshots;
    for (let i = snaps.length - 1; i >= 0; i--) {
      const snap = snaps[i];
      if (snap.state.cycle >= before) continue;
      const bits = snap.written ?? (this.present?.written || this.m.bus.written);
      if (!touches(bits, address, length)) continue;
      const found = this.probeWrites(snap, address, length, before);
      if (found) return found;
    }
    return undefined;
  }

  private backToPresent(): void {
    const present = this.present;
    if (!present) return;
    this.present = undefined;
    restoreMachine(this.m, present.state);
    // the picture as the present had it: replay from the last snapshot redraws it
    const snap = this.recorder.snapshotBefore(present.state.cycle, PICTURE_MARGIN);
    if (snap && snap.state.cycle < present.state.cycle) this.replayTo(snap, present.state.cycle);
    this.m.bus.written = present.written;
  }

  /** Restores `snap` and runs to `cycle`, writing nothing into the live write bitmap. */
  private replayTo(snap: Snapshot, cycle: number): void {
    const live = this.m.bus.written;
    this.m.bus.written = new Uint8Array(live.length);
    try {
      restoreMachine(this.m, snap.state);
      if (cycle > this.m.cpu.cycles) this.m.runQuiet(cycle - this.m.cpu.cycles);
    } finally {
      this.m.bus.written = live;
    }
  }

  /** The interval from `snap` replayed an instruction at a time with a store probe on the range. */
  private probeWrites(snap: Snapshot, address: number, length: number, before: number): WriteRecord | undefined {
    let last: WriteRecord | undefined;
    this.aside(() => {
      const { m } = this;
      const end = this.recorder.next(snap)?.state.cycle ?? Infinity;
      const watch = new Uint8Array(0x10000);
      for (let a = address; a < address + length; a++) watch[a & 0xffff] = WATCH_STORE;
      const halt = m.bus.onWatch;
      const probe: { hit?: { address: number; old: number; value: number } } = {};
      m.bus.onWatch = () => {
        const h = m.bus.watchHits[m.bus.watchHits.length - 1];
        probe.hit = { address: h.address, old: m.bus.peek(h.address), value: h.value };
        halt();
      };
      try {
        restoreMachine(m, snap.state);
        const cpu = m.cpu;
        while (cpu.cycles < before && cpu.cycles < end) {
          const at = cpu.cycles;
          const pc = cpu.pc;
          probe.hit = undefined;
          if (m.runQuiet(1, watch) === 'jam') break;
          const hit = probe.hit as { address: number; old: number; value: number } | undefined;
          if (hit) last = { cycle: cpu.cycles, at, pc, address: hit.address, old: hit.old, value: hit.value };
        }
      } finally {
        m.bus.onWatch = halt;
      }
    });
    return last;
  }

  /** Runs `fn` (which moves the machine) and puts the machine back as it was, its pictures and write bitmap too. */
  private aside(fn: () => void): void {
    const { m } = this;
    const raster = m.bus.raster as unknown as Record<'live' | 'last', Buffer>;
    const saved = captureMachine(m);
    const pictures = [Buffer.from(raster.live), Buffer.from(raster.last)];
    const live = m.bus.written;
    m.bus.written = new Uint8Array(live.length);
    try {
      fn();
    } finally {
      restoreMachine(m, saved);
      raster.live.set(pictures[0]);
      raster.last.set(pictures[1]);
      m.bus.written = live;
    }
  }
}

function touches(bits: Uint8Array, address: number, length: number): boolean {
  for (let a = address; a < address + length; a++) if (bits[(a & 0xffff) >> 3] & (1 << (a & 7))) return true;
  return false;
}
