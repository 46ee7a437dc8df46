/**
 * The built-in C64: a 6502 core on the C64 memory map with KERNAL stand-ins,
 * VICE-style checkpoints (exec, load, store; ranges, conditions, temporary,
 * trace-only), instruction stepping and "execute until return". It runs in
 * slices driven by its monitor server; nothing here does I/O.
 */
import { Cpu6502, OP_JSR, OP_RTI, OP_RTS, type InstructionObserver } from '../../cpu/6502/cpu6502.js';
import { C64Bus, CYCLES_PER_LINE, LINES_PER_FRAME, WATCH_LOAD, WATCH_STORE } from './c64-bus.js';
import { parseCondition, type Condition } from './condition.js';
import { Kernal } from './kernal.js';
import { K, KERNAL_BASE } from './kernal-image.js';
import type { HostFolderDrive } from './host-drive.js';
import { ScreenEditor } from './screen-editor.js';
import type { CheckpointInfo } from '../vice/protocol.js';
import { fillPowerOnPattern, inRange, registerValue } from './c64-memory.js';
import { basicSysAddress } from '../../core/basic-stub.js';
import { hex } from '../../core/hex.js';

export { fillPowerOnPattern } from './c64-memory.js';

export const CYCLES_PER_FRAME = CYCLES_PER_LINE * LINES_PER_FRAME;
/** VICE's keyboard queue drops text beyond this many bytes */
const KEY_QUEUE_MAX = 256;
/** the largest PRG payload: everything from $0002 to $FFFF */
export const MAX_PRG_BYTES = 0x10000 - 2 + 2;

/** the watch flags of a replay without a probe: never written */
const NO_WATCH = new Uint8Array(0x10000);
const BREAK_CHECKPOINT = 1;
const BREAK_TRAP = 2;
const BREAK_INTERNAL = 4;

export interface Checkpoint extends CheckpointInfo {
  condition?: Condition;
}

/** Why a slice ended with the machine stopped. */
export type StopCause = 'checkpoint' | 'step' | 'jam';

type Mode =
  | { kind: 'run' }
  | { kind: 'advance'; remaining: number; over: boolean; callReturn?: { pc: number; sp: number } }
  | { kind: 'return'; sp: number };

export interface MachineEvents {
  /** a checkpoint matched (sent before any stop, also for trace-only ones) */
  checkpointHit(info: CheckpointInfo): void;
  log(text: string): void;
}

export class MachineError extends Error {}

export class BuiltinC64 {
  readonly bus = new C64Bus();
  readonly cpu = new Cpu6502(this.bus);
  readonly editor = new ScreenEditor(this.bus);
  readonly kernal: Kernal;
  readonly checkpoints = new Map<number, Checkpoint>();
  private nextCheckpoint = 1;
  private readonly breaks = new Uint8Array(0x10000);
  private readonly keyQueue: number[] = [];
  private mode: Mode = { kind: 'run' };
  /** true while the CPU sits on the instruction it stopped at: resuming runs it without re-checking */
  private resumeAtStop = false;
  /** KERNAL traps: one function for the machine's life, not one each run (runOnce runs every raster line) */
  private readonly trap = (pc: number): boolean => {
    this.kernal.call(pc);
    return false;
  };
  private nextFrame = CYCLES_PER_FRAME;
  /** called at each frame boundary while running (the frame clock live viewers are fed from) */
  onFrame?: () => void;
  /** the start cycle of the raster line the CPU is on (the raster has drawn every line before it) */
  private lineStart = 0;
  /** called at each frame boundary while running, not while replaying history (the history's snapshot clock) */
  onHistoryFrame?: () => void;
  /** replaying history (runQuiet): KERNAL traps only, no checkpoint, watch, frame, event or live observer */
  private quiet = false;
  private readonly trapBreaks = new Uint8Array(0x10000);

