/**
 * C values from target bytes and back: sizes, C type spellings, decoding of
 * little-endian memory into VariableValue (bounded), and encoding of scalar
 * literals for writes.
 */
import { badRequest, internalError } from '../core/errors.js';
import type { Address } from '../core/target.js';
import type { CField, CType } from './model.js';
import { hexBytes } from '../core/hex.js';

/** A C value as the debugger shows it: typed, formatted, with its storage. */
export interface VariableValue {
  name: string;
  /** C type as written, e.g. "unsigned char", "int *", "struct point" */
  type: string;
  /** formatted value, e.g. "42 ('*')", "0x8000", "{x=1, y=2}" */
  value: string;
  /** numeric value where the type is scalar */
  numeric?: number;
  address?: Address;
  /** raw bytes, hex */
  bytes?: string;
  /** nested members (struct fields, array elements), bounded */
  children?: VariableValue[];
}

/** At most this many elements/fields are decoded as children of one value. */
export const MAX_CHILDREN = 64;
/** At most this many values are decoded for one top-level value, all levels together. */
export const MAX_DECODED_NODES = 2048;
/** A char array's string preview stops after this many characters. */
export const MAX_STRING_PREVIEW = 256;
/** `bytes` shows at most this many bytes in hex. */
export const MAX_HEX_BYTES = 256;
/** A composite's one-line `value` summary is cut at this many characters. */
const MAX_SUMMARY = 200;

export function sizeOf(t: CType): number {
  switch (t.kind) {
    case 'int':
    case 'float':
    case 'pointer':
    case 'struct':
    case 'union':
    case 'bytes':
      return t.size;
    case 'char':
    case 'bool':
      return 1;
    case 'array':
      return t.length * sizeOf(t.of);
    case 'function':
    case 'void':
      return 0;
  }
}

/** C spelling: "unsigned char", "int *", "struct point", "char[16]", "int (*)()". */
export function typeName(t: CType): string {
  return spell(t, '');
}

function spell(t: CType, declarator: string): string {
  switch (t.kind) {
    case 'pointer': {
      const wrapped = t.to.kind === 'array' || t.to.kind === 'function';
      return spell(t.to, wrapped ? `(*${declarator})` : `*${declarator}`);
    }
    case 'array':
      return spell(t.of, `${declarator}[${t.length}]`);
    case 'function':
      return spell(t.returns, `${declarator}()`);
    default:
      if (!declarator) return t.name;
      return declarator.startsWith('[') ? `${t.name}${declarator}` : `${t.name} ${declarator}`;
  }
}

/** Decode `bytes` (at least sizeOf(type) of them, little-endian) into a displayable value. */
export function decodeValue(name: string, type: CType, bytes: Uint8Array, address?: Address): VariableValue {
  const size = sizeOf(type);
  if (bytes.length < size) {
    throw badRequest(
      `${name} is a ${typeName(type)} of ${size} bytes, but only ${bytes.length} bytes were given to decode.`,
    );
  }
  return decodeNode(name, type, bytes.subarray(0, size), address, { left: MAX_DECODED_NODES });
}

interface Budget {
  left: number;
}

function decodeNode(
  name: string,
  type: CType,
  bytes: Uint8Array,
  address: Address | undefined,
  budget: Budget,
): VariableValue {
  budget.left--;
  const base: VariableValue = { name, type: typeName(type), value: '', bytes: bytesPreview(bytes) };
  if (address) base.address = address;
  switch (type.kind) {
    case 'int':
    case 'char':
    case 'bool':
    case 'pointer':
    case 'float': {
      const { value, numeric } = formatScalar(type, bytes);
      return { ...base, value, numeric };
    }
    case 'array':
      return decodeArray(base, type, bytes, address, budget);
    case 'struct':
    case 'union':
      return decodeStruct(base, type.fields, bytes, address, budget);
    case 'void':
    case 'function':
    case 'bytes':
      return { ...base, value: bytes.length ? `<${bytes.length} bytes>` : '<no value>' };
  }
}

