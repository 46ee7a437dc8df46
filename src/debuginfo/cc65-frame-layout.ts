/** How cc65 lays out a function's C-stack frame, from its .dbg records and its C source. */
import type { DeclBlock, DeclaredObject } from './c-declarations.js';
import type { LocalsBlock, Variable } from './model.js';
import { sizeOf } from './values.js';

/** The frame register name the 6502/cc65 unwinder provides. */
export const CC65_FRAME_REGISTER = 'CSP';

/** A C local and what the frame layout needs to know of it. */
export interface Local {
  v: Variable;
  isParam: boolean;
  registerBytes?: number;
}

/**
 * The C-stack bytes a function's frame holds at its body (locals and the
 * register-bank bytes its register locals saved, in declaration order: an
 * auto local's offset already counts the saves before it) and the bytes of
 * parameters it pops on return. Sets where each register variable's save is:
 * a local's just below what was allocated before it, a parameter's in its
 * own stack slot (above the later parameters), which it trades for its value.
 */
export function frameSizes(vars: Local[]): { frameBytes: number; paramBytes: number } {
  let frameBytes = 0;
  let paramBytes = 0;
  for (const { v, isParam, registerBytes } of vars) {
    if (isParam) paramBytes += sizeOf(v.type);
    else if (v.storage.kind === 'frame' && v.storage.offset < 0) frameBytes = Math.max(frameBytes, -v.storage.offset);
    else if (registerBytes) frameBytes += registerBytes;
    if (v.storage.kind === 'zp-register' && !isParam) v.storage.save = -frameBytes;
  }
  let later = paramBytes;
  for (const { v, isParam } of vars) {
    if (!isParam) continue;
    later -= sizeOf(v.type);
    if (v.storage.kind === 'zp-register') v.storage.save = later;
  }
  return { frameBytes, paramBytes };
}

/**
 * The locals of blocks inside a function's body, which cc65's .dbg leaves
 * out, from the C source and cc65's allocation rule: a block's autos (and
 * `register` ones, which cc65 makes autos below the function's top level)
 * go on the C stack in declaration order below everything allocated when
 * the block starts. Their statics have no record at all and are left out.
 */
export function blockLocals(declared: DeclaredObject[], frameBytes: number, locals: Variable[]): LocalsBlock[] {
  const decls = declared.filter((l) => l.block);
  const blocks = new Map<DeclBlock, { own: DeclaredObject[]; bytes: number }>();
  for (const d of decls) {
    if (d.linkage !== 'local' && d.linkage !== 'register') continue;
    const b = blocks.get(d.block!) ?? { own: [], bytes: 0 };
    b.own.push(d);
    b.bytes += sizeOf(d.type);
    blocks.set(d.block!, b);
  }
  const out: LocalsBlock[] = [];
  for (const [block, { own, bytes }] of blocks) {
    let base = frameBytes;
    for (const [outer, o] of blocks)
      if (outer.depth < block.depth && outer.open <= block.open && outer.close >= block.close) base += o.bytes;
    let depth = base;
    const pushes: LocalsBlock['pushes'] = [];
    for (const d of own) {
      depth += sizeOf(d.type);
      if (d.initialised) pushes.push({ line: d.line, depth });
      locals.push({
        name: d.name,
        type: d.type,
        storage: { kind: 'frame', register: CC65_FRAME_REGISTER, offset: -depth },
        level: block.depth + 1,
        lines: { first: d.line, last: block.close },
      });
    }
    out.push({ first: own[0].line, body: block.body || block.close, last: block.close, base, bytes, pushes });
  }
  return out;
}
