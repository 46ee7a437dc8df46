/**
 * One debug-info model for every toolchain (SDCC .cdb, cc65 .dbg, …).
 * Addresses are CPU logical addresses; `bank` is set where the toolchain
 * places code in a banked window.
 */
import type { LineTable } from './line-table.js';

export type { LineEntry } from './line-table.js';

export type CType =
  | { kind: 'int'; size: 1 | 2 | 4 | 8; signed: boolean; name: string }
  | { kind: 'char'; signed: boolean; name: string }
  | { kind: 'bool'; name: string }
  | { kind: 'float'; size: 4 | 8; name: string }
  | { kind: 'pointer'; size: number; to: CType; name: string }
  | { kind: 'array'; length: number; of: CType; name: string }
  | { kind: 'struct' | 'union'; size: number; name: string; fields: CField[] }
  | { kind: 'function'; returns: CType; name: string }
  | { kind: 'void'; name: string }
  /** bytes with no better description (e.g. cc65 symbols without types) */
  | { kind: 'bytes'; size: number; name: string };

export interface CField {
  name: string;
  offset: number;
  type: CType;
  /** bit-fields: first bit (0 = least significant) and width within the storage at `offset` */
  bitOffset?: number;
  bitWidth?: number;
}

/** Where a variable lives. */
export type Storage =
  | { kind: 'static'; address: number; bank?: number }
  /** offset relative to the frame pointer register named (e.g. IX on Z80) */
  | { kind: 'frame'; register: string; offset: number }
  /** offset relative to the stack pointer at function entry after prologue */
  | { kind: 'stack'; offset: number }
  | { kind: 'register'; registers: string[] }
  /**
   * cc65 `register`: the zero-page register-bank bytes at `address` while the function has them (after its prologue
   * saved the caller's bytes, before its exit restores them); `save`: where it saved them, from the frame register
   */
  | { kind: 'zp-register'; address: number; save?: number }
  | { kind: 'optimized_out' };

export interface Variable {
  name: string;
  type: CType;
  storage: Storage;
  /** C lexical block level and id (SDCC) so that shadowed names resolve */
  level?: number;
  block?: number;
  /** a file static: the C file (as its lines name it) whose functions see it; other files' do not */
  file?: string;
  /** cc65 block locals: the function's source lines where the name is in scope (the .dbg has no blocks) */
  lines?: { first: number; last: number };
}

export interface FunctionInfo {
  name: string;
  file?: string;
  /** first and last byte address of the code, inclusive */
  start: number;
  end: number;
  bank?: number;
  params: Variable[];
  locals: Variable[];
  returnType?: CType;
  /** assembly: no prologue to skip, the body is the first instruction on */
  noPrologue?: boolean;
  /** true when the function sets up a frame pointer (Z80 SDCC: IX) */
  hasFramePointer?: boolean;
  /** cc65: C-stack bytes between the entry stack pointer and the body's (locals and saved register-bank bytes) */
  frameBytes?: number;
  /** cc65: C-stack bytes of the parameters the function pops on return */
  paramBytes?: number;
  /** cc65: the blocks in the body with locals of their own (from the C source: the .dbg records none) */
  blocks?: LocalsBlock[];
}

/**
 * A block's locals on cc65's C stack: allocated by the code of its
 * declaration lines `first`…`body` (uninitialised ones as late as the first
 * statement's), below the `base` bytes allocated before it, `bytes` in all,
 * freed at `last` (its closing line).
 */
export interface LocalsBlock {
  first: number;
  body: number;
  last: number;
  base: number;
  bytes: number;
  /**
   * Where its declaration lines allocate: an initialised local's line and the depth (from the frame register) once
   * it is pushed, with every uninitialised one before it; the rest come with the first statement's code
   */
  pushes: { line: number; depth: number }[];
}

export interface DebugInfo {
  /** toolchain that produced it, e.g. 'sdcc-cdb' */
  format: string;
  /** CPU family the code is for */
  cpu: string;
  files: string[];
  /** the C lines, sorted by address (parallel typed arrays: line-table.ts) */
  lines: LineTable;
  functions: FunctionInfo[]; // sorted by start
  globals: Variable[];
  /** other named addresses (labels) */
  symbols: { name: string; address: number; bank?: number }[];
  /** typedef names from the C sources (cc65, where the debug info has no types) */
  typedefs?: Record<string, CType>;
  /** the function a session runs to at start when it is not `main` (an assembly program's SYS target) */
  entry?: string;
  /** records the parser could not use and skipped, one sentence each naming the file and line (bounded) */
  warnings?: string[];
}