  constructor(private readonly events: MachineEvents) {
    this.bus.clock = () => this.cpu.cycles;
    this.bus.onWatch = () => {
      this.cpu.haltRequested = true;
    };
    const irq = () => {
      this.cpu.irqLine = this.bus.cia1.interrupting || this.bus.vicInterrupting;
    };
    this.bus.cia1.onChange = irq;
    // CIA 2 drives the NMI line, which is edge-triggered: a new NMI only when its output goes active again
    let nmiLine = false;
    this.bus.cia2.onChange = () => {
      const active = this.bus.cia2.interrupting;
      if (active && !nmiLine) this.cpu.nmi();
      nmiLine = active;
    };
    this.bus.onVicInterrupt = irq;
    this.bus.raster.onInterrupt = irq;
    this.kernal = new Kernal({ cpu: this.cpu, bus: this.bus, editor: this.editor, log: (t) => events.log(t) });
    for (const address of this.kernal.addresses()) this.breaks[address] |= BREAK_TRAP;
    this.trapBreaks.set(this.breaks);
    this.powerOn();
  }

  get frame(): number {
    return Math.floor(this.cpu.cycles / CYCLES_PER_FRAME);
  }

  powerOn(): void {
    fillPowerOnPattern(this.bus.ram);
    this.bus.colorRam.fill(0);
    this.reset();
  }

  /** Device 8 (a host-folder drive), or none. */
  attachDrive(drive: HostFolderDrive | undefined): void {
    this.kernal.attachDrive(8, drive);
  }

  /** CPU reset: the KERNAL stand-in's cold start runs at the reset vector. */
  reset(): void {
    this.cpu.reset();
    this.bus.resetChips(this.cpu.cycles);
    this.cpu.irqLine = false;
    this.mode = { kind: 'run' };
    this.resumeAtStop = false;
    this.kernal.call(this.cpu.pc);
  }

  /**
   * Loads a PRG as autostart with the inject mode does: reset, copy to its
   * load address, set BASIC's end-of-program pointer, and (run) start the
   * BASIC stub's SYS address as RUN would. There is no BASIC interpreter, so
   * a program without a SYS line cannot be run.
   */
  autostart(prg: Uint8Array, run: boolean): { load: number; end: number; start?: number } {
    if (prg.length < 3)
      throw new MachineError(
        `a PRG needs a 2-byte load address and at least one byte; this one has ${prg.length} bytes`,
      );
    const load = prg[0] | (prg[1] << 8);
    const end = load + prg.length - 2;
    if (end > 0x10000)
      throw new MachineError(
        `the program is too large: ${prg.length - 2} bytes at $${hex(load, 4, '')} would end at $${end.toString(16)}, past $FFFF`,
      );
    const start = run ? basicSysAddress(prg.subarray(2), load) : undefined;
    if (run && start === undefined)
      throw new MachineError(
        'the program has no BASIC line with SYS at $0801, and the built-in C64 has no BASIC to RUN it',
      );
    this.reset();
    this.bus.ram.set(prg.subarray(2), load);
    this.bus.ram[0x2d] = end & 0xff;
    this.bus.ram[0x2e] = end >> 8;
    if (start !== undefined) {
      for (const ch of 'RUN\r') this.editor.print(ch.charCodeAt(0));
      const cpu = this.cpu;
      cpu.s = 0xfa;
      cpu.push((K.PROGRAM_END - 1) >> 8);
      cpu.push((K.PROGRAM_END - 1) & 0xff);
      this.kernal.sysAddress = start;
      cpu.pc = K.RUN_SYS; // a jump to the start, so a checkpoint there fires
      cpu.p &= ~0x04;
    }
    return { load, end, start };
  }

  /**
   * Queues PETSCII bytes for the keyboard buffer; a NUL ends the text.
   * What fits goes into the buffer at once, as VICE does (a program polling
   * `kbhit()` right after a stop sees the key); the rest follows a frame at
   * a time. Returns how many were taken.
   */
  feedKeys(bytes: Uint8Array): number {
    let taken = 0;
    for (const b of bytes) {
      if (b === 0 || this.keyQueue.length >= KEY_QUEUE_MAX) break;
      this.keyQueue.push(b);
      taken++;
    }
    this.drainKeys();
    return taken;
  }

