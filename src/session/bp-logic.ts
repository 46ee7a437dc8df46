/**
 * What a breakpoint does when the CPU reaches it, beyond stopping: a C
 * condition (compiled once against the debug info at the breakpoint's
 * address, evaluated at each hit through the frame), a hit condition
 * (`3`, `>= 3`, `% 4`) over the hits whose condition held, and a logpoint
 * message with `{expr}` parts that prints instead of stopping.
 */
import { badRequest, unsupported } from '../core/errors.js';
import { compileExpression, type CompiledExpression, type ExprScope } from '../debuginfo/expr/index.js';
import type { BreakpointExtras } from './types.js';

export type { BreakpointExtras } from './types.js';

type HitTest = (count: number) => boolean;

/** `N` / `== N` on the Nth hit, `> N`, `>= N`, `< N`, `<= N`, `% N` every Nth. */
export function parseHitCondition(text: string): HitTest {
  const m = /^\s*(==|>=|<=|>|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!m) {
    throw badRequest(
      `Hit condition "${text}" is not understood; use a count such as 3, or == 3, >= 3, > 3, <= 3, < 3, % 4.`,
    );
  }
  const n = Number(m[2]);
  switch (m[1]) {
    case '>=':
      return (c) => c >= n;
    case '>':
      return (c) => c > n;
    case '<=':
      return (c) => c <= n;
    case '<':
      return (c) => c < n;
    case '%':
      if (n === 0) throw badRequest(`Hit condition "${text}": % needs a count above 0.`);
      return (c) => c % n === 0;
    default:
      return (c) => c === n;
  }
}

export type LogPart = string | { expression: string };

/** `x is {x}, {{literal braces}}` → text and expressions; unbalanced braces are refused. */
export function parseLogMessage(text: string): LogPart[] {
  const parts: LogPart[] = [];
  let literal = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ((c === '{' || c === '}') && text[i + 1] === c) {
      literal += c;
      i++;
    } else if (c === '{') {
      const close = text.indexOf('}', i);
      if (close < 0) throw badRequest(`Log message: the { at column ${i + 1} is not closed.`);
      const expression = text.slice(i + 1, close).trim();
      if (!expression) throw badRequest(`Log message: empty {} at column ${i + 1}.`);
      if (literal) parts.push(literal);
      literal = '';
      parts.push({ expression });
      i = close;
    } else if (c === '}') {
      throw badRequest(`Log message: a } at column ${i + 1} has no {; write }} for a brace.`);
    } else literal += c;
  }
  if (literal) parts.push(literal);
  return parts;
}

export interface BreakpointLogic {
  condition?: CompiledExpression;
  hit?: HitTest;
  log?: LogPart[];
  /** hits whose condition held */
  count: number;
}

/** Compiles what a breakpoint carries; throws RetroError (with the column for C) when something is wrong. */
export function compileLogic(
  condition: string | undefined,
  extras: BreakpointExtras,
  scope: ExprScope | undefined,
): BreakpointLogic | undefined {
  if (!condition && !extras.hitCondition && !extras.logMessage) return undefined;
  const logic: BreakpointLogic = { count: 0 };
  if (condition) {
    if (!scope) throw unsupported("A C condition needs the program's debug info, and none is loaded.");
    logic.condition = compileExpression(condition, scope);
  }
  if (extras.hitCondition) logic.hit = parseHitCondition(extras.hitCondition);
  if (extras.logMessage) {
    logic.log = parseLogMessage(extras.logMessage);
    for (const p of logic.log) if (typeof p !== 'string' && scope) compileExpression(p.expression, scope);
  }
  return logic;
}

export interface HitEvaluator {
  test(c: CompiledExpression): Promise<boolean>;
  /** an expression's value as shown to people */
  show(expression: string): Promise<string>;
}

export interface HitOutcome {
  /** whether this breakpoint asks to stop */
  stop: boolean;
  /** the logpoint's message, when it has one and fired */
  message?: string;
  /** the hit counted (its condition held) */
  counted: boolean;
}

/** One hit of one breakpoint: condition, then hit count, then logpoint or stop. */
export async function evaluateHit(logic: BreakpointLogic | undefined, ev: HitEvaluator): Promise<HitOutcome> {
  if (!logic) return { stop: true, counted: true };
  if (logic.condition && !(await ev.test(logic.condition))) return { stop: false, counted: false };
  logic.count++;
  if (logic.hit && !logic.hit(logic.count)) return { stop: false, counted: true };
  if (!logic.log) return { stop: true, counted: true };
  let message = '';
  for (const p of logic.log) {
    if (typeof p === 'string') message += p;
    else message += await ev.show(p.expression).catch((e: unknown) => `<${(e as Error).message}>`);
  }
  return { stop: false, message, counted: true };
}
