/**
 * A C breakpoint condition compiled to the emulator's own condition
 * language, so a false one never stops the CPU: MAME debugger expressions
 * (`b@`/`w@`/`d@` memory, registers, `b@((ix+off)&0xffff)` frame slots) and
 * VICE checkpoint conditions (registers, `@cpu:$addr` bytes; also what the
 * built-in C64 evaluates in its CPU loop). Both compare unsigned values, so
 * only what they get exactly right compiles: comparisons of values that are
 * never negative (unsigned objects, `x & mask`) with each other or with a
 * constant, equality of a signed object with a constant it can hold, truth
 * of an object, `!`, `&&`, `||`. Anything else (signed ordering, arithmetic
 * that may wrap, pointers followed at run time, cc65's software-stack locals)
 * returns the reason and stays host-side.
 */
import type { CompiledExpression, ExprMachine, Typed } from '../debuginfo/expr/index.js';
import { intShape, isInteger } from '../debuginfo/expr/c-types.js';
import { Evaluator } from '../debuginfo/expr/evaluate.js';
import type { CType } from '../debuginfo/model.js';
import type { ConditionLanguage as ConditionDialect } from '../core/target.js';

/**
 * `text`: the whole condition. Else `reason` it stays host-side, and for a `&&` chain whose parts partly compile,
 * `guard`: those parts, true whenever the condition is, for the emulator to test first, and `rest`: the others (all
 * the session must test at a stop the guard alone made).
 */
export type NativeCondition = { text: string } | { reason: string; guard?: string; rest?: Typed[] };

/** A value the emulator reads exactly: its text there, and the largest value it can have (never negative). */
interface Value {
  text: string;
  max: bigint;
}

/** An object read by the emulator: its text there, and its C size and signedness. */
interface Atom {
  text: string;
  size: number;
  signed: boolean;
}

class NotNative extends Error {}

const VICE_REGISTERS = new Set(['A', 'X', 'Y', 'SP', 'PC', 'FL']);
const Z80_REGISTERS = new Set(['a', 'b', 'c', 'd', 'e', 'h', 'l', 'f', 'af', 'bc', 'de', 'hl', 'ix', 'iy', 'sp', 'pc']);
const NEGATE = { '==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>' } as const;
type CompareOp = keyof typeof NEGATE;

export async function compileNative(
  c: CompiledExpression,
  dialect: ConditionDialect,
  pointerSize = 2,
): Promise<NativeCondition> {
  const compiler = new NativeCompiler(c.text, dialect, pointerSize);
  const whole = await compiler.attempt(c.typed);
  if (typeof whole === 'string') return { text: whole };
  // `a && b`: a compiled `a` alone is a necessary condition: a hit where it is false never needs the session
  const parts = conjuncts(c.typed);
  if (parts.length < 2) return whole;
  const compiled: string[] = [];
  const rest: Typed[] = [];
  for (const part of parts) {
    const text = await compiler.attempt(part);
    if (typeof text === 'string') compiled.push(text);
    else rest.push(part);
  }
  if (!compiled.length) return whole;
  const guard = compiled.length === 1 ? compiled[0] : compiled.map((t) => `(${t})`).join(' && ');
  return { ...whole, guard, rest };
}

/** The operands of a top-level `&&` chain (one element: no chain). */
function conjuncts(t: Typed): Typed[] {
  return t.k === 'logical' && t.op === '&&' ? [...conjuncts(t.left), ...conjuncts(t.right)] : [t];
}

class NativeCompiler {
  constructor(
    private readonly text: string,
    private readonly dialect: ConditionDialect,
    private readonly pointerSize: number,
  ) {}

  /** `t`'s truth as the emulator's text, or why it cannot be. */
  async attempt(t: Typed): Promise<string | { reason: string }> {
    try {
      return await this.truth(t, false);
    } catch (err) {
      if (err instanceof NotNative) return { reason: err.message };
      throw err;
    }
  }

  private no(t: Typed, why: string): never {
    throw new NotNative(`\`${this.text.slice(t.at, t.end).trim()}\` ${why}`);
  }

