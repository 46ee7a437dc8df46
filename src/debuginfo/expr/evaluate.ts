/**
 * Evaluates a type-checked expression over an abstract machine: memory
 * reads, register values and where each variable lives in the chosen
 * frame. Integer arithmetic wraps at the C type's width; `&&`, `||` and
 * `?:` read only the operands C evaluates.
 */
import type { CType, Variable } from '../model.js';
import { sizeOf, typeName } from '../values.js';
import { intShape, isInteger } from './c-types.js';
import { exprError } from './errors.js';
import type { Typed } from './typed.js';

/** Where a variable is in the frame an expression is evaluated in. */
export type Location =
  | { kind: 'memory'; address: number }
  /** register-held: its bytes, least significant first */
  | { kind: 'value'; bytes: Uint8Array }
  | { kind: 'unavailable'; reason: string };

export interface ExprMachine {
  read(address: number, length: number): Promise<Uint8Array>;
  register(name: string): Promise<number>;
  locate(v: Variable): Promise<Location>;
}

/** An object or value: memory objects have an address; bit-fields say which bits. */
export type Place =
  { kind: 'memory'; address: number; bits?: { offset: number; width: number } } | { kind: 'value'; bytes: Uint8Array };

export interface ExprResult {
  type: CType;
  /** the value's bytes (little-endian), at most `maxBytes` of them */
  bytes: Uint8Array;
  address?: number;
  /** the value when scalar */
  value?: bigint | number;
}

/** A result's bytes are read up to this many; bigger objects are shown truncated. */
export const MAX_RESULT_BYTES = 4096;

export class Evaluator {
  private readonly addressMask: bigint;

  constructor(
    private readonly text: string,
    private readonly machine: ExprMachine,
    pointerSize = 2,
  ) {
    this.addressMask = (1n << BigInt(pointerSize * 8)) - 1n;
  }

  private fail(at: number, reason: string): never {
    throw exprError(this.text, at, reason);
  }

  async result(t: Typed): Promise<ExprResult> {
    if (t.type.kind === 'void') return { type: t.type, bytes: new Uint8Array() };
    if (t.k === 'string') return { type: t.type, bytes: t.bytes };
    if (isScalarType(t.type)) {
      const place = t.lvalue ? await this.place(t) : undefined;
      const value = place ? await this.loadFrom(place, t.type) : await this.scalar(t);
      const address = place?.kind === 'memory' && !place.bits ? place.address : undefined;
      return { type: t.type, bytes: encode(value, t.type), value, ...(address !== undefined ? { address } : {}) };
    }
    const place = await this.place(t);
    const size = Math.min(sizeOf(t.type), MAX_RESULT_BYTES);
    if (place.kind === 'value') return { type: t.type, bytes: place.bytes.subarray(0, size) };
    return { type: t.type, bytes: await this.machine.read(place.address, size), address: place.address };
  }

  /** Where an lvalue (or an aggregate value) is. */
  async place(t: Typed): Promise<Place> {
    switch (t.k) {
      case 'var': {
        const loc = await this.machine.locate(t.variable);
        if (loc.kind === 'unavailable') {
          const why = loc.reason.startsWith('not available here') ? loc.reason : `not available here: ${loc.reason}`;
          this.fail(t.at, `\`${t.variable.name}\` is ${why}`);
        }
        return loc;
      }
      case 'deref': {
        const address = Number(BigInt(await this.scalar(t.pointer)) & this.addressMask);
        return { kind: 'memory', address };
      }
      case 'member': {
        const base = await this.place(t.base);
        const f = t.field;
        const bits = f.bitWidth !== undefined ? { offset: f.bitOffset ?? 0, width: f.bitWidth } : undefined;
        if (base.kind === 'value') {
          const bytes = base.bytes.subarray(f.offset, f.offset + sizeOf(f.type));
          if (!bits) return { kind: 'value', bytes };
          return { kind: 'value', bytes: encode(extractBits(bytes, bits, f.type), f.type) };
        }
        return { kind: 'memory', address: this.wrap(base.address + f.offset), ...(bits ? { bits } : {}) };
      }
      case 'cond':
        return (await this.truth(t.test)) ? this.place(t.then) : this.place(t.else);
      case 'convert':
        // a cast to the same aggregate type: the same object
        return this.place(t.of);
      default:
        this.fail(t.at, `\`${this.text.slice(t.at, t.end)}\` is a value, not an object in memory`);
    }
  }

