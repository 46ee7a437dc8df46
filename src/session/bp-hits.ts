/**
 * The session's side of conditional breakpoints, hit counts and logpoints:
 * compiles each breakpoint's logic when it is set (a bad condition leaves it
 * unverified with the reason — never passed on as text) and decides at each
 * emulator stop whether anyone's breakpoint really stops there.
 */
import { asRetroError } from '../core/errors.js';
import type { ConditionLanguage, Register } from '../core/target.js';
import type { DebugIndex } from '../debuginfo/index.js';
import {
  scopeAt,
  SMALL_TARGET,
  testCondition,
  type CompiledExpression,
  type ExprMachine,
  type ExprScope,
  type Typed,
} from '../debuginfo/expr/index.js';
import type { BreakpointFields } from './breakpoint-placement.js';
import { compileLogic, evaluateHit, type BreakpointExtras, type BreakpointLogic } from './bp-logic.js';
import { compileNative } from './native-condition.js';

export interface HitContext {
  /** the expression machine of the innermost frame at the stop */
  machine(): Promise<ExprMachine>;
  /** an expression's value as people see it */
  show(expression: string): Promise<string>;
}

export interface StopDecision {
  /** breakpoints that ask to stop (empty: resume without a visible stop) */
  stopping: number[];
  /** breakpoints whose hit counted (their condition held) */
  counted: number[];
  logs: { id: number; text: string }[];
  /** a condition that could not be evaluated: the stop is kept and this says why */
  errors: string[];
}

/** A breakpoint's logic, its scope, and with a guard the parts of its `&&` condition the emulator does not test. */
type Logic = BreakpointLogic & { scope?: ExprScope; rest?: Typed[] };

export class BreakpointHits {
  private readonly logic = new Map<number, Logic>();

  constructor(
    private readonly index: DebugIndex | undefined,
    private readonly registers: () => Promise<Register[]>,
    /** the emulator's own condition language, if it has one */
    private readonly language: () => ConditionLanguage | undefined = () => undefined,
  ) {}

  /** Compiles what `fields` carries; on a bad condition marks them unverified with the reason. */
  async compile(fields: BreakpointFields, extras: BreakpointExtras): Promise<Logic | undefined> {
    if (!fields.condition && !extras.hitCondition && !extras.logMessage) return undefined;
    try {
      const regs = await this.registers().catch(() => [] as Register[]);
      const registers = regs.map((r) => ({ name: r.name, bits: r.bits }));
      const at = fields.address?.offset;
      const scope = this.index ? scopeAt(this.index, at, { registers }) : registersOnly(registers);
      const logic = compileLogic(fields.condition, extras, scope);
      const rest = logic?.condition ? await this.compileNative(fields, logic, scope) : undefined;
      return logic && { ...logic, scope, rest };
    } catch (err) {
      fields.verified = false;
      fields.message = asRetroError(err).message;
      return undefined;
    }
  }

  /**
   * The condition in the emulator's language when every part of it maps exactly; else why it stays here, and the
   * parts of a `&&` that do map as the emulator's guard.
   */
  private async compileNative(
    fields: BreakpointFields,
    logic: BreakpointLogic,
    scope: ExprScope,
  ): Promise<Typed[] | undefined> {
    const language = this.language();
    if (!language) {
      fields.condition_host = 'this emulator has no condition language of its own';
      return undefined;
    }
    const native = await compileNative(logic.condition!, language, scope.target.pointerSize);
    if ('text' in native) fields.native_condition = native.text;
    else {
      fields.condition_host = native.reason;
      if (native.guard) fields.native_guard = native.guard;
      return native.rest;
    }
    return undefined;
  }

  keep(id: number, logic: Logic | undefined): void {
    if (logic) this.logic.set(id, logic);
  }

  forget(ids: number[]): void {
    for (const id of ids) this.logic.delete(id);
  }

  /** Whether any of these breakpoints has more to decide than "stop". */
  governs(ids: number[]): boolean {
    return ids.some((id) => this.logic.has(id));
  }

  /**
   * `proven`: a breakpoint whose own native condition (or guard) alone stopped the CPU, so it held (no reads
   * needed), or its guard did (then only the rest of its `&&` is tested).
   */
  async decide(ids: number[], ctx: HitContext, proven?: number): Promise<StopDecision> {
    const out: StopDecision = { stopping: [], counted: [], logs: [], errors: [] };
    let machine: Promise<ExprMachine> | undefined;
    const holds = async (c: CompiledExpression, parts: Typed[], scope: ExprScope) => {
      for (const typed of parts)
        if (!(await testCondition({ ...c, typed }, await (machine ??= ctx.machine()), scope))) return false;
      return true;
    };
    for (const id of ids) {
      const logic = this.logic.get(id);
      const scope = logic?.scope ?? registersOnly([]);
      try {
        const outcome = await evaluateHit(logic, {
          test: async (c) => holds(c, id === proven ? (logic?.rest ?? []) : [c.typed], scope),
          show: (expression) => ctx.show(expression),
        });
        if (outcome.counted) out.counted.push(id);
        if (outcome.stop) out.stopping.push(id);
        if (outcome.message !== undefined) out.logs.push({ id, text: outcome.message });
      } catch (err) {
        out.stopping.push(id);
        out.errors.push(`Breakpoint ${id}: its condition could not be evaluated here (${asRetroError(err).message}).`);
      }
    }
    return out;
  }
}

/** Without debug info a condition may still use registers and raw memory. */
function registersOnly(registers: { name: string; bits: number }[]): ExprScope {
  const bits = new Map(registers.map((r) => [r.name.toLowerCase(), r.bits]));
  return {
    target: SMALL_TARGET,
    variable: () => undefined,
    registerBits: (name) => bits.get(name.toLowerCase()),
    tagged: () => undefined,
    typedef: () => undefined,
  };
}