  /** The condition `t` is true (or false, when `negate`) as the emulator's text. */
  async truth(t: Typed, negate: boolean): Promise<string> {
    switch (t.k) {
      case 'logical': {
        const and = (t.op === '&&') !== negate; // De Morgan: VICE has no `!`
        const l = await this.truth(t.left, negate);
        const r = await this.truth(t.right, negate);
        return `(${l}) ${and ? '&&' : '||'} (${r})`;
      }
      case 'unary':
        if (t.op === '!') return this.truth(t.operand, !negate);
        break;
      case 'compare':
        return this.compare(t.op, t.left, t.right, negate);
      case 'convert':
        if (isInteger(t.of.type) || t.of.type.kind === 'pointer') return this.truth(t.of, negate);
        break;
    }
    const constant = await this.constant(t);
    if (constant !== undefined) return this.literalTruth((constant !== 0n) !== negate);
    // any object is true when its bytes are not all zero, whatever its sign
    const atom = await this.atom(t);
    if (atom) return `${atom.text} ${negate ? '==' : '!='} ${this.number(0n)}`;
    const value = await this.value(t);
    return `${value.text} ${negate ? '==' : '!='} ${this.number(0n)}`;
  }

  private async compare(op: CompareOp, left: Typed, right: Typed, negate: boolean): Promise<string> {
    const o = negate ? NEGATE[op] : op;
    const lc = await this.constant(left);
    const rc = await this.constant(right);
    if (lc !== undefined && rc !== undefined) this.no(left, 'compares two constants');
    const [objSide, c, flipped] = rc !== undefined ? [left, rc, false] : lc !== undefined ? [right, lc, true] : [];
    if (objSide && c !== undefined) {
      // a signed object equal to a constant it can hold: compare its bit pattern
      const signedAtom = await this.signedAtom(objSide);
      if (signedAtom) {
        if (o !== '==' && o !== '!=') this.no(objSide, 'is signed; the emulator orders values unsigned');
        const half = 1n << BigInt(signedAtom.size * 8 - 1);
        if (c < -half || c >= half) this.no(objSide, 'is compared with a constant it cannot hold');
        return `${signedAtom.text} ${o} ${this.number(c < 0n ? c + 2n * half : c)}`;
      }
      const v = await this.value(objSide);
      if (c < 0n) this.no(objSide, 'is compared with a negative constant; the emulator compares unsigned');
      const sides = flipped ? [this.number(c), v.text] : [v.text, this.number(c)];
      return `${sides[0]} ${o} ${sides[1]}`;
    }
    const l = await this.value(left);
    const r = await this.value(right);
    return `${l.text} ${o} ${r.text}`;
  }

  /** A never-negative value the emulator computes exactly as C does. */
  private async value(t: Typed): Promise<Value> {
    if (t.k === 'convert') {
      const inner = await this.value(t.of);
      if (!fits(inner.max, t.type)) this.no(t, 'changes value in its conversion');
      return inner;
    }
    if (t.k === 'arith' && t.op === '&') {
      const lc = await this.constant(t.left);
      const rc = await this.constant(t.right);
      const mask = rc ?? lc;
      const other = rc !== undefined ? t.left : t.right;
      if (mask !== undefined && mask >= 0n) {
        const v = await this.value(other);
        return { text: `(${v.text} & ${this.number(mask)})`, max: mask < v.max ? mask : v.max };
      }
      const l = await this.value(t.left);
      const r = await this.value(t.right);
      return { text: `(${l.text} & ${r.text})`, max: l.max < r.max ? l.max : r.max };
    }
    const atom = await this.atom(t);
    if (!atom)
      this.no(
        t,
        this.dialect === 'vice' ? 'is not a global, a register or fixed memory' : 'is not readable by the emulator',
      );
    if (atom.signed) this.no(t, 'is signed; the emulator compares unsigned values');
    return { text: atom.text, max: (1n << BigInt(atom.size * 8)) - 1n };
  }

  /** A signed object, seen through conversions that keep its value. */
  private async signedAtom(t: Typed): Promise<Atom | undefined> {
    let inner = t;
    while (inner.k === 'convert' && isInteger(inner.of.type) && isInteger(inner.type)) {
      const from = intShape(inner.of.type);
      const to = intShape(inner.type);
      if (!to.signed || to.size < from.size) return undefined;
      inner = inner.of;
    }
    const atom = await this.atom(inner);
    return atom?.signed ? atom : undefined;
  }

  /** An integer object the emulator can read without following a pointer. */
  private async atom(t: Typed): Promise<Atom | undefined> {
    const type = t.type;
    if (!(isInteger(type) || type.kind === 'pointer')) return undefined;
    const { size, signed } = intShape(type);
    if (t.k === 'register') return { text: this.register(t, [t.name]), size, signed: false };
    if (!t.lvalue) return undefined;
    if (t.k === 'var' && t.variable.storage.kind === 'register')
      return { text: this.register(t, t.variable.storage.registers), size, signed };
    const frame = this.frameSlot(t);
    if (frame) return { text: this.memory(frame, size, t), size, signed };
    const address = await this.fixedAddress(t);
    return address === undefined
      ? undefined
      : { text: this.memory(this.number(BigInt(address)), size, t), size, signed };
  }

