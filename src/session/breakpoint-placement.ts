import type { DebugIndex } from '../debuginfo/index.js';
import type { Address } from '../core/target.js';
import type { BreakpointInfo } from './types.js';

/** What a new breakpoint is, before it has an id and an owner. */
export type BreakpointFields = Omit<BreakpointInfo, 'id' | 'owner' | 'hit_count'>;

/** A line breakpoint goes to the line's first code, or the next line with code; unverified when there is none. */
export function placeLine(
  index: DebugIndex | undefined,
  file: string,
  line: number,
  condition?: string,
): BreakpointFields {
  const resolved = index?.resolveLine(file, line);
  if (!resolved || resolved.addresses.length === 0) {
    return {
      kind: 'line',
      file,
      line,
      condition,
      verified: false,
      message: index ? `No code at or after ${file}:${line} in the same function.` : 'No debug info is loaded.',
    };
  }
  const moved =
    resolved.line !== line ? `Moved from line ${line} to ${resolved.line}, the next line with code.` : undefined;
  return {
    kind: 'line',
    file: resolved.file,
    line: resolved.line,
    condition,
    verified: true,
    message: moved,
    address: { space: 'cpu', offset: Math.min(...resolved.addresses) },
  };
}

/** A function breakpoint goes past the prologue, to the first body line, as debuggers place them. */
export function placeFunction(index: DebugIndex | undefined, name: string, condition?: string): BreakpointFields {
  const fn = index?.functionByName(name);
  if (!index || !fn)
    return {
      kind: 'function',
      function: name,
      condition,
      verified: false,
      message: `No function named ${name} in the debug info.`,
    };
  const body = index.bodyStart(fn);
  const entry = index.lineAt(body);
  return {
    kind: 'function',
    function: fn.name,
    condition,
    verified: true,
    file: entry?.file,
    line: entry?.line,
    address: { space: 'cpu', offset: body },
  };
}

/** An address breakpoint names the C line it falls in, when known. */
export function placeAddress(index: DebugIndex | undefined, address: Address, condition?: string): BreakpointFields {
  const line = index?.lineAt(address.offset);
  return { kind: 'address', address, condition, verified: true, file: line?.file, line: line?.line };
}