function decodeArray(
  base: VariableValue,
  type: Extract<CType, { kind: 'array' }>,
  bytes: Uint8Array,
  address: Address | undefined,
  budget: Budget,
): VariableValue {
  const elemSize = sizeOf(type.of);
  const children: VariableValue[] = [];
  for (let i = 0; i < Math.min(type.length, MAX_CHILDREN) && budget.left > 0; i++) {
    const at = i * elemSize;
    children.push(decodeNode(`[${i}]`, type.of, bytes.subarray(at, at + elemSize), offsetBy(address, at), budget));
  }
  const shown = children.length;
  const cut = shown < type.length ? ` (first ${shown} of ${type.length} elements shown)` : '';
  if (type.of.kind === 'char' || (type.of.kind === 'int' && type.of.size === 1)) {
    return { ...base, value: quoteString(bytes) + cut, children };
  }
  return { ...base, value: summary(children.map((c) => c.value)) + cut, children };
}

function decodeStruct(
  base: VariableValue,
  fields: CField[],
  bytes: Uint8Array,
  address: Address | undefined,
  budget: Budget,
): VariableValue {
  const children: VariableValue[] = [];
  let shown = 0;
  for (const f of fields.slice(0, MAX_CHILDREN)) {
    if (budget.left <= 0) break;
    shown++;
    const size = sizeOf(f.type);
    const slice = bytes.subarray(f.offset, f.offset + size);
    if (slice.length < size) continue; // a field beyond the struct's bytes: inconsistent info, skip it
    const at = offsetBy(address, f.offset);
    if (f.bitWidth === undefined) children.push(decodeNode(f.name, f.type, slice, at, budget));
    else {
      budget.left--;
      children.push(decodeBitField(f, slice, at));
    }
  }
  const cut = shown < fields.length ? ` (first ${shown} of ${fields.length} fields shown)` : '';
  return { ...base, value: summary(children.map((c) => `${c.name}=${c.value}`)) + cut, children };
}

function decodeBitField(f: CField, slice: Uint8Array, address: Address | undefined): VariableValue {
  const width = f.bitWidth ?? 1;
  const raw = readUnsigned(slice);
  let v = (raw >> BigInt(f.bitOffset ?? 0)) & ((1n << BigInt(width)) - 1n);
  const signed = f.type.kind === 'int' && f.type.signed;
  if (signed && width > 1 && (v >> BigInt(width - 1)) & 1n) v -= 1n << BigInt(width);
  const out: VariableValue = {
    name: f.name,
    type: `${typeName(f.type)} : ${width}`,
    value: v.toString(),
    numeric: Number(v),
    bytes: bytesPreview(slice),
  };
  if (address) out.address = address;
  return out;
}

function formatScalar(type: CType, bytes: Uint8Array): { value: string; numeric: number } {
  switch (type.kind) {
    case 'int': {
      const v = readInt(bytes, type.signed);
      return { value: v.toString(), numeric: Number(v) };
    }
    case 'char': {
      const n = Number(readInt(bytes, type.signed));
      const lit = charLiteral(bytes[0]);
      return { value: lit ? `${n} ${lit}` : String(n), numeric: n };
    }
    case 'bool': {
      const n = bytes[0];
      return { value: n === 0 ? 'false' : n === 1 ? 'true' : `true (${n})`, numeric: n };
    }
    case 'pointer': {
      const n = Number(readUnsigned(bytes));
      return {
        value: `0x${n
          .toString(16)
          .toUpperCase()
          .padStart(bytes.length * 2, '0')}`,
        numeric: n,
      };
    }
    case 'float': {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const n = type.size === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true);
      return { value: type.size === 4 ? shortestFloat32(n) : String(n), numeric: n };
    }
    default:
      throw internalError(`formatScalar called with non-scalar type ${typeName(type)}.`);
  }
}

/** Shortest decimal that reads back as the same float32 (1.5 not 1.5000000000). */
function shortestFloat32(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  for (let p = 1; p <= 9; p++) {
    const s = n.toPrecision(p);
    if (Math.fround(Number(s)) === n) return String(Number(s));
  }
  return String(n);
}

