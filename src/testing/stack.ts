/**
 * Where a machine is, as C: the function and line at the PC and its
 * callers: on the 6502 those whose return addresses are on the hardware
 * stack (cc65 keeps C's arguments and locals on its own stack, so the
 * hardware stack holds little else), on the Z80 the debugger's own SDCC
 * unwinder. A test that times out or crashes is reported with it.
 */
import type { HeadlessMachine } from '../core/headless.js';
import { hex } from '../core/hex.js';
import type { DebugIndex } from '../debuginfo/index.js';
import { unwindZ80Sdcc } from '../session/unwind/z80-sdcc.js';

const JSR = 0x20;

export function describePlace(index: DebugIndex, address: number): string {
  const fn = index.functionAt(address);
  const line = index.lineAt(address);
  const name = fn?.name ?? index.symbolAt(address);
  if (!name) return hex(address, 4, '$');
  return line ? `${name} (${line.file}:${line.line})` : `${name} at ${hex(address, 4, '$')}`;
}

/** Innermost first: the PC's place, then each caller found on the hardware stack. */
export async function callStack(machine: HeadlessMachine, index: DebugIndex, at?: number): Promise<string[]> {
  const { pc, sp, ix } = await machine.state();
  if (machine.cpu === 'z80') {
    const regs = Object.entries({ PC: at ?? pc, SP: sp, IX: ix ?? 0 }).map(([name, value]) => ({
      name,
      value,
      bits: 16,
    }));
    const raw = await unwindZ80Sdcc(regs, index, (offset, length) => machine.read(offset, length));
    // a caller is at its return address: the call before it is the caller's line
    return raw.map((f, i) => describePlace(index, i ? f.pc - 1 : f.pc));
  }
  const frames = [describePlace(index, at ?? pc)];
  const page = await machine.read(0x100, 0x100);
  for (let i = sp + 1; i < 0xff;) {
    const ret = (page[i] | (page[i + 1] << 8)) + 1;
    const call = (ret - 3) & 0xffff;
    if ((await machine.read(call, 1))[0] === JSR && index.functionAt(call)) {
      frames.push(describePlace(index, call));
      i += 2;
    } else i++;
  }
  return frames;
}

/** The address a function returns to, read at its first instruction (before it pushed anything). */
export async function returnAddress(machine: HeadlessMachine, sp: number): Promise<number> {
  if (machine.cpu === '6502') {
    const b = await machine.read(0x100 + ((sp + 1) & 0xff), 2);
    return ((b[0] | (b[1] << 8)) + 1) & 0xffff;
  }
  const b = await machine.read(sp, 2);
  return b[0] | (b[1] << 8);
}
