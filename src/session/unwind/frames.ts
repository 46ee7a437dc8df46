import type { Register } from '../../core/target.js';
import type { DebugIndex } from '../../debuginfo/index.js';

/** One machine-level frame: where it executes and the registers that locate its variables. */
export interface RawFrame {
  pc: number;
  sp: number;
  /** frame pointer register values known for this frame, e.g. { IX: 0xFFF0 } */
  frameRegs: Record<string, number>;
  /** true when register-allocated variables can be read (innermost frame only) */
  registersValid: boolean;
  /** a calling frame's registers it saved around its call and still needs, 8-bit names (e.g. { H: 5 }) */
  saved?: Record<string, number>;
  /** cc65: bytes of locals allocated below the frame register here (a block's are not there before its declarations) */
  localsDepth?: number;
  /** cc65: where each register variable of the frame's function is, by name (cc65-regvars.ts) */
  regvars?: Map<string, RegvarPlace>;
}

/** A cc65 register variable's bytes (each where this frame's value of it is), or why it has none here. */
export type RegvarPlace = { addresses: number[] } | { reason: string };

export type ReadMemory = (offset: number, length: number) => Promise<Uint8Array>;

/** `depth`: at most this many frames (1: the innermost only, for a breakpoint condition). */
export type Unwinder = (regs: Register[], index: DebugIndex, read: ReadMemory, depth?: number) => Promise<RawFrame[]>;

export function registerValue(regs: Register[], name: string): number | undefined {
  return regs.find((r) => r.name.toUpperCase() === name.toUpperCase())?.value;
}
