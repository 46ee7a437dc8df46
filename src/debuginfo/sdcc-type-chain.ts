/**
 * SDCC .cdb type chains, e.g. `({2}DG,SC:U)` = `unsigned char *`, mapped to
 * CType. A chain is `{size}` then declarators (DA<n>d array, DF function,
 * DG/DC/DX/DD/DI/DP/DA pointers) and one specifier (SC char, SI int, SL long,
 * SF float, SV void, SQ fixed, ST<tag> struct, SX sbit, SB<start>$<len> bit or
 * bit-field, empty = _Bool) followed by `:U` or `:S`.
 */
import type { CType } from './model.js';
import { typeName } from './values.js';

/** Pointer size on the Z80 (every SDCC z80 pointer kind is 16-bit). */
const Z80_POINTER_SIZE = 2;

export interface ParsedChain {
  type: CType;
  /** bit-field position when the specifier is `SB<start>$<len>` */
  bits?: { offset: number; width: number };
}

/** Looks up a struct/union by tag; returns undefined when unknown. */
export type StructResolver = (tag: string) => CType | undefined;

/** Thrown text is a reason for a warning; callers wrap it. */
export class ChainError extends Error {}

/** `text` is the part between the parentheses: `{2}DG,SC:U`. */
export function parseTypeChain(text: string, resolveStruct: StructResolver): ParsedChain {
  const m = /^\{(\d+)\}(.*)$/.exec(text);
  if (!m) throw new ChainError(`type chain "${text}" does not start with {size}`);
  const totalSize = Number(m[1]);
  const items = m[2].split(',');
  const last = items.pop() ?? '';
  const colon = last.lastIndexOf(':');
  if (colon < 0) throw new ChainError(`type chain "${text}" has no :U/:S sign`);
  const spec = last.slice(0, colon);
  const sign = last.slice(colon + 1);
  if (sign !== 'U' && sign !== 'S') throw new ChainError(`type chain "${text}" has sign "${sign}"`);

  // Size of the innermost specifier: known exactly only when there are no
  // declarators, or derived through arrays; pointees fall back to defaults.
  let innerSize: number | undefined = totalSize;
  for (const d of items) {
    const arr = /^DA(\d+)d$/.exec(d);
    if (arr) innerSize = innerSize !== undefined && Number(arr[1]) > 0 ? innerSize / Number(arr[1]) : undefined;
    else if (/^D[A-Z]$/.test(d)) innerSize = undefined;
    else throw new ChainError(`type chain "${text}" has unknown declarator "${d}"`);
  }
  const { type: base, bits } = specifierType(spec, sign === 'U', innerSize, resolveStruct, text);

  let type = base;
  for (let i = items.length - 1; i >= 0; i--) type = wrap(items[i], type);
  return { type, bits };
}

function wrap(decl: string, inner: CType): CType {
  const arr = /^DA(\d+)d$/.exec(decl);
  const t: CType = arr
    ? { kind: 'array', length: Number(arr[1]), of: inner, name: '' }
    : decl === 'DF'
      ? { kind: 'function', returns: inner, name: '' }
      : { kind: 'pointer', size: Z80_POINTER_SIZE, to: inner, name: '' };
  t.name = typeName(t);
  return t;
}

function specifierType(
  spec: string,
  unsigned: boolean,
  size: number | undefined,
  resolveStruct: StructResolver,
  text: string,
): ParsedChain {
  const signed = !unsigned;
  if (spec === '') return { type: { kind: 'bool', name: '_Bool' } };
  // plain char is unsigned in SDCC (unless --fsigned-char), so SC:S is written "signed char"
  if (spec === 'SC') return { type: { kind: 'char', signed, name: signed ? 'signed char' : 'unsigned char' } };
  if (spec === 'SV') return { type: { kind: 'void', name: 'void' } };
  if (spec === 'SX') return { type: { kind: 'bool', name: '__sbit' } };
  if (spec === 'SQ') return { type: { kind: 'bytes', size: 4, name: '__fixed16x16' } };
  if (spec === 'SF') return { type: { kind: 'float', size: 4, name: 'float' } };
  if (spec === 'SI' || spec === 'SL') {
    // SDCC writes short and long long as SI too; the {size} tells them apart.
    const n = size ?? (spec === 'SL' ? 4 : 2);
    if (n !== 1 && n !== 2 && n !== 4 && n !== 8) throw new ChainError(`type chain "${text}" gives integer size ${n}`);
    return { type: { kind: 'int', size: n, signed, name: intName(n, signed) } };
  }
  const bit = /^SB(\d+)\$(\d+)$/.exec(spec);
  if (bit) {
    const width = Number(bit[2]);
    const n = size === 1 || size === 2 || size === 4 ? size : 1;
    return {
      type:
        width === 1 && size === undefined
          ? { kind: 'bool', name: '__bit' }
          : { kind: 'int', size: n, signed, name: signed ? 'int' : 'unsigned int' },
      bits: { offset: Number(bit[1]), width },
    };
  }
  if (spec.startsWith('ST') && spec.length > 2) {
    const tag = spec.slice(2);
    const found = resolveStruct(tag);
    if (found) return { type: found };
    // Unknown tag (no T record): keep the bytes visible under the tag's name.
    return { type: { kind: 'struct', size: size ?? 0, name: `struct ${tag}`, fields: [] } };
  }
  throw new ChainError(`type chain "${text}" has unknown specifier "${spec}"`);
}

function intName(size: number, signed: boolean): string {
  const base = size === 1 ? 'char' : size === 2 ? 'int' : size === 4 ? 'long' : 'long long';
  return signed ? base : `unsigned ${base}`;
}
