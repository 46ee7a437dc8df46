import type { DebugIndex } from '../debuginfo/index.js';
import type { Address } from '../core/target.js';
import type { BreakpointInfo } from './types.js';
import { closeMatches } from '../core/close-matches.js';

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
      message: index ? nowhereOnLine(index, file, line) : 'No debug info is loaded.',
      nowhere: index ? true : undefined,
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

/**
 * A function breakpoint goes past the prologue, to the first body line, as debuggers place them; a name that is no
 * C function but a label (cc65's runtime `pushax`, an assembler routine) goes to the label's address.
 */
export function placeFunction(index: DebugIndex | undefined, name: string, condition?: string): BreakpointFields {
  const fn = index?.functionByName(name);
  const label = fn ? undefined : index?.labelAddress(name);
  if (index && label !== undefined) {
    const at = index.lineAt(label);
    return {
      kind: 'function',
      function: name,
      condition,
      verified: true,
      file: at?.file,
      line: at?.line,
      address: { space: 'cpu', offset: label },
    };
  }
  if (!index || !fn)
    return {
      kind: 'function',
      function: name,
      condition,
      verified: false,
      message: `No function named ${name} in the debug info${index ? didYouMean(name, index.functionNames()) : ''}.`,
      nowhere: index ? true : undefined,
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

/** Why file:line has no code, with the nearest places that do. */
function nowhereOnLine(index: DebugIndex, file: string, line: number): string {
  const code = index.codeLines(file);
  if (!code)
    return `No file ${file} in the debug info${didYouMean(file, index.sourceFiles())}; its files: ${index.sourceFiles().join(', ')}.`;
  const before = code.lines.filter((l) => l < line).slice(-2);
  const after = code.lines.filter((l) => l > line).slice(0, 2);
  const near = [...before, ...after].map((l) => `${code.file}:${l}`);
  const last = code.lines[code.lines.length - 1];
  return (
    `No code at or after ${code.file}:${line}` +
    (last !== undefined && line > last ? `: its last line with code is ${last}` : ' in the same function') +
    (near.length ? `; nearest lines with code: ${near.join(', ')}.` : '.')
  );
}

function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closeMatches(word, candidates);
  return near.length ? ` (did you mean ${near.join(', ')}?)` : '';
}
