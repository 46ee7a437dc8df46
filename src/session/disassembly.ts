/**
 * Disassembly windows for the front ends: the target's own disassembler
 * (DISASSEMBLER_FEATURE, e.g. MAME's) or, for a 6502, the project's own over
 * side-effect-free memory reads. A window is counted in instructions around
 * an address, also backwards: decoding starts far enough back and keeps the
 * candidate start that lands exactly on the address (6502 and Z80 code
 * resynchronises within a few instructions).
 */
import { tooLarge, unsupported } from '../core/errors.js';
import { DISASSEMBLER_FEATURE, type DisassembledInstruction, type Disassembler } from '../core/disassembly.js';
import type { Target } from '../core/target.js';
import type { DisassemblyLine, SourceLocation } from './types.js';
import { disassemble6502 } from '../cpu/6502/disassemble.js';

/** One window asks for at most this many instructions. */
export const MAX_DISASSEMBLY = 1024;
const SPACE_END = 0x10000;

export function disassemblerFor(target: Target): Disassembler {
  const own = target.features.get(DISASSEMBLER_FEATURE);
  if (own) return own;
  if (target.info.cpu === '6502') return new Memory6502Disassembler(target);
  throw unsupported(`Disassembly is not available for the ${target.info.kind} target's ${target.info.cpu} CPU.`);
}

/** The 6502 disassembler over the target's memory (VICE, the built-in C64). */
class Memory6502Disassembler implements Disassembler {
  readonly maxLength = 3;

  constructor(private readonly target: Target) {}

  async disassemble(address: number, count: number): Promise<DisassembledInstruction[]> {
    const length = Math.min(count * 3, SPACE_END - address);
    if (length <= 0) return [];
    const bytes = await this.target.memory.read({ space: 'cpu', offset: address }, length);
    // stops before an instruction that runs past the bytes read: the next call starts there
    const list = disassemble6502(bytes, address, { count });
    return list.map((i) => ({
      address: i.address,
      length: i.bytes.length,
      text: i.text,
      ...(i.illegal ? { illegal: true } : {}),
      ...(i.target !== undefined ? { target: i.target } : {}),
    }));
  }
}

export interface DisassemblyWindow {
  instructions: DisassembledInstruction[];
  /** how many instructions of the window lie before address 0 (or could not be decoded there) */
  missingBefore: number;
}

/**
 * The `count` instructions from the `offset`-th (negative: before) relative to
 * the instruction at `address`. Fewer at the ends of the address space;
 * `missingBefore` says how many are short at the start.
 */
export async function disassemblyWindow(
  dis: Disassembler,
  address: number,
  offset: number,
  count: number,
): Promise<DisassemblyWindow> {
  if (count > MAX_DISASSEMBLY)
    throw tooLarge(`At most ${MAX_DISASSEMBLY} instructions at a time.`, { limit: MAX_DISASSEMBLY });
  const instructions: DisassembledInstruction[] = [];
  let missingBefore = 0;
  if (offset < 0) {
    const back = await decodeBefore(dis, address, -offset);
    missingBefore = Math.min(count, -offset - back.length);
    instructions.push(...back.slice(0, Math.max(0, count - missingBefore)));
  }
  const forwardEnd = offset + count; // instructions [max(0, offset), forwardEnd) from address on
  if (forwardEnd > 0) {
    const forward = await decodeForward(dis, address, forwardEnd);
    instructions.push(...forward.slice(Math.max(0, offset)));
  }
  return { instructions, missingBefore };
}

async function decodeForward(dis: Disassembler, address: number, count: number): Promise<DisassembledInstruction[]> {
  const out: DisassembledInstruction[] = [];
  let at = address;
  while (out.length < count && at < SPACE_END) {
    const chunk = await dis.disassemble(at, Math.min(count - out.length, 255));
    if (!chunk.length) break;
    out.push(...chunk);
    const last = chunk[chunk.length - 1];
    at = last.address + last.length;
  }
  return out.slice(0, count);
}

/** Up to `count` instructions ending exactly at `address` (fewer near 0). */
async function decodeBefore(dis: Disassembler, address: number, count: number): Promise<DisassembledInstruction[]> {
  let fallback: DisassembledInstruction[] = [];
  for (let skew = 0; skew < dis.maxLength; skew++) {
    const start = Math.max(0, address - count * dis.maxLength - skew);
    if (start >= address) return [];
    const list = await decodeUntil(dis, start, address);
    const last = list[list.length - 1];
    if (last && last.address + last.length === address) return list.slice(-count);
    if (skew === 0) fallback = list.filter((i) => i.address + i.length <= address);
    if (start === 0) break;
  }
  // no start lands on `address` (data before code): what decodes, then the gap as undecodable bytes
  const end = fallback.length ? fallback[fallback.length - 1].address + fallback[fallback.length - 1].length : address;
  const gap: DisassembledInstruction[] =
    end < address ? [{ address: end, length: address - end, text: '??', illegal: true }] : [];
  return [...fallback, ...gap].slice(-count);
}

async function decodeUntil(dis: Disassembler, start: number, end: number): Promise<DisassembledInstruction[]> {
  const out: DisassembledInstruction[] = [];
  let at = start;
  while (at < end) {
    const chunk = await dis.disassemble(at, Math.min(255, end - at));
    if (!chunk.length) break;
    for (const ins of chunk) {
      if (ins.address >= end) return out;
      out.push(ins);
    }
    const last = chunk[chunk.length - 1];
    at = last.address + last.length;
  }
  return out;
}

export interface Annotations {
  readMemory(address: number, length: number): Promise<Uint8Array>;
  functionStart(address: number): string | undefined;
  label(address: number): string | undefined;
  location(address: number): SourceLocation | undefined;
}

export async function annotate(
  window: DisassemblyWindow,
  notes: Annotations,
): Promise<{ lines: DisassemblyLine[]; missingBefore: number }> {
  const list = window.instructions;
  const first = list[0]?.address ?? 0;
  const end = list.length ? list[list.length - 1].address + list[list.length - 1].length : first;
  const bytes = end > first ? await notes.readMemory(first, end - first) : new Uint8Array();
  const lines = list.map((ins): DisassemblyLine => {
    const line: DisassemblyLine = {
      ...ins,
      text: withTargetName(ins, notes),
      bytes: Array.from(bytes.subarray(ins.address - first, ins.address - first + ins.length)),
    };
    const symbol = notes.functionStart(ins.address) ?? notes.label(ins.address);
    if (symbol) line.symbol = symbol;
    const location = notes.location(ins.address);
    if (location) line.location = location;
    return line;
  });
  return { lines, missingBefore: window.missingBefore };
}

/** `call $015C` → `call $015C <plot>` when a function or label starts at the destination (as gdb shows it). */
function withTargetName(ins: DisassembledInstruction, notes: Annotations): string {
  if (ins.target === undefined) return ins.text;
  const name = notes.functionStart(ins.target) ?? notes.label(ins.target);
  // not twice where the text already names it as an operand (`JSR CHROUT`); a name inside a mnemonic does not count
  return name && !ins.text.split(/[^\w$.]+/).includes(name) ? `${ins.text} <${name}>` : ins.text;
}
