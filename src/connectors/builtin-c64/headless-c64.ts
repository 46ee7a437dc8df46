/**
 * The built-in C64 as a HeadlessMachine: the machine itself in this process,
 * no monitor in between, so a test runner or the profiler runs it at full
 * speed with exact cycles. A program's end (back to "BASIC"), a BRK and a JAM
 * are crashes: a unit test never causes them on purpose.
 */
import type { HeadlessMachine, HeadlessStop, InstructionObserver } from '../../core/headless.js';
import { BuiltinC64 } from './c64.js';
import { K } from './kernal-image.js';

/** cycles per slice between looks at the wall clock */
const SLICE = 200_000;

export class HeadlessC64 implements HeadlessMachine {
  readonly cpu = '6502';
  readonly exactCycles = true;
  private readonly messages: string[] = [];
  private observer?: InstructionObserver;
  machine = this.powerOn();
  private stops: readonly number[] = [];

  /** A new machine each time: the raster and the timers start at cycle 0, so every run counts the same cycles. */
  async start(program: Uint8Array): Promise<void> {
    this.machine = this.powerOn();
    this.machine.autostart(program, true);
    this.messages.length = 0;
    this.stops = [];
  }

  private powerOn(): BuiltinC64 {
    const machine = new BuiltinC64({ checkpointHit: () => undefined, log: (text) => this.messages.push(text) });
    machine.cpu.onInstruction = this.observer;
    return machine;
  }

  async state(): Promise<{ pc: number; sp: number; cycles: number }> {
    const cpu = this.machine.cpu;
    return { pc: cpu.pc, sp: cpu.s, cycles: cpu.cycles };
  }

  async close(): Promise<void> {}

  async runUntil(stops: readonly number[], maxCycles: number, deadline: number): Promise<HeadlessStop> {
    this.arm([...stops, K.BRK_DEFAULT, K.PROGRAM_END]);
    const machine = this.machine;
    const cpu = machine.cpu;
    const end = cpu.cycles + maxCycles;
    machine.continueRunning();
    for (;;) {
      const left = end - cpu.cycles;
      if (left <= 0) return { kind: 'limit', pc: cpu.pc, reason: 'cycles' };
      if (Date.now() > deadline) return { kind: 'limit', pc: cpu.pc, reason: 'seconds' };
      const cause = machine.runSlice(Math.min(SLICE, left));
      if (cause === 'jam') return { kind: 'crash', pc: cpu.pc, reason: this.messages.pop() ?? 'CPU JAM' };
      if (cause === undefined) continue;
      if (cpu.pc === K.BRK_DEFAULT) return { kind: 'crash', pc: this.brkAddress(), reason: 'BRK' };
      if (cpu.pc === K.PROGRAM_END) return { kind: 'crash', pc: cpu.pc, reason: 'the program ended (main returned)' };
      return { kind: 'reached', pc: cpu.pc };
    }
  }

  async read(address: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.machine.memory('cpu', (address + i) & 0xffff);
    return out;
  }

  async write(address: number, bytes: Uint8Array): Promise<void> {
    bytes.forEach((b, i) => this.machine.bus.write((address + i) & 0xffff, b));
  }

  observe(observer: InstructionObserver | undefined): void {
    this.observer = observer;
    this.machine.cpu.onInstruction = observer;
  }

  /** Exec checkpoints at exactly `addresses` (the maps are rebuilt only when the set changes). */
  private arm(addresses: number[]): void {
    if (addresses.length === this.stops.length && addresses.every((a, i) => a === this.stops[i])) return;
    const machine = this.machine;
    for (const cp of machine.listCheckpoints()) machine.deleteCheckpoint(cp.number);
    for (const a of addresses)
      machine.addCheckpoint({ start: a, end: a, stop: true, enabled: true, op: 4, temporary: false, memspace: 0 });
    this.stops = addresses;
  }

  /** The BRK's own address: its return address (pushed by the IRQ entry, under A, X, Y) less 2. */
  private brkAddress(): number {
    const ram = this.machine.bus.ram;
    const s = this.machine.cpu.s;
    const ret = ram[0x100 + ((s + 5) & 0xff)] | (ram[0x100 + ((s + 6) & 0xff)] << 8);
    return (ret - 2) & 0xffff;
  }
}