  private drainKeys(): void {
    while (this.keyQueue.length && this.kernal.pushKey(this.keyQueue[0])) this.keyQueue.shift();
  }

  // ---- checkpoints ----

  addCheckpoint(fields: Omit<Checkpoint, 'number' | 'hit' | 'hitCount' | 'ignoreCount' | 'hasCondition'>): Checkpoint {
    const cp: Checkpoint = {
      ...fields,
      number: this.nextCheckpoint++,
      hit: false,
      hitCount: 0,
      ignoreCount: 0,
      hasCondition: false,
    };
    this.checkpoints.set(cp.number, cp);
    this.rebuildMaps();
    return cp;
  }

  deleteCheckpoint(number: number): boolean {
    const ok = this.checkpoints.delete(number);
    if (this.checkpoints.size === 0) this.nextCheckpoint = 1;
    this.rebuildMaps();
    return ok;
  }

  toggleCheckpoint(number: number, enabled: boolean): boolean {
    const cp = this.checkpoints.get(number);
    if (!cp) return false;
    cp.enabled = enabled;
    this.rebuildMaps();
    return true;
  }

  /** Throws with the parser's reason when the expression is not understood. */
  setCondition(number: number, expression: string): boolean {
    const cp = this.checkpoints.get(number);
    if (!cp) return false;
    cp.condition = parseCondition(expression);
    cp.hasCondition = true;
    return true;
  }

  /** Every checkpoint, ordered by start address as VICE lists them. */
  listCheckpoints(): Checkpoint[] {
    return [...this.checkpoints.values()].sort((a, b) => a.start - b.start || a.number - b.number);
  }

  /** Exec flags and watch flags per address, from the enabled main-CPU checkpoints (plain loops: a range can be 64 KiB). */
  private rebuildMaps(): void {
    const breaks = this.breaks;
    const watch = this.bus.watch;
    for (let i = 0; i < 0x10000; i++) breaks[i] &= ~BREAK_CHECKPOINT;
    watch.fill(0);
    for (const cp of this.checkpoints.values()) {
      if (!cp.enabled || cp.memspace !== 0) continue;
      const exec = cp.op & 4 ? BREAK_CHECKPOINT : 0;
      const access = cp.op & (WATCH_LOAD | WATCH_STORE);
      const spans: [number, number][] =
        cp.start <= cp.end
          ? [[cp.start, cp.end]]
          : [
              [cp.start, 0xffff],
              [0, cp.end],
            ];
      for (const [from, to] of spans) {
        if (exec) for (let a = from; a <= to; a++) breaks[a] |= exec;
        if (access) for (let a = from; a <= to; a++) watch[a] |= access;
      }
    }
  }

  // ---- execution ----

  /** The monitor stopped the machine between instructions: resuming runs the one at pc first. */
  noteStopped(): void {
    this.resumeAtStop = true;
  }

  /** Plain running (what EXIT and the other resuming commands leave). */
  continueRunning(): void {
    this.mode = { kind: 'run' };
  }

  advance(count: number, over: boolean): void {
    this.mode = count === 0 ? { kind: 'run' } : { kind: 'advance', remaining: count, over };
  }

  untilReturn(): void {
    this.mode = { kind: 'return', sp: this.cpu.s };
  }

  /** Runs up to `budget` cycles; returns why it stopped, or undefined if still running. */
  runSlice(budget: number): StopCause | undefined {
    const cpu = this.cpu;
    const end = cpu.cycles + budget;
    while (cpu.cycles < end) {
      const cause = this.runOnce(end);
      this.catchUp();
      if (cause) return cause;
    }
    return undefined;
  }

