/**
 * Registers a calling frame saved around its call (SDCC's Z80 code has no
 * callee-saved registers: a value live across a call is pushed before it and
 * popped right after it returns). From the return address, the pops that
 * follow say which stack bytes become which registers; a register counts as
 * saved only when the code after the pops reads it before writing it, i.e.
 * the caller still needs the value it kept. Anything not followed exactly
 * (a jump, an unknown instruction) leaves the register unknown.
 */
import type { ReadMemory } from './frames.js';

/** The 8-bit registers by the Z80's r field (6 is (HL): memory, reading H and L). */
const R = ['B', 'C', 'D', 'E', 'H', 'L', '(HL)', 'A'] as const;
const PAIRS: Record<number, [lo: string, hi: string]> = { 0: ['C', 'B'], 1: ['E', 'D'], 2: ['L', 'H'], 3: ['F', 'A'] };
const CODE_BYTES = 48;
const MAX_INSTRUCTIONS = 24;

interface Access {
  length: number;
  reads: string[];
  writes: string[];
}

/** Register (8-bit name) → the value the caller restores and then uses, for the frame returning to `returnPc`. */
export async function savedRegisters(read: ReadMemory, returnPc: number, sp: number): Promise<Record<string, number>> {
  const code = await read(returnPc, CODE_BYTES);
  const restored = new Map<string, number>();
  let at = 0;
  let offset = 0;
  const pops: { pair: number; offset: number }[] = [];
  for (;;) {
    const op = code[at];
    if ((op & 0xcf) === 0xc1) {
      pops.push({ pair: (op >> 4) & 3, offset });
      offset += 2;
      at++;
    } else if (op === 0x33) {
      offset++; // inc sp: a byte of arguments dropped
      at++;
    } else if ((op === 0xdd || op === 0xfd) && code[at + 1] === 0xe1) {
      offset += 2; // pop ix/iy
      at += 2;
    } else break;
  }
  if (!pops.length) return {};
  const stack = await read(sp, offset);
  for (const p of pops) {
    const [lo, hi] = PAIRS[p.pair];
    restored.set(lo, stack[p.offset]);
    restored.set(hi, stack[p.offset + 1]);
  }
  const saved: Record<string, number> = {};
  const undecided = new Set(restored.keys());
  for (let n = 0; n < MAX_INSTRUCTIONS && undecided.size && at < code.length - 4; n++) {
    const access = decode(code, at);
    if (!access) break;
    for (const r of access.reads) if (undecided.delete(r)) saved[r] = restored.get(r)!;
    for (const w of access.writes) undecided.delete(w);
    at += access.length;
  }
  return saved;
}

const byR = (r: number): string[] => (r === 6 ? ['H', 'L'] : [R[r]]);
const pairRegs = (p: number): string[] => (p === 3 ? [] : [...PAIRS[p]]); // 3 is SP for these opcodes
const ALL = ['A', 'B', 'C', 'D', 'E', 'H', 'L', 'F'];

/** What one instruction reads and writes of the 8-bit registers; undefined: not followed (stop). */
function decode(code: Uint8Array, at: number): Access | undefined {
  const op = code[at];
  const x = op >> 6;
  const y = (op >> 3) & 7;
  const z = op & 7;
  if (op === 0x00) return { length: 1, reads: [], writes: [] };
  if (op === 0xc9) return { length: 1, reads: [], writes: ALL }; // ret: nothing is needed any more
  if (x === 1 && op !== 0x76) {
    const reads = z === 6 ? ['H', 'L'] : [R[z]];
    return y === 6 ? { length: 1, reads: [...reads, 'H', 'L'], writes: [] } : { length: 1, reads, writes: [R[y]] };
  }
  if (x === 2) return alu(y, byR(z), 1, z === 7);
  if (x === 0 && z === 6)
    return y === 6 ? { length: 2, reads: ['H', 'L'], writes: [] } : { length: 2, reads: [], writes: [R[y]] };
  if (x === 0 && (z === 4 || z === 5)) return { length: 1, reads: byR(y), writes: y === 6 ? [] : [R[y]] };
  if (x === 3 && z === 6) return alu(y, [], 2, false);
  const p = y >> 1;
  if ((op & 0xcf) === 0x01) return { length: 3, reads: [], writes: pairRegs(p) };
  if ((op & 0xcf) === 0x09) return { length: 1, reads: ['H', 'L', ...pairRegs(p)], writes: ['H', 'L'] };
  if ((op & 0xcf) === 0x03 || (op & 0xcf) === 0x0b) return { length: 1, reads: pairRegs(p), writes: pairRegs(p) };
  if ((op & 0xcf) === 0xc5) return { length: 1, reads: [...PAIRS[p]], writes: [] }; // push
  switch (op) {
    case 0xeb: // ex de,hl: both values are moved on, so both are needed
      return { length: 1, reads: ['D', 'E', 'H', 'L'], writes: [] };
    case 0x32:
      return { length: 3, reads: ['A'], writes: [] };
    case 0x3a:
      return { length: 3, reads: [], writes: ['A'] };
    case 0x22:
      return { length: 3, reads: ['H', 'L'], writes: [] };
    case 0x2a:
      return { length: 3, reads: [], writes: ['H', 'L'] };
    case 0x02:
    case 0x12:
      return { length: 1, reads: ['A', ...PAIRS[op >> 4]], writes: [] };
    case 0x0a:
    case 0x1a:
      return { length: 1, reads: [...PAIRS[op >> 4]], writes: ['A'] };
    case 0xcb: {
      const r = code[at + 1] & 7;
      const bit = code[at + 1] >> 6 === 1;
      return { length: 2, reads: byR(r), writes: bit || r === 6 ? [] : [R[r]] };
    }
    case 0xdd:
    case 0xfd:
      return indexed(code[at + 1]);
  }
  return undefined;
}

/** `op a, src`: reads A and src, writes A (cp only compares); `sub a` and `xor a` only write A. */
function alu(kind: number, src: string[], length: number, selfA: boolean): Access {
  if (selfA && (kind === 2 || kind === 5)) return { length, reads: [], writes: ['A'] };
  return { length, reads: ['A', ...src], writes: kind === 7 ? [] : ['A'] };
}

/** The IX/IY-indexed forms SDCC uses for frame slots; their r fields name the plain registers. */
function indexed(op: number): Access | undefined {
  const y = (op >> 3) & 7;
  const z = op & 7;
  if (op >> 6 === 1 && z === 6 && y !== 6) return { length: 3, reads: [], writes: [R[y]] }; // ld r,(ix+d)
  if (op >> 6 === 1 && y === 6 && z !== 6) return { length: 3, reads: [R[z]], writes: [] }; // ld (ix+d),r
  if (op >> 6 === 2 && z === 6) return alu(y, [], 3, false); // op a,(ix+d)
  if (op === 0x36) return { length: 4, reads: [], writes: [] };
  if (op === 0x34 || op === 0x35) return { length: 3, reads: [], writes: [] };
  return undefined;
}
