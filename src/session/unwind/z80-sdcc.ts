import type { DebugIndex } from '../../debuginfo/index.js';
import type { Register } from '../../core/target.js';
import { SDCC_IX_PROLOGUE, isIxPrologue } from '../../debuginfo/z80-frame.js';
import { registerValue, type RawFrame, type ReadMemory } from './frames.js';
import { savedRegisters } from './z80-saved.js';

const MAX_DEPTH = 32;
/** How far above SP a frameless function's return address is searched for. */
const SCAN_BYTES = 64;
/** CALL nn and the eight conditional CALLs: what precedes a return address. */
const CALL_OPCODES = new Set([0xcd, 0xc4, 0xcc, 0xd4, 0xdc, 0xe4, 0xec, 0xf4, 0xfc]);

const word = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);

/**
 * Call stack of SDCC-compiled Z80 code. A function with an IX frame keeps
 * [IX] = caller's IX and [IX+2] = return address; a frameless one (or one in
 * its prologue) is unwound by finding the nearest stack word that points just
 * after a CALL into code we have line info for.
 */
export async function unwindZ80Sdcc(
  regs: Register[],
  index: DebugIndex,
  read: ReadMemory,
  depth = MAX_DEPTH,
): Promise<RawFrame[]> {
  let pc = registerValue(regs, 'PC') ?? 0;
  let sp = registerValue(regs, 'SP') ?? 0;
  let ix = registerValue(regs, 'IX') ?? 0;
  const frames: RawFrame[] = [{ pc, sp, frameRegs: { IX: ix }, registersValid: true }];

  while (frames.length < Math.min(depth, MAX_DEPTH)) {
    const fn = index.functionAt(pc);
    if (!fn) break;
    let caller: { pc: number; sp: number; ix: number } | undefined;
    if (fn.hasFramePointer && (await pastPrologue(fn.start, pc, read))) {
      const saved = await read(ix, 4);
      caller = { pc: word(saved, 2), sp: (ix + 4) & 0xffff, ix: word(saved, 0) };
    } else {
      caller = await scanForReturn(sp, ix, index, read);
    }
    if (!caller || !index.functionAt(caller.pc)) break;
    if (caller.sp <= sp) break; // the stack grows down: a caller's SP is always higher
    ({ pc, sp, ix } = caller);
    frames.push({ pc, sp, frameRegs: { IX: ix }, registersValid: false, saved: await savedRegisters(read, pc, sp) });
  }
  return frames;
}

async function pastPrologue(start: number, pc: number, read: ReadMemory): Promise<boolean> {
  if (pc < start + SDCC_IX_PROLOGUE.length) return false;
  return isIxPrologue(await read(start, SDCC_IX_PROLOGUE.length));
}

async function scanForReturn(sp: number, ix: number, index: DebugIndex, read: ReadMemory) {
  const length = Math.min(SCAN_BYTES, 0x10000 - sp);
  if (length < 2) return undefined;
  const stack = await read(sp, length);
  for (let i = 0; i + 1 < stack.length; i++) {
    const ret = word(stack, i);
    if (ret < 3 || !index.functionAt(ret)) continue;
    const call = await read(ret - 3, 1);
    if (CALL_OPCODES.has(call[0])) return { pc: ret, sp: (sp + i + 2) & 0xffff, ix };
  }
  return undefined;
}
