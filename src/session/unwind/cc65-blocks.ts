/**
 * How deep a cc65 function's C stack is below its entry (CSP) at a place in
 * its body, blocks included: the function's own frame, plus the locals of
 * each enclosing block (FunctionInfo.blocks, cc65-frame-layout.ts). A block's
 * locals are all there once its first statement's code has run; on its
 * declaration lines (and that first statement, where cc65 puts the
 * allocation of the trailing uninitialised ones) a line's start has what
 * the lines before pushed (an initialised local is pushed with every
 * uninitialised one before it); elsewhere the code since the block's first
 * byte is run on a scratch copy (cc65-pushes.ts) to count what it pushed.
 */
import type { DebugIndex } from '../../debuginfo/index.js';
import type { FunctionInfo, LocalsBlock } from '../../debuginfo/model.js';
import { localBytes } from './cc65-frame-sizes.js';
import { pushedSince } from './cc65-pushes.js';
import type { ReadMemory } from './frames.js';

/** Whether `address` is in the lines of one of `fn`'s blocks with locals. */
export function inBlock(fn: FunctionInfo, address: number, index: DebugIndex): boolean {
  return enclosing(fn, address, index).inside;
}

/** The depth at `address` where the code's place in its line does not matter (a caller at its call). */
export function settledDepth(fn: FunctionInfo, address: number, index: DebugIndex): number {
  const { depth, allocating } = enclosing(fn, address, index);
  return allocating ? Math.max(depth, allocating.base) : depth;
}

/**
 * The depth at `pc` in the innermost frame; undefined when the code of a
 * block's declarations cannot be followed. `sp`: the C stack pointer now.
 */
export async function depthAt(
  fn: FunctionInfo,
  pc: number,
  index: DebugIndex,
  read: ReadMemory,
  spAddress: number | undefined,
  sp: number,
): Promise<number | undefined> {
  const { depth, allocating } = enclosing(fn, pc, index);
  if (!allocating) return depth;
  // at a line's start: what the lines before pushed (running the code may mean running a library call)
  const line = index.isLineStart(pc) ? index.lineAt(pc)?.line : undefined;
  if (line !== undefined)
    return Math.max(depth, allocating.base, ...allocating.pushes.filter((p) => p.line < line).map((p) => p.depth));
  const start = firstCode(fn, allocating, index);
  if (start === undefined || start >= pc) return Math.max(depth, allocating.base);
  if (spAddress === undefined) return undefined;
  const pushed = await pushedSince(start, pc, index, read, spAddress, sp);
  return pushed === undefined ? undefined : Math.max(depth, allocating.base + pushed);
}

/** The depth of the blocks around `address` that are complete, and the one still allocating there, if any. */
function enclosing(fn: FunctionInfo, address: number, index: DebugIndex) {
  let depth = localBytes(fn);
  let allocating: LocalsBlock | undefined;
  const line = fn.blocks ? index.lineAt(address)?.line : undefined;
  let inside = false;
  for (const b of fn.blocks ?? []) {
    if (line === undefined || line < b.first || line > b.last) continue;
    inside = true;
    if (line > b.body) depth = Math.max(depth, b.base + b.bytes);
    else if (!allocating || b.base > allocating.base) allocating = b;
  }
  return { depth, allocating, inside };
}

/** The first byte of the code of a block's declaration lines (and its first statement's). */
function firstCode(fn: FunctionInfo, b: LocalsBlock, index: DebugIndex): number | undefined {
  let first: number | undefined;
  for (let line = b.first; line <= b.body; line++) {
    const found = fn.file ? index.resolveLine(fn.file, line) : undefined;
    if (!found || found.line > b.body) continue;
    for (const a of found.addresses) if (a >= fn.start && a <= fn.end && (first === undefined || a < first)) first = a;
  }
  return first;
}
