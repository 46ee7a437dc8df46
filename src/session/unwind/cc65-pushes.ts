/**
 * What a cc65 caller had pushed on the C stack when it made a call: the
 * bytes pushed since the start of the statement that holds the call. cc65
 * evaluates an expression's operands onto the C stack (`squares[i] =
 * square(i)` pushes `&squares[i]` first), so the caller's locals sit that
 * much above the stack pointer at the call. The debug info does not say how
 * much; the statement's code does. It runs here, from the statement's first
 * byte to the call, on a scratch copy of memory (pages read on demand, every
 * write kept aside): cc65's runtime helpers (pushax, decspN, …) run as they
 * are, a call of another C function is skipped with the parameters it pops.
 * Anything else — I/O, a runaway loop, a return — gives up (undefined).
 */
import { Cpu6502, OP_JSR } from '../../cpu/6502/cpu6502.js';
import type { DebugIndex } from '../../debuginfo/index.js';
import { fastcallBytes, paramBytes } from './cc65-frame-sizes.js';
import type { ReadMemory } from './frames.js';

const MAX_STEPS = 5000;
const MAX_PAGE_READS = 48;
const IO_PAGES = { first: 0xd0, last: 0xdf };
const START_S = 0xfd;

class PageMiss {
  constructor(readonly page: number) {}
}

/**
 * Bytes pushed between the start of the statement holding the JSR at `call`
 * and that JSR, with the C stack pointer (zero page `spAddress`) at `spStart`
 * when the statement starts; undefined when it cannot be told.
 */
export async function pushedBeforeCall(
  call: number,
  index: DebugIndex,
  read: ReadMemory,
  spAddress: number,
  spStart: number,
): Promise<number | undefined> {
  const fn = index.functionAt(call);
  const range = index.lineRanges(call).find(([first, last]) => first <= call && call <= last);
  // the declaration line (prologue) is no balanced statement start
  if (!fn || !range || range[0] === fn.start) return undefined;
  return pushedBetween(range[0], call, index, read, spAddress, spStart);
}

/** Bytes pushed on the C stack by the code from `start` to `stop`, run as pushedBeforeCall runs a statement. */
export async function pushedBetween(
  start: number,
  stop: number,
  index: DebugIndex,
  read: ReadMemory,
  spAddress: number,
  spStart: number,
): Promise<number | undefined> {
  const pages = new Map<number, Uint8Array>();
  for (let reads = 0; reads <= MAX_PAGE_READS; reads++) {
    try {
      return runStatement(start, stop, index, pages, spAddress, spStart);
    } catch (err) {
      if (!(err instanceof PageMiss)) throw err;
      if (err.page >= IO_PAGES.first && err.page <= IO_PAGES.last) return undefined; // reads there may act
      pages.set(err.page, await read(err.page << 8, 0x100));
    }
  }
  return undefined;
}

function runStatement(
  start: number,
  call: number,
  index: DebugIndex,
  pages: Map<number, Uint8Array>,
  spAddress: number,
  spStart: number,
): number | undefined {
  const written = new Map<number, number>();
  const bus = {
    read(address: number): number {
      const w = written.get(address);
      if (w !== undefined) return w;
      const page = pages.get(address >> 8);
      if (!page) throw new PageMiss(address >> 8);
      return page[address & 0xff];
    },
    write(address: number, value: number): void {
      written.set(address, value);
    },
  };
  const sp = () => bus.read(spAddress) | (bus.read(spAddress + 1) << 8);
  const setSp = (v: number) => {
    bus.write(spAddress, v & 0xff);
    bus.write(spAddress + 1, (v >> 8) & 0xff);
  };
  setSp(spStart);
  const cpu = new Cpu6502(bus);
  cpu.pc = start;
  cpu.s = START_S;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    if (cpu.pc === call) return spStart - sp();
    if (bus.read(cpu.pc) === OP_JSR) {
      const target = bus.read(cpu.pc + 1) | (bus.read(cpu.pc + 2) << 8);
      const callee = index.functionAt(target);
      if (callee && callee.start === target) {
        // another C call of the statement: it pops what was pushed for it, returns in A/X
        setSp(sp() + paramBytes(callee) - fastcallBytes(callee));
        cpu.pc = (cpu.pc + 3) & 0xffff;
        cpu.a = cpu.x = 0;
        continue;
      }
    }
    if (!cpu.step() || cpu.s > START_S) return undefined; // a JAM, or a return out of the statement
  }
  return undefined;
}

/**
 * Bytes pushed by the code from `start` to `stop`, where the C stack pointer
 * is `spNow`: run again from where its own count says sp was at `start` (the
 * code may read locals through sp).
 */
export async function pushedSince(
  start: number,
  stop: number,
  index: DebugIndex,
  read: ReadMemory,
  spAddress: number,
  spNow: number,
): Promise<number | undefined> {
  let pushed: number | undefined = 0;
  for (let tries = 0; tries < 2 && pushed !== undefined; tries++)
    pushed = await pushedBetween(start, stop, index, read, spAddress, (spNow + pushed) & 0xffff);
  return pushed;
}