  /** `ix ± offset` of a frame variable (MAME only: VICE cannot add a register to an address). */
  private frameSlot(t: Typed): string | undefined {
    let offset = 0;
    let inner = t;
    while (inner.k === 'member' && inner.field.bitWidth === undefined) {
      offset += inner.field.offset;
      inner = inner.base;
    }
    if (inner.k !== 'var' || inner.variable.storage.kind !== 'frame') return undefined;
    if (this.dialect !== 'mame') this.no(t, 'lives in a stack frame, which VICE cannot address in a condition');
    const s = inner.variable.storage;
    const total = s.offset + offset;
    const sign = total < 0 ? '-' : '+';
    return `((${s.register.toLowerCase()}${sign}${this.number(BigInt(Math.abs(total)))})&0xffff)`;
  }

  private memory(address: string, size: number, t: Typed): string {
    if (this.dialect === 'mame') {
      const accessor = { 1: 'b', 2: 'w', 4: 'd' }[size];
      if (!accessor) this.no(t, `is ${size} bytes`);
      return `${accessor}@${address}`;
    }
    if (!address.startsWith('$')) this.no(t, 'has no fixed address');
    const at = parseInt(address.slice(1), 16);
    if (size === 1) return `@cpu:${address}`;
    if (size === 2) return `(@cpu:${this.number(BigInt(at))} + (@cpu:${this.number(BigInt(at + 1))} * +256))`;
    return this.no(t, `is ${size} bytes; VICE conditions read bytes`);
  }

  private register(t: Typed, names: string[]): string {
    if (this.dialect === 'vice') {
      const name = names.length === 1 ? names[0].toUpperCase() : undefined;
      if (!name || !VICE_REGISTERS.has(name)) this.no(t, 'is in a register VICE conditions do not name');
      return name;
    }
    const regs = names.map((n) => n.toLowerCase());
    if (!regs.every((r) => Z80_REGISTERS.has(r))) this.no(t, `is in ${names.join(':')}`);
    if (regs.length === 1) return regs[0];
    // SDCC lists a multi-register value least significant byte first
    return `(${regs.map((r, i) => (i ? `(${r}<<${i * 8})` : r)).join('|')})`;
  }

  /** The address of an object found without reading anything (a global, its members and constant indexes). */
  private async fixedAddress(t: Typed): Promise<number | undefined> {
    try {
      const place = await new Evaluator(this.text, STATIC_ONLY, this.pointerSize).place(t);
      return place.kind === 'memory' && !place.bits ? place.address : undefined;
    } catch {
      return undefined;
    }
  }

  /** The value of an expression that reads nothing. */
  private async constant(t: Typed): Promise<bigint | undefined> {
    if (!isInteger(t.type)) return undefined;
    try {
      const v = await new Evaluator(this.text, NO_MACHINE, this.pointerSize).scalar(t);
      return typeof v === 'bigint' ? v : undefined;
    } catch {
      return undefined;
    }
  }

  private literalTruth(value: boolean): string {
    if (this.dialect === 'mame') return value ? '1' : '0';
    return value ? '$0 == $0' : '$0 == $1';
  }

  private number(n: bigint): string {
    return this.dialect === 'mame' ? `0x${n.toString(16)}` : `$${n.toString(16)}`;
  }
}

/** Whether every value 0..max keeps its value in `type`. */
function fits(max: bigint, type: CType): boolean {
  if (!isInteger(type) && type.kind !== 'pointer') return false;
  const { size, signed } = intShape(type);
  return max <= (1n << BigInt(size * 8 - (signed ? 1 : 0))) - 1n;
}

const refuse = (): never => {
  throw new NotNative('reads run-time state');
};

/** Places of statics only: any read (a pointer followed) or register is run-time state. */
const STATIC_ONLY: ExprMachine = {
  read: async () => refuse(),
  register: async () => refuse(),
  locate: async (v) => {
    if (v.storage.kind === 'static' && v.storage.bank === undefined)
      return { kind: 'memory', address: v.storage.address };
    return refuse();
  },
};

const NO_MACHINE: ExprMachine = {
  read: async () => refuse(),
  register: async () => refuse(),
  locate: async () => refuse(),
};
