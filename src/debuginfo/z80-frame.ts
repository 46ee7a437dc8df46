/**
 * Whether an SDCC Z80 function sets up IX as its frame pointer. The .cdb says
 * so only indirectly: stack locals imply IX, but a function with only stack
 * parameters may read them through IY/SP instead. For those the parser leaves
 * `hasFramePointer` undefined and gives the parameters `stack` storage (offset
 * from SP at entry); this module settles it from the function's first bytes.
 */
import type { DebugInfo, FunctionInfo, Variable } from './model.js';

/** `push ix; ld ix,#0; add ix,sp` */
export const SDCC_IX_PROLOGUE = Uint8Array.of(0xdd, 0xe5, 0xdd, 0x21, 0x00, 0x00, 0xdd, 0x39);

export function isIxPrologue(code: Uint8Array): boolean {
  return code.length >= SDCC_IX_PROLOGUE.length && SDCC_IX_PROLOGUE.every((b, i) => code[i] === b);
}

/** Reads `length` bytes of code at a CPU address. */
export type ReadCode = (address: number, length: number) => Uint8Array | Promise<Uint8Array>;

/**
 * A copy of `info` where every function whose frame was undecided is decided
 * from its code: with the IX prologue, its stack parameters become
 * IX-relative (`frame`, offset + 2); without it, they stay `stack`.
 */
export async function resolveFramePointers(info: DebugInfo, read: ReadCode): Promise<DebugInfo> {
  const functions: FunctionInfo[] = [];
  for (const f of info.functions) {
    if (f.hasFramePointer !== undefined) {
      functions.push(f);
      continue;
    }
    const ix = isIxPrologue(await read(f.start, SDCC_IX_PROLOGUE.length));
    functions.push({
      ...f,
      hasFramePointer: ix,
      params: ix ? f.params.map(toFrame) : f.params,
      locals: ix ? f.locals.map(toFrame) : f.locals,
    });
  }
  return { ...info, functions };
}

/** SP at entry = IX + 2 once the prologue ran. */
function toFrame(v: Variable): Variable {
  return v.storage.kind === 'stack'
    ? { ...v, storage: { kind: 'frame', register: 'IX', offset: v.storage.offset + 2 } }
    : v;
}
