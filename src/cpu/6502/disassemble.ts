/**
 * 6502 disassembler over the shared opcode table: every opcode decodes,
 * undocumented ones marked `illegal`. Used for VICE and the built-in C64
 * alike (MAME has its own). Text in the usual `LDA ($FB),Y` syntax with
 * `$` hex, as VICE's monitor and ca65 read it.
 */
import { LENGTH, Mode, OPCODES } from './opcodes.js';

export interface Instruction6502 {
  address: number;
  bytes: number[];
  mnemonic: string;
  /** operand as written, '' when there is none: `#$10`, `$D020,X`, `($FB),Y`, `$0812` (a branch's target) */
  operand: string;
  /** `LDA #$10` */
  text: string;
  illegal: boolean;
  /** where a branch, jump or call goes (JMP indirect: undefined, it depends on memory) */
  target?: number;
}

export interface DisassembleOptions {
  /** at most this many instructions */
  count?: number;
  /** a name for an address, used in operands instead of its hex (`JSR CHROUT`) */
  label?: (address: number) => string | undefined;
}

const h2 = (n: number) => `$${n.toString(16).toUpperCase().padStart(2, '0')}`;
const h4 = (n: number) => `$${n.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Decodes `bytes`, the memory from `base` on. Stops at `count` or where an
 * instruction would run past the bytes given.
 */
export function disassemble6502(bytes: Uint8Array, base: number, opts: DisassembleOptions = {}): Instruction6502[] {
  const out: Instruction6502[] = [];
  const max = opts.count ?? Infinity;
  for (let at = 0; at < bytes.length && out.length < max;) {
    const ins = decodeAt(bytes, at, (base + at) & 0xffff, opts.label);
    if (!ins) break;
    out.push(ins);
    at += ins.bytes.length;
  }
  return out;
}

function decodeAt(
  bytes: Uint8Array,
  at: number,
  address: number,
  label?: (address: number) => string | undefined,
): Instruction6502 | undefined {
  const info = OPCODES[bytes[at]];
  const length = LENGTH[info.mode];
  if (at + length > bytes.length) return undefined;
  const lo = bytes[at + 1] ?? 0;
  const word = lo | ((bytes[at + 2] ?? 0) << 8);
  const name = (a: number, hex: (n: number) => string) => label?.(a) ?? hex(a);
  let operand = '';
  let target: number | undefined;
  switch (info.mode) {
    case Mode.ACC:
      operand = 'A';
      break;
    case Mode.IMM:
      operand = `#${h2(lo)}`;
      break;
    case Mode.ZP:
      operand = name(lo, h2);
      break;
    case Mode.ZPX:
      operand = `${name(lo, h2)},X`;
      break;
    case Mode.ZPY:
      operand = `${name(lo, h2)},Y`;
      break;
    case Mode.ABS:
      operand = name(word, h4);
      if (info.mnemonic === 'JMP' || info.mnemonic === 'JSR') target = word;
      break;
    case Mode.ABX:
      operand = `${name(word, h4)},X`;
      break;
    case Mode.ABY:
      operand = `${name(word, h4)},Y`;
      break;
    case Mode.IZX:
      operand = `(${name(lo, h2)},X)`;
      break;
    case Mode.IZY:
      operand = `(${name(lo, h2)}),Y`;
      break;
    case Mode.IND:
      operand = `(${name(word, h4)})`;
      break;
    case Mode.REL:
      target = (address + 2 + (lo < 0x80 ? lo : lo - 0x100)) & 0xffff;
      operand = name(target, h4);
      break;
  }
  const ins: Instruction6502 = {
    address,
    bytes: Array.from(bytes.subarray(at, at + length)),
    mnemonic: info.mnemonic,
    operand,
    text: operand ? `${info.mnemonic} ${operand}` : info.mnemonic,
    illegal: info.illegal,
  };
  if (target !== undefined) ins.target = target;
  return ins;
}