  /**
   * Runs `budget` cycles as history replay: no checkpoint stops, the watch
   * flags are `watch` (a replay's own probe; default none), no frame goes to
   * viewers, and the live instruction observer (a profiler's) is not fed: only
   * `observer`, a replay's own. Returns 'jam' when the CPU jammed (nothing logged).
   */
  runQuiet(budget: number, watch = NO_WATCH, observer?: InstructionObserver): 'jam' | undefined {
    const { mode, resumeAtStop } = this;
    const userWatch = this.bus.watch;
    const liveObserver = this.cpu.onInstruction;
    this.quiet = true;
    this.mode = { kind: 'run' };
    this.bus.watch = watch;
    this.cpu.onInstruction = observer;
    try {
      const end = this.cpu.cycles + budget;
      while (this.cpu.cycles < end) {
        const cause = this.runOnce(end);
        this.catchUp();
        if (cause === 'jam') return 'jam';
      }
      return undefined;
    } finally {
      this.quiet = false;
      this.mode = mode;
      this.resumeAtStop = resumeAtStop;
      this.bus.watch = userWatch;
      this.bus.watchHits = [];
      this.cpu.onInstruction = liveObserver;
    }
  }

  private runOnce(end: number): StopCause | undefined {
    const cpu = this.cpu;
    const mode = this.mode;
    const trap = this.trap;
    const skip = this.resumeAtStop;
    this.resumeAtStop = false;
    if (mode.kind === 'advance' && !mode.callReturn) {
      if (mode.over && this.bus.peek(cpu.pc) === OP_JSR) {
        mode.callReturn = { pc: (cpu.pc + 3) & 0xffff, sp: cpu.s };
        this.breaks[mode.callReturn.pc] |= BREAK_INTERNAL;
        return undefined;
      }
      const exit = cpu.run(1, this.breaks, trap, true);
      if (exit === 'jam') return this.jam();
      const hit = this.afterWatch();
      if (hit) return hit;
      return --mode.remaining <= 0 ? this.finishStep() : undefined;
    }
    if (mode.kind === 'return') {
      const op = this.bus.peek(cpu.pc);
      const sp = cpu.s;
      const exit = cpu.run(1, this.breaks, trap, true);
      if (exit === 'jam') return this.jam();
      const hit = this.afterWatch();
      if (hit) return hit;
      return (op === OP_RTS || op === OP_RTI) && sp >= mode.sp ? this.finishStep() : undefined;
    }
    const chunk = Math.max(
      1,
      Math.min(
        end - cpu.cycles,
        this.bus.cia1.untilUnderflow(),
        this.bus.cia2.untilUnderflow(),
        this.nextFrame - cpu.cycles,
        this.lineStart + CYCLES_PER_LINE - cpu.cycles,
      ),
    );
    if (this.quiet) return cpu.run(chunk, this.trapBreaks, trap) === 'jam' ? 'jam' : undefined;
    const exit = cpu.run(chunk, this.breaks, trap, skip);
    if (exit === 'jam') return this.jam();
    if (exit === 'halt') return this.afterWatch();
    if (exit !== 'breakpoint') return undefined;
    if (mode.kind === 'advance' && mode.callReturn && cpu.pc === mode.callReturn.pc && cpu.s >= mode.callReturn.sp) {
      this.breaks[mode.callReturn.pc] &= ~BREAK_INTERNAL;
      mode.callReturn = undefined;
      return --mode.remaining <= 0 ? this.finishStep() : undefined;
    }
    return this.execCheckpoints(cpu.pc) ? 'checkpoint' : this.stepPast();
  }

  /** A checkpoint address whose checkpoints did not stop (condition false, trace only): run the instruction. */
  private stepPast(): StopCause | undefined {
    const exit = this.cpu.run(1, this.breaks, this.trap, true);
    if (exit === 'jam') return this.jam();
    return this.afterWatch();
  }

