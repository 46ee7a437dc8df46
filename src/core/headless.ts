/**
 * A machine a headless runner (unit tests, coverage, the profiler) drives
 * directly, without a debug session: load a program, run until one of a few
 * addresses or a cycle limit, read and write memory, and watch every
 * instruction. The built-in C64 provides one in process, with exact cycles.
 */

/** Sees each instruction before it runs: its address, the cycle count and the stack pointer then. */
export type InstructionObserver = (pc: number, cycles: number, sp: number) => void;

export type HeadlessStop =
  /** the CPU is at one of the stop addresses (before running it) */
  | { kind: 'reached'; pc: number }
  /** the cycle limit or the wall-clock deadline passed first */
  | { kind: 'limit'; pc: number; reason: 'cycles' | 'seconds' }
  /** the machine cannot go on: a JAM/illegal opcode, a BRK, the program ended */
  | { kind: 'crash'; pc: number; reason: string };

export interface HeadlessMachine {
  /** what the machine's CPU is: the stack layouts differ */
  readonly cpu: '6502' | 'z80';
  /** true when cycles are the machine's own count, exact to the cycle */
  readonly exactCycles: boolean;
  /** Resets the machine and starts `program` (the machine's loadable form) at its entry. */
  start(program: Uint8Array): Promise<void>;
  /** the CPU's state now (cycles since `start`; `ix`: the Z80's frame pointer, for SDCC's call stack) */
  state(): Promise<{ pc: number; sp: number; cycles: number; ix?: number }>;
  /**
   * Runs until the CPU reaches one of `stops`, `maxCycles` more cycles have
   * passed, `deadline` (Date.now() ms) passed, or the machine crashes. The
   * instruction it is at is never a stop of the next call (it runs first).
   */
  runUntil(stops: readonly number[], maxCycles: number, deadline: number): Promise<HeadlessStop>;
  read(address: number, length: number): Promise<Uint8Array>;
  write(address: number, bytes: Uint8Array): Promise<void>;
  /** Watches every instruction from now on (undefined: stop watching); unsupported where instructions are not seen. */
  observe(observer: InstructionObserver | undefined): void;
  /** Ends the machine (an emulator process); nothing for one in process. */
  close(): Promise<void>;
}