/** Parse a scalar literal (decimal, 0x hex, 'c', true/false) into the type's bytes. */
export function encodeValue(type: CType, text: string): Uint8Array {
  const t = text.trim();
  switch (type.kind) {
    case 'int':
    case 'char':
    case 'bool':
    case 'pointer': {
      const size = type.kind === 'int' || type.kind === 'pointer' ? type.size : 1;
      const signed = (type.kind === 'int' || type.kind === 'char') && type.signed;
      const v = type.kind === 'bool' ? parseBool(t) : parseInteger(t, typeName(type));
      return writeInt(v, size, signed && !/^0x/i.test(t), typeName(type), t);
    }
    case 'float': {
      const n = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : NaN;
      if (!Number.isFinite(n)) throw badRequest(`"${t}" is not a number that a ${typeName(type)} can hold.`);
      const out = new Uint8Array(type.size);
      const view = new DataView(out.buffer);
      if (type.size === 4) {
        if (!Number.isFinite(Math.fround(n))) throw badRequest(`${t} is out of range for a float.`);
        view.setFloat32(0, n, true);
      } else view.setFloat64(0, n, true);
      return out;
    }
    default:
      throw badRequest(
        `Only scalar values can be written from text; ${typeName(type)} is not a scalar (write one of its elements or fields).`,
      );
  }
}

function parseBool(t: string): bigint {
  if (t === 'true') return 1n;
  if (t === 'false') return 0n;
  const v = parseInteger(t, '_Bool');
  if (v !== 0n && v !== 1n) throw badRequest(`"${t}" is not a _Bool value (use true, false, 0 or 1).`);
  return v;
}

function parseInteger(t: string, what: string): bigint {
  if (/^[+-]?\d+$/.test(t)) return BigInt(t);
  if (/^0x[0-9a-f]+$/i.test(t)) return BigInt(t);
  const ch = /^'(\\x[0-9a-fA-F]{1,2}|\\[0nrtab\\'"]|[^\\'])'$/.exec(t);
  if (ch) return BigInt(charCode(ch[1]));
  throw badRequest(
    `"${t}" is not a value for a ${what}: use a decimal number, 0x hex, or a character literal like 'A'.`,
  );
}

const ESCAPES: Record<string, number> = { '0': 0, n: 10, r: 13, t: 9, a: 7, b: 8, '\\': 92, "'": 39, '"': 34 };

function charCode(body: string): number {
  if (body.startsWith('\\x')) return parseInt(body.slice(2), 16);
  if (body.startsWith('\\')) return ESCAPES[body[1]];
  const code = body.codePointAt(0) ?? 0;
  if (code > 0xff) throw badRequest(`'${body}' is not a single-byte character.`);
  return code;
}

/** Hex literals are bit patterns (0xFF fits a signed char); decimals must fit the C range. */
function writeInt(v: bigint, size: number, signedRange: boolean, what: string, text: string): Uint8Array {
  const bits = BigInt(size * 8);
  const min = signedRange ? -(1n << (bits - 1n)) : 0n;
  const max = signedRange ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  if (v < min || v > max) {
    throw badRequest(`${text} is out of range for ${what} (${min} to ${max}).`);
  }
  let u = BigInt.asUintN(size * 8, v);
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    out[i] = Number(u & 0xffn);
    u >>= 8n;
  }
  return out;
}

function readUnsigned(bytes: Uint8Array): bigint {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

function readInt(bytes: Uint8Array, signed: boolean): bigint {
  const u = readUnsigned(bytes);
  return signed ? BigInt.asIntN(bytes.length * 8, u) : u;
}

function charLiteral(b: number): string | undefined {
  const named: Record<number, string> = { 0: '\\0', 9: '\\t', 10: '\\n', 13: '\\r', 39: "\\'", 92: '\\\\' };
  if (named[b]) return `'${named[b]}'`;
  return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : undefined;
}

/** The bytes up to the first NUL as a C string literal, bounded. */
function quoteString(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i < bytes.length && i < MAX_STRING_PREVIEW && bytes[i] !== 0; i++) {
    const b = bytes[i];
    if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += '\\\\';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else if (b === 10) out += '\\n';
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  const unterminated = i < bytes.length && bytes[i] !== 0 ? '…' : '';
  return `"${out}"${unterminated}`;
}

function summary(parts: string[]): string {
  let s = '{';
  for (let i = 0; i < parts.length; i++) {
    const next = (i ? ', ' : '') + parts[i];
    if (s.length + next.length > MAX_SUMMARY) return `${s}, …}`;
    s += next;
  }
  return `${s}}`;
}

/** The first MAX_HEX_BYTES bytes, for a glance at a value's storage. */
function bytesPreview(bytes: Uint8Array): string {
  const s = hexBytes(bytes.subarray(0, MAX_HEX_BYTES));
  return bytes.length > MAX_HEX_BYTES ? `${s} …` : s;
}

function offsetBy(address: Address | undefined, delta: number): Address | undefined {
  return address ? { ...address, offset: address.offset + delta } : undefined;
}