  private finishStep(): StopCause {
    this.resumeAtStop = true;
    const mode = this.mode;
    if (mode.kind === 'advance' && mode.callReturn) this.breaks[mode.callReturn.pc] &= ~BREAK_INTERNAL;
    this.mode = { kind: 'run' };
    return 'step';
  }

  /** Stops for good at a checkpoint: any step in progress is abandoned, as in VICE. */
  private stopAtCheckpoint(): StopCause {
    this.finishStep();
    return 'checkpoint';
  }

  private execCheckpoints(pc: number): boolean {
    let stop = false;
    for (const cp of this.listCheckpoints()) {
      if (!cp.enabled || !(cp.op & 4) || !inRange(cp, pc)) continue;
      if (this.fire(cp)) stop = true;
    }
    if (stop) this.stopAtCheckpoint();
    return stop;
  }

  private afterWatch(): StopCause | undefined {
    const hits = this.bus.watchHits;
    if (!hits.length) return undefined;
    this.bus.watchHits = [];
    let stop = false;
    for (const hit of hits) {
      for (const cp of this.listCheckpoints()) {
        if (cp.enabled && cp.op & hit.op && inRange(cp, hit.address) && this.fire(cp)) stop = true;
      }
    }
    return stop ? this.stopAtCheckpoint() : undefined;
  }

  /** Counts a hit and reports it; true when the checkpoint stops the machine. */
  private fire(cp: Checkpoint): boolean {
    if (
      cp.condition &&
      !cp.condition({
        register: (r) => registerValue(this.cpu, this.bus, r),
        memory: (bank, a) => this.memory(bank, a),
      })
    )
      return false;
    cp.hitCount++;
    this.events.checkpointHit({ ...cp, hit: true });
    if (cp.temporary) this.deleteCheckpoint(cp.number);
    return cp.stop;
  }

  private jam(): StopCause {
    const pc = this.cpu.pc;
    const where =
      pc >= KERNAL_BASE && this.bus.portData & 2
        ? `: the program called KERNAL address $${hex(pc, 4, '')}, which the built-in C64 does not provide`
        : ` (opcode $${this.bus.peek(pc).toString(16).padStart(2, '0')} is a JAM or undocumented opcode)`;
    this.events.log(`CPU JAM at $${hex(pc, 4, '')}${where}.`);
    this.finishStep();
    return 'jam';
  }

  /**
   * Every raster line the CPU has passed is drawn, and each new one starts
   * (badline, sprite DMA, raster compare) and takes its stolen cycles at once.
   */
  private passLines(): void {
    const cpu = this.cpu;
    const raster = this.bus.raster;
    while (this.lineStart + CYCLES_PER_LINE <= cpu.cycles) {
      const line = (this.lineStart / CYCLES_PER_LINE) % LINES_PER_FRAME;
      raster.endLine(line);
      this.lineStart += CYCLES_PER_LINE;
      cpu.cycles += raster.startLine((line + 1) % LINES_PER_FRAME);
    }
  }

  /** Timers, interrupts and the keyboard queue, brought up to the CPU's clock. */
  private catchUp(): void {
    const cpu = this.cpu;
    this.passLines();
    this.bus.cia1.advance(cpu.cycles);
    this.bus.cia2.advance(cpu.cycles);
    cpu.irqLine = this.bus.cia1.interrupting || this.bus.vicInterrupting;
    while (cpu.cycles >= this.nextFrame) {
      this.nextFrame += CYCLES_PER_FRAME;
      this.drainKeys();
      if (this.quiet) continue;
      this.onFrame?.();
      this.onHistoryFrame?.();
    }
  }

  /** Bank-aware peek for the monitor (no side effects). */
  memory(bank: string, address: number): number {
    switch (bank) {
      case 'ram':
        return this.bus.ram[address];
      case 'rom':
        return this.bus.peekRom(address);
      case 'io':
        return this.bus.peekIo(address);
      default:
        return this.bus.peek(address);
    }
  }
}
