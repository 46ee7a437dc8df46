/** Sizes of a cc65 function's C-stack frame, from its debug info. */
import type { FunctionInfo, Variable } from '../../debuginfo/model.js';
import { sizeOf } from '../../debuginfo/values.js';

/** Bytes of locals (and saved register-bank bytes) below the entry stack pointer. */
export function localBytes(fn: FunctionInfo): number {
  if (fn.frameBytes !== undefined) return fn.frameBytes;
  let most = 0;
  for (const v of fn.locals)
    if (v.storage.kind === 'frame' && v.storage.offset < 0) most = Math.max(most, -v.storage.offset);
  return most;
}

/** Bytes of parameters the function pops on return. */
export function paramBytes(fn: FunctionInfo): number {
  if (fn.paramBytes !== undefined) return fn.paramBytes;
  let most = 0;
  for (const v of fn.params) if (v.storage.kind === 'frame') most = Math.max(most, v.storage.offset + size(v));
  return most;
}

/** Bytes of the fastcall parameter (the last one, at offset 0): passed in A/X, pushed by the callee itself. */
export function fastcallBytes(fn: FunctionInfo): number {
  const last = fn.params.find((p) => p.storage.kind === 'frame' && p.storage.offset === 0);
  return last ? size(last) : 0;
}

function size(v: Variable): number {
  return v.type.kind === 'char' ? 1 : Math.max(1, sizeOf(v.type));
}