  async scalar(t: Typed): Promise<bigint | number> {
    switch (t.k) {
      case 'const':
        return t.value;
      case 'register':
        return BigInt(await this.machine.register(t.name));
      case 'var':
      case 'deref':
      case 'member':
        return this.load(t);
      case 'address': {
        const p = await this.place(t.of);
        if (p.kind !== 'memory' || p.bits) this.fail(t.at, `\`${this.text.slice(t.of.at, t.of.end)}\` has no address`);
        return BigInt(p.address);
      }
      case 'convert':
        return convert(await this.scalar(t.of), t.of.type, t.type);
      case 'unary': {
        const v = await this.scalar(t.operand);
        if (t.op === '!') return isZero(v) ? 1n : 0n;
        if (typeof v === 'number') return -v;
        return wrapInt(t.op === '-' ? -v : ~v, t.type);
      }
      case 'arith':
        return this.arith(t);
      case 'pointer_add': {
        const p = BigInt(await this.scalar(t.pointer));
        const n = BigInt(await this.scalar(t.offset)) * BigInt(t.scale);
        return (t.negate ? p - n : p + n) & this.addressMask;
      }
      case 'pointer_diff': {
        const a = BigInt(await this.scalar(t.left));
        const b = BigInt(await this.scalar(t.right));
        return wrapInt((a - b) / BigInt(t.scale), t.type);
      }
      case 'compare': {
        const a = await this.scalar(t.left);
        const b = await this.scalar(t.right);
        return compare(t.op, a, b) ? 1n : 0n;
      }
      case 'logical': {
        const a = await this.truth(t.left);
        if (t.op === '&&' ? !a : a) return t.op === '&&' ? 0n : 1n;
        return (await this.truth(t.right)) ? 1n : 0n;
      }
      case 'cond':
        return (await this.truth(t.test)) ? this.scalar(t.then) : this.scalar(t.else);
      case 'string':
        this.fail(t.at, 'a string literal is not a scalar value');
    }
  }

  async truth(t: Typed): Promise<boolean> {
    return !isZero(await this.scalar(t));
  }

  private wrap(address: number): number {
    return Number(BigInt(address) & this.addressMask);
  }

  private async load(t: Typed): Promise<bigint | number> {
    if (!isScalarType(t.type))
      this.fail(t.at, `\`${this.text.slice(t.at, t.end)}\` is ${typeName(t.type)}, not a scalar value`);
    return this.loadFrom(await this.place(t), t.type);
  }

  private async loadFrom(place: Place, type: CType): Promise<bigint | number> {
    const size = sizeOf(type);
    const bytes = place.kind === 'value' ? place.bytes : await this.machine.read(place.address, size);
    if (place.kind === 'memory' && place.bits) return extractBits(bytes, place.bits, type);
    return decode(bytes.subarray(0, size), type);
  }

