/**
 * Set Value on a C lvalue: the new value is a C expression converted to the
 * object's type and refused when it does not fit (no silent truncation);
 * memory objects outside code are written, and the registers of a
 * register-held variable in the innermost frame.
 */
import { unsupported, badRequest } from '../core/errors.js';
import type { DebugIndex } from '../debuginfo/index.js';
import type { CType } from '../debuginfo/model.js';
import { sizeOf, typeName } from '../debuginfo/values.js';
import { encode } from '../debuginfo/expr/evaluate.js';
import {
  compileExpression,
  evaluateCompiled,
  locateLvalue,
  type ExprMachine,
  type ExprScope,
} from '../debuginfo/expr/index.js';

/** Memory bytes to write, or (a register-held variable of the innermost frame) 8-bit registers to set. */
export type Assignment = { address: number; bytes: Uint8Array } | { registers: { name: string; value: number }[] };

export async function planAssignment(
  index: DebugIndex,
  scope: ExprScope,
  machine: ExprMachine,
  target: string,
  valueText: string,
  innermost = true,
): Promise<Assignment> {
  const lvalue = compileExpression(target, scope);
  const where = await locateLvalue(lvalue, machine, scope);
  const what = `\`${target.trim()}\``;
  if (where.registers) {
    const names = where.registers;
    if (!innermost)
      throw unsupported(
        `${what} lives in ${names.join(':')} of a calling frame; the caller's registers are not written.`,
      );
    const value = await evaluateCompiled(compileExpression(valueText, scope), machine, scope);
    if (value.value === undefined) throw badRequest(`"${valueText}" is ${typeName(value.type)}, not a value.`);
    const bytes = encodeChecked(value.value, where.type, valueText);
    // SDCC lists a register-held value's registers least significant byte first
    return { registers: names.map((name, i) => ({ name: name.toUpperCase(), value: bytes[i] })) };
  }
  if (where.bits) throw unsupported(`${what} is a bit-field; write the whole word it is in instead.`);
  const t = where.type;
  if (!['int', 'char', 'bool', 'pointer', 'float'].includes(t.kind))
    throw badRequest(`${what} is ${typeName(t)}; set one of its elements or fields instead.`);
  const address = where.address!;
  const fn = index.functionAt(address) ?? index.functionAt(address + sizeOf(t) - 1);
  if (fn) throw badRequest(`${what} at 0x${address.toString(16)} is inside the code of ${fn.name}.`);
  const value = await evaluateCompiled(compileExpression(valueText, scope), machine, scope);
  if (value.value === undefined)
    throw badRequest(`"${valueText}" is ${typeName(value.type)}, not a value for ${typeName(t)}.`);
  return { address, bytes: encodeChecked(value.value, t, valueText) };
}

/** Little-endian bytes of `v` as a `t` (the evaluator's `encode`), refusing values outside its range. */
function encodeChecked(v: bigint | number, t: CType, text: string): Uint8Array {
  if (t.kind === 'float') return encode(v, t);
  if (typeof v === 'number' && !Number.isInteger(v))
    throw badRequest(`${text} is not a whole number, and ${typeName(t)} holds only whole numbers.`);
  const n = BigInt(v);
  const bits = BigInt(sizeOf(t) * 8);
  const signed = (t.kind === 'int' || t.kind === 'char') && t.signed;
  const min = t.kind === 'bool' ? 0n : signed ? -(1n << (bits - 1n)) : 0n;
  const max = t.kind === 'bool' ? 1n : signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  if (n < min || n > max) throw badRequest(`${text} (${n}) is out of range for ${typeName(t)} (${min} to ${max}).`);
  return encode(n, t);
}
