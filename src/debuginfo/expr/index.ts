/**
 * The C expression engine: parse, type-check against the debug info at a
 * frame, evaluate over a machine. One engine behind evaluate, watches,
 * hovers, breakpoint conditions, logpoints, data breakpoints and set value.
 */
import type { CType } from '../model.js';
import { sizeOf, typeName } from '../values.js';
import { checkExpression } from './check.js';
import { exprError } from './errors.js';
import { Evaluator, type ExprMachine, type ExprResult } from './evaluate.js';
import { parseExpression } from './parser.js';
import type { ExprScope } from './scope.js';
import type { Typed } from './typed.js';

export type { ExprMachine, ExprResult, Location } from './evaluate.js';
export type { ExprScope } from './scope.js';
export type { Typed } from './typed.js';
export { scopeAt, taggedTypes } from './scope.js';
export { SMALL_TARGET, type TargetModel } from './c-types.js';

export interface CompiledExpression {
  text: string;
  typed: Typed;
  type: CType;
}

/** Parses and type-checks; throws RetroError naming the column and the reason. */
export function compileExpression(text: string, scope: ExprScope): CompiledExpression {
  const ast = parseExpression(text, { isTypedef: (n) => !scope.variable(n) && scope.typedef(n) !== undefined });
  const typed = checkExpression(text, ast, scope);
  return { text, typed, type: typed.type };
}

export async function evaluateCompiled(
  c: CompiledExpression,
  machine: ExprMachine,
  scope: ExprScope,
): Promise<ExprResult> {
  return new Evaluator(c.text, machine, scope.target.pointerSize).result(c.typed);
}

export async function evaluateExpression(text: string, scope: ExprScope, machine: ExprMachine): Promise<ExprResult> {
  return evaluateCompiled(compileExpression(text, scope), machine, scope);
}

/** True/false of a condition (any scalar expression). */
export async function testCondition(c: CompiledExpression, machine: ExprMachine, scope: ExprScope): Promise<boolean> {
  return new Evaluator(c.text, machine, scope.target.pointerSize).truth(c.typed);
}

/** The memory object an lvalue names: for data breakpoints and set value. */
export interface ObjectLocation {
  type: CType;
  size: number;
  address?: number;
  /** register-held (no address): the register names from the debug info */
  registers?: string[];
  bits?: { offset: number; width: number };
}

export async function locateLvalue(
  c: CompiledExpression,
  machine: ExprMachine,
  scope: ExprScope,
): Promise<ObjectLocation> {
  const t = c.typed;
  if (!t.lvalue)
    throw exprError(c.text, t.at, `\`${c.text.trim()}\` is a value, not an object in memory (${typeName(t.type)})`);
  if (t.k === 'var' && t.variable.storage.kind === 'register')
    return { type: t.type, size: sizeOf(t.type), registers: t.variable.storage.registers };
  const place = await new Evaluator(c.text, machine, scope.target.pointerSize).place(t);
  if (place.kind !== 'memory') throw exprError(c.text, t.at, `\`${c.text.trim()}\` has no address`);
  return { type: t.type, size: sizeOf(t.type), address: place.address, ...(place.bits ? { bits: place.bits } : {}) };
}