  private async arith(t: Extract<Typed, { k: 'arith' }>): Promise<bigint | number> {
    const a = await this.scalar(t.left);
    const b = await this.scalar(t.right);
    if (typeof a === 'number' || typeof b === 'number') {
      const x = Number(a);
      const y = Number(b);
      const r = t.op === '+' ? x + y : t.op === '-' ? x - y : t.op === '*' ? x * y : x / y;
      return t.type.kind === 'float' && t.type.size === 4 ? Math.fround(r) : r;
    }
    const bits = intShape(t.type).size * 8;
    switch (t.op) {
      case '+':
        return wrapInt(a + b, t.type);
      case '-':
        return wrapInt(a - b, t.type);
      case '*':
        return wrapInt(a * b, t.type);
      case '/':
      case '%':
        if (b === 0n) this.fail(t.opAt, `division by zero (\`${this.text.slice(t.right.at, t.right.end)}\` is 0)`);
        return wrapInt(t.op === '/' ? a / b : a % b, t.type);
      case '<<':
      case '>>':
        if (b < 0n || b >= BigInt(bits))
          this.fail(t.opAt, `shift count ${b} is out of range for ${typeName(t.type)} (0 to ${bits - 1})`);
        return wrapInt(t.op === '<<' ? a << b : a >> b, t.type);
      case '&':
        return wrapInt(a & b, t.type);
      case '|':
        return wrapInt(a | b, t.type);
      case '^':
        return wrapInt(a ^ b, t.type);
      default:
        return this.fail(t.opAt, `\`${t.op}\` is not an arithmetic operator`);
    }
  }
}

function isScalarType(t: CType): boolean {
  return isInteger(t) || t.kind === 'float' || t.kind === 'pointer';
}

function isZero(v: bigint | number): boolean {
  return typeof v === 'number' ? v === 0 : v === 0n;
}

function compare(op: string, a: bigint | number, b: bigint | number): boolean {
  const [x, y] = typeof a === 'number' || typeof b === 'number' ? [Number(a), Number(b)] : [a, b];
  switch (op) {
    case '<':
      return x < y;
    case '>':
      return x > y;
    case '<=':
      return x <= y;
    case '>=':
      return x >= y;
    case '==':
      return x === y;
    default:
      return x !== y;
  }
}

/** Wraps to the width and signedness of an integer-like type (a pointer is unsigned). */
export function wrapInt(v: bigint, t: CType): bigint {
  if (t.kind === 'bool') return v === 0n ? 0n : 1n;
  const { size, signed } = intShape(t);
  return signed ? BigInt.asIntN(size * 8, v) : BigInt.asUintN(size * 8, v);
}

/** C conversion of a scalar value between types. */
export function convert(v: bigint | number, from: CType, to: CType): bigint | number {
  if (to.kind === 'void') return 0n;
  if (to.kind === 'float') {
    const n = Number(v);
    return to.size === 4 ? Math.fround(n) : n;
  }
  if (to.kind === 'bool') return isZero(v) ? 0n : 1n;
  if (typeof v === 'number') return wrapInt(BigInt(Math.trunc(Number.isFinite(v) ? v : 0)), to);
  void from;
  return wrapInt(v, to);
}

/** Little-endian bytes of a scalar of type `t`. */
export function encode(v: bigint | number, t: CType): Uint8Array {
  const size = sizeOf(t);
  const out = new Uint8Array(size);
  if (t.kind === 'float') {
    const view = new DataView(out.buffer);
    if (size === 4) view.setFloat32(0, Number(v), true);
    else view.setFloat64(0, Number(v), true);
    return out;
  }
  let u = BigInt.asUintN(size * 8, BigInt(v));
  for (let i = 0; i < size; i++) {
    out[i] = Number(u & 0xffn);
    u >>= 8n;
  }
  return out;
}

export function decode(bytes: Uint8Array, t: CType): bigint | number {
  if (t.kind === 'float') {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return bytes.length === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true);
  }
  let u = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) u = (u << 8n) | BigInt(bytes[i]);
  return t.kind === 'bool' ? u : wrapInt(u, t);
}

function extractBits(bytes: Uint8Array, bits: { offset: number; width: number }, t: CType): bigint {
  let u = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) u = (u << 8n) | BigInt(bytes[i]);
  const v = (u >> BigInt(bits.offset)) & ((1n << BigInt(bits.width)) - 1n);
  const signed = t.kind === 'int' && t.signed;
  return signed ? BigInt.asIntN(bits.width, v) : v;
}
