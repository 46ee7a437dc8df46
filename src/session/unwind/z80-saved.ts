/**
 * Registers a calling frame saved around its call (SDCC's Z80 code has no
 * callee-saved registers: a value live across a call is pushed before it and
 * popped right after it returns). From the return address, the pops that
 * follow say which stack bytes become which registers; a register counts as
 * saved only when the code after the pops reads it before writing it, i.e.
 * the caller still needs the value it kept. Anything not followed exactly
 * (a jump, a call, a pop, an exchange) leaves the register unknown.
 */
import type { ReadMemory } from './frames.js';
import { decodeZ80 } from '../../cpu/z80-access.js';

const PAIRS: Record<number, [lo: string, hi: string]> = { 0: ['C', 'B'], 1: ['E', 'D'], 2: ['L', 'H'], 3: ['F', 'A'] };
const CODE_BYTES = 48;
const MAX_INSTRUCTIONS = 24;

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
    const access = decodeZ80(code, at, (returnPc + at) & 0xffff);
    const flow = access.flow;
    if (flow.kind === 'ret' && !flow.cond) break; // returns: nothing restored is needed any more
    for (const r of access.reads) if (undecided.delete(r)) saved[r] = restored.get(r)!;
    // a jump, a call, a pop or an exchange is not followed: what is still undecided stays unknown
    if (
      flow.kind !== 'next' ||
      (access.stack && access.stack.kind !== 'push') ||
      (access.swap && access.swap !== 'de-hl')
    )
      break;
    for (const w of access.writes) undecided.delete(w);
    at += access.length;
  }
  return saved;
}
