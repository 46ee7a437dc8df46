/**
 * Which instruction made a data access, for emulators that stop just after it
 * without naming it (VICE's binary monitor, the built-in C64 behind it): the
 * instruction that ends at the stop's PC and whose operand, computed with the
 * registers as they are now, falls in the watched range. Stores and
 * read-modify-writes leave X and Y as they were, so the effective address of an
 * indexed store is the same after it.
 */
import { LENGTH, Mode, OPCODES } from './opcodes.js';

export interface AccessContext {
  /** the 3 bytes before the stop's PC (pc-3, pc-2, pc-1) */
  before: Uint8Array;
  pc: number;
  x: number;
  y: number;
  /** little-endian word at a zero-page address (pointers of the indirect modes) */
  zpWord(zp: number): Promise<number>;
  /** the watched bytes: [from, from+length) */
  from: number;
  length: number;
  /** 'write' only looks at instructions that write memory; 'read' at those that read it */
  kind: 'read' | 'write' | 'readwrite';
}

const WRITES = new Set(['STA', 'STX', 'STY', 'SAX', 'SHA', 'SHX', 'SHY', 'TAS']);
const RMW = new Set(['ASL', 'LSR', 'ROL', 'ROR', 'INC', 'DEC', 'SLO', 'RLA', 'SRE', 'RRA', 'DCP', 'ISC']);

/** The start address of the accessing instruction, or undefined when no candidate touches the range. */
export async function findAccessor(ctx: AccessContext): Promise<number | undefined> {
  // longest first: a 3-byte store is likelier than a 1-byte one whose operand happens to fit
  for (const length of [3, 2]) {
    const op = ctx.before[3 - length];
    const info = OPCODES[op];
    if (!info || LENGTH[info.mode] !== length || !accesses(info.mnemonic, ctx.kind)) continue;
    const lo = ctx.before[4 - length];
    const operand = length === 3 ? lo | (ctx.before[2] << 8) : lo;
    const address = await effective(info.mode, operand, ctx);
    if (address !== undefined && address >= ctx.from && address < ctx.from + ctx.length)
      return (ctx.pc - length) & 0xffff;
  }
  return undefined;
}

function accesses(mnemonic: string, kind: AccessContext['kind']): boolean {
  const writes = WRITES.has(mnemonic) || RMW.has(mnemonic);
  const reads = !WRITES.has(mnemonic) && !['JMP', 'JSR'].includes(mnemonic);
  return kind === 'write' ? writes : kind === 'read' ? reads : writes || reads;
}

async function effective(mode: number, operand: number, ctx: AccessContext): Promise<number | undefined> {
  switch (mode) {
    case Mode.ZP:
    case Mode.ABS:
      return operand;
    case Mode.ZPX:
      return (operand + ctx.x) & 0xff;
    case Mode.ZPY:
      return (operand + ctx.y) & 0xff;
    case Mode.ABX:
      return (operand + ctx.x) & 0xffff;
    case Mode.ABY:
      return (operand + ctx.y) & 0xffff;
    case Mode.IZX:
      return ctx.zpWord((operand + ctx.x) & 0xff);
    case Mode.IZY:
      return ((await ctx.zpWord(operand)) + ctx.y) & 0xffff;
    default:
      return undefined;
  }
}
