/**
 * The contract every emulator connector implements. Front ends never see a
 * Target directly: they go through a Session, which adds leases, owners and
 * generations. Anything a target cannot do throws RetroError('unsupported').
 */

/** Address spaces. `cpu` is the CPU's logical view (what the program sees). */
export type Space = 'cpu' | 'program' | 'data' | 'io' | 'vram' | 'share';

/** Never a bare number across a layer boundary. */
export interface Address {
  space: Space;
  /** bank/page number, or a share/region tag for space 'share' */
  bank?: number | string;
  offset: number;
}

export type RunState = 'starting' | 'running' | 'stopped' | 'exited';

export type StopReason = 'entry' | 'breakpoint' | 'watchpoint' | 'step' | 'pause' | 'goto' | 'exception' | 'unknown';

export interface StopInfo {
  reason: StopReason;
  pc: number;
  /** target-level breakpoint/watchpoint id that fired, when known */
  breakpointId?: number;
  watchpointId?: number;
  /** emulator console lines that came with the stop */
  log?: string[];
  /** for a watchpoint stop: the access that fired it (pc = the accessing instruction; `pc` above is the next one) */
  access?: WatchAccess;
}

export type WatchKind = 'read' | 'write' | 'readwrite';

export interface WatchAccess {
  kind: string;
  address: number;
  value: number;
  pc: number;
}

/** A data watchpoint: stop when `length` bytes at `address` are read and/or written. */
export interface WatchSpec {
  address: Address;
  length: number;
  kind: WatchKind;
  condition?: string;
}

export interface Register {
  name: string;
  value: number;
  /** width in bits */
  bits: number;
}

export interface TargetStatus {
  state: RunState;
  pc?: number;
  frame?: number;
  /** emulated time in seconds, when the emulator reports it */
  time?: number;
  lastStop?: StopInfo;
}

export interface ScreenImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, row-major */
  rgba: Buffer;
  frame?: number;
  /** true when the CPU is stopped, so the frame may predate the current state */
  maybeStale: boolean;
}

export interface TargetCapabilities {
  /** CPU family, e.g. 'z80', '6502', 'x86' */
  cpu: string;
  addressBits: number;
  spaces: Space[];
  screen: boolean;
  stepOverOut: boolean;
  /** stepRange runs on the emulator side (one round trip a line) */
  nativeStepRange: boolean;
  /** address bits of spaces that differ from addressBits (e.g. an 18-bit raw program space) */
  spaceBits?: Partial<Record<Space, number>>;
  /**
   * false: the target has no run control (a DOS guest in DOSBox: it always
   * runs and cannot be stopped), so memory writes are accepted while it runs,
   * under the control lease. Absent/true: writes need a stopped CPU.
   */
  runControl?: boolean;
}

export type TargetEvent =
  | { type: 'stopped'; stop: StopInfo }
  | { type: 'running' }
  | { type: 'exited'; code?: number; reason: string }
  | { type: 'reset'; hard: boolean }
  | { type: 'output'; text: string };

export type TargetListener = (event: TargetEvent) => void;

/** [first, last] inclusive CPU address range */
export type AddressRange = [number, number];

export interface Target {
  readonly kind: string;
  readonly capabilities: TargetCapabilities;

  onEvent(listener: TargetListener): () => void;

  status(): Promise<TargetStatus>;
  readRegisters(): Promise<Register[]>;
  writeRegister(name: string, value: number): Promise<void>;

  /** Side-effect free read (no watchpoints, no I/O handlers). */
  readMemory(address: Address, length: number): Promise<Uint8Array>;
  /** Write and return; callers verify by reading back. */
  writeMemory(address: Address, data: Uint8Array): Promise<void>;

  /** Returns the target's own id for the breakpoint. */
  setBreakpoint(address: Address, condition?: string): Promise<number>;
  clearBreakpoint(id: number): Promise<void>;

  /** Data watchpoints (optional: targets without them leave these out, and the session says 'unsupported'). */
  setWatchpoint?(spec: WatchSpec): Promise<number>;
  clearWatchpoint?(id: number): Promise<void>;

  /**
   * Run control. Each call returns once the emulator accepted the command;
   * the resulting stop arrives as a 'stopped' event.
   */
  resume(): Promise<void>;
  pause(): Promise<void>;
  stepInstruction(count?: number): Promise<void>;
  stepOver(): Promise<void>;
  stepOut(): Promise<void>;
  /**
   * Step (into or over calls) while PC stays inside any of `ranges`; the stop
   * event comes when PC leaves them, or earlier at a breakpoint/pause.
   */
  stepRange(ranges: AddressRange[], mode: 'into' | 'over'): Promise<void>;

  screenshot(): Promise<ScreenImage>;

  /**
   * Connector-specific abilities beyond this interface (e.g. 'mame-raw' for
   * MAME's ports and console, 'dos' for DOS guest memory). Undefined when the
   * target has no such feature; the session turns that into 'unsupported'.
   */
  feature?(name: string): unknown;

  /** End the emulator (if we started it) or drop the connection (if attached). */
  close(): Promise<void>;
}
