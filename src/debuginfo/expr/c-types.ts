/**
 * C's type rules for the engine at the target's integer sizes (cc65 and
 * SDCC: 16-bit int, 32-bit long, 16-bit pointers): integer promotion, the
 * usual arithmetic conversions, scalar type names.
 */
import type { CType } from '../model.js';

export interface TargetModel {
  intSize: 2 | 4;
  longSize: 4 | 8;
  pointerSize: 2 | 4;
  /** whether plain `char` is signed (both cc65 and SDCC: unsigned) */
  charSigned: boolean;
  /** SDCC and cc65 make `double` the same 4-byte float */
  doubleSize: 4 | 8;
}

export const SMALL_TARGET: TargetModel = { intSize: 2, longSize: 4, pointerSize: 2, charSigned: false, doubleSize: 4 };

export type IntType = Extract<CType, { kind: 'int' }>;
export type PointerType = Extract<CType, { kind: 'pointer' }>;

export function intType(size: 1 | 2 | 4 | 8, signed: boolean, target: TargetModel): IntType {
  const base =
    size === 1
      ? 'char'
      : size === target.intSize
        ? 'int'
        : size === target.longSize
          ? 'long'
          : size === 8
            ? 'long long'
            : size === 2
              ? 'short'
              : 'long';
  return { kind: 'int', size, signed, name: signed ? (size === 1 ? 'signed char' : base) : `unsigned ${base}` };
}

export function pointerTo(to: CType, target: TargetModel): PointerType {
  const inner = to.kind === 'array' || to.kind === 'function' ? `(${to.name})` : to.name;
  return { kind: 'pointer', size: target.pointerSize, to, name: `${inner} *` };
}

/** Integer-like for arithmetic: ints, chars, bools, and untyped bytes of 1, 2 or 4 (read unsigned). */
export function isInteger(t: CType): boolean {
  return (
    t.kind === 'int' || t.kind === 'char' || t.kind === 'bool' || (t.kind === 'bytes' && [1, 2, 4].includes(t.size))
  );
}

export function isArithmetic(t: CType): boolean {
  return isInteger(t) || t.kind === 'float';
}

export function isScalar(t: CType): boolean {
  return isArithmetic(t) || t.kind === 'pointer';
}

/** Size and signedness of an integer-like type. */
export function intShape(t: CType): { size: 1 | 2 | 4 | 8; signed: boolean } {
  switch (t.kind) {
    case 'int':
      return { size: t.size, signed: t.signed };
    case 'char':
      return { size: 1, signed: t.signed };
    case 'bool':
      return { size: 1, signed: false };
    case 'pointer':
      return { size: t.size as 2 | 4, signed: false };
    case 'bytes':
      return { size: t.size as 1 | 2 | 4, signed: false };
    default:
      throw new Error(`intShape of ${t.kind}`);
  }
}

/** Integer promotion: anything narrower than int becomes int (all their values fit a 16-bit int). */
export function promote(t: CType, target: TargetModel): CType {
  if (t.kind === 'float') return t;
  const { size, signed } = intShape(t);
  if (size < target.intSize) return intType(target.intSize, true, target);
  if (t.kind === 'int') return t;
  return intType(size, signed, target);
}

/** The common type of two arithmetic operands (C11 6.3.1.8). */
export function usualArithmetic(a: CType, b: CType, target: TargetModel): CType {
  if (a.kind === 'float' || b.kind === 'float') {
    const size = Math.max(a.kind === 'float' ? a.size : 0, b.kind === 'float' ? b.size : 0) as 4 | 8;
    return { kind: 'float', size, name: size === 8 || target.doubleSize === 4 ? 'double' : 'float' };
  }
  const pa = promote(a, target);
  const pb = promote(b, target);
  const x = intShape(pa);
  const y = intShape(pb);
  if (x.signed === y.signed) return x.size >= y.size ? pa : pb;
  const [u, s, ut, st] = x.signed ? [y, x, pb, pa] : [x, y, pa, pb];
  if (u.size >= s.size) return ut;
  if (s.size > u.size) return st;
  return intType(s.size, false, target);
}

/** A scalar type from its keywords in any order (`unsigned long int`, `char`, `double`). */
export function scalarFromWords(words: string[], target: TargetModel): CType | string {
  const count = (w: string) => words.filter((x) => x === w).length;
  const signed = count('signed');
  const unsigned = count('unsigned');
  const longs = count('long');
  if (signed && unsigned) return '`signed` and `unsigned` together';
  if (signed > 1 || unsigned > 1 || longs > 2 || count('short') > 1 || count('int') > 1 || count('char') > 1)
    return 'a repeated type keyword';
  const rest = words.filter((w) => !['signed', 'unsigned', 'long', 'short', 'int'].includes(w));
  if (rest.length > 1) return `\`${rest.join(' ')}\` together`;
  const main = rest[0];
  if (main === 'void' || main === '_Bool' || main === 'float') {
    if (words.length > 1) return `\`${words.join(' ')}\``;
    if (main === 'void') return { kind: 'void', name: 'void' };
    return main === 'float' ? { kind: 'float', size: 4, name: 'float' } : { kind: 'bool', name: '_Bool' };
  }
  if (main === 'double') {
    if (signed || unsigned || count('short') || count('int') || longs > 1) return `\`${words.join(' ')}\``;
    return { kind: 'float', size: longs ? 8 : target.doubleSize, name: longs ? 'long double' : 'double' };
  }
  if (main === 'char') {
    if (longs || count('short') || count('int')) return `\`${words.join(' ')}\``;
    const isSigned = signed ? true : unsigned ? false : target.charSigned;
    return { kind: 'char', signed: isSigned, name: signed ? 'signed char' : unsigned ? 'unsigned char' : 'char' };
  }
  if (count('short') && longs) return '`short` and `long` together';
  const size = count('short') ? 2 : longs === 2 ? 8 : longs ? target.longSize : target.intSize;
  return intType(size as 2 | 4 | 8, !unsigned, target);
}
