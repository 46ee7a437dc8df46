/**
 * Integer constant expressions over C tokens (precedence climbing), for
 * array sizes, enum values and bit-field widths: numbers, character
 * constants, enum constants, sizeof, casts (the value is kept), and every
 * integer operator.
 */
import type { CToken } from './c-token.js';

export interface ConstContext {
  constantOf(name: string): number | undefined;
  /** sizeof(type-name), or of an object's name when `objects`; undefined when neither */
  sizeOfTypeName(tokens: CToken[], objects?: boolean): number | undefined;
}

/** Integer constant expressions over tokens (precedence climbing). */
export class ConstEval {
  private at = 0;
  constructor(
    private readonly t: CToken[],
    private readonly p: ConstContext,
  ) {}

  value(): number {
    const v = this.ternary();
    if (this.at < this.t.length) throw new Error('trailing tokens');
    return v;
  }

  private op(): string | undefined {
    const tok = this.t[this.at];
    return tok?.kind === 'p' ? tok.text : undefined;
  }

  private ternary(): number {
    const c = this.binary(0);
    if (this.op() !== '?') return c;
    this.at++;
    const a = this.ternary();
    if (this.op() !== ':') throw new Error('expected :');
    this.at++;
    const b = this.ternary();
    return c ? a : b;
  }

  private binary(level: number): number {
    if (level >= LEVELS.length) return this.unary();
    let left = this.binary(level + 1);
    for (;;) {
      const op = this.op();
      if (!op || !LEVELS[level].includes(op)) return left;
      this.at++;
      const right = this.binary(level + 1);
      left = BINARY[op](left, right);
    }
  }

  private unary(): number {
    const op = this.op();
    if (op === '-' || op === '+' || op === '~' || op === '!') {
      this.at++;
      const v = this.unary();
      return op === '-' ? -v : op === '+' ? v : op === '~' ? ~v : v ? 0 : 1;
    }
    const tok = this.t[this.at];
    if (!tok) throw new Error('missing operand');
    if (tok.kind === 'id' && tok.text === 'sizeof') {
      this.at++;
      const inner = this.parenthesised();
      const size = this.p.sizeOfTypeName(inner);
      if (size === undefined) throw new Error('sizeof');
      return size;
    }
    if (op === '(') {
      const inner = this.parenthesised();
      if (this.p.sizeOfTypeName(inner, false) !== undefined) return this.unary(); // a cast: the value is kept
      return new ConstEval(inner, this.p).value();
    }
    this.at++;
    if (tok.kind === 'num') return parseNumber(tok.text);
    if (tok.kind === 'chr') return tok.value ?? 0;
    if (tok.kind === 'id') {
      const c = this.p.constantOf(tok.text);
      if (c !== undefined) return c;
    }
    throw new Error(`not a constant: ${tok.text}`);
  }

  private parenthesised(): CToken[] {
    if (this.op() !== '(') throw new Error('expected (');
    let depth = 0;
    const start = ++this.at;
    while (this.at < this.t.length) {
      const op = this.op();
      if (op === '(') depth++;
      if (op === ')' && depth-- === 0) break;
      this.at++;
    }
    return this.t.slice(start, this.at++);
  }
}

const LEVELS = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']]; // prettier-ignore
const BINARY: Record<string, (a: number, b: number) => number> = {
  '||': (a, b) => (a || b ? 1 : 0),
  '&&': (a, b) => (a && b ? 1 : 0),
  '|': (a, b) => a | b,
  '^': (a, b) => a ^ b,
  '&': (a, b) => a & b,
  '==': (a, b) => (a === b ? 1 : 0),
  '!=': (a, b) => (a !== b ? 1 : 0),
  '<': (a, b) => (a < b ? 1 : 0),
  '>': (a, b) => (a > b ? 1 : 0),
  '<=': (a, b) => (a <= b ? 1 : 0),
  '>=': (a, b) => (a >= b ? 1 : 0),
  '<<': (a, b) => a << b,
  '>>': (a, b) => a >> b,
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => (b ? Math.trunc(a / b) : 0),
  '%': (a, b) => (b ? a % b : 0),
};

export function parseNumber(text: string): number {
  const digits = text.replace(/[uUlL]+$/, '');
  if (/^0[xX]/.test(digits)) return parseInt(digits.slice(2), 16);
  if (/^0[0-7]+$/.test(digits)) return parseInt(digits, 8);
  const n = Number(digits);
  if (!Number.isFinite(n)) throw new Error(`bad number ${text}`);
  return Math.trunc(n);
}
