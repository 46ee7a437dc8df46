/**
 * Checkpoint conditions in VICE's text-monitor syntax, as far as the
 * built-in C64 evaluates them: registers A X Y PC SP FL RL CY (optionally
 * `c:`-prefixed), numbers (`$hex`, `+decimal`, `%binary`, bare = hex),
 * memory `@cpu:$addr` / `@ram:$addr`, operators == != < > <= >= + - * / & |
 * && || and parentheses. Like VICE, binary operators are evaluated strictly
 * left to right (no precedence). Labels are not known here.
 */
export interface ConditionContext {
  register(name: string): number;
  memory(bank: string, address: number): number;
}

export type Condition = (ctx: ConditionContext) => boolean;

const OPS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '&', '|'];
const REGISTERS = new Set(['A', 'X', 'Y', 'PC', 'SP', 'FL', 'RL', 'CY']);

type Node = (ctx: ConditionContext) => number;

export function parseCondition(text: string): Condition {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const expect = (t: string) => {
    if (tokens[at] !== t) throw new Error(`expected "${t}" at "${tokens.slice(at).join(' ') || 'end'}"`);
    at++;
  };
  const operand = (): Node => {
    const t = tokens[at++];
    if (t === undefined) throw new Error('the condition ends too early');
    if (t === '(') {
      const inner = expression();
      expect(')');
      return inner;
    }
    if (t.startsWith('@')) {
      const m = /^@(\w+):\$?([0-9a-f]{1,4})$/i.exec(t);
      if (!m) throw new Error(`memory operand "${t}" must look like @cpu:$d020 (labels are not supported)`);
      const bank = m[1].toLowerCase();
      const address = parseInt(m[2], 16);
      return (ctx) => ctx.memory(bank, address);
    }
    const reg = t.replace(/^c:/i, '').toUpperCase();
    if (REGISTERS.has(reg)) return (ctx) => ctx.register(reg);
    const value = number(t);
    return () => value;
  };
  const expression = (): Node => {
    let left = operand();
    while (peek() !== undefined && OPS.includes(peek()!)) {
      const op = tokens[at++];
      const l = left;
      const r = operand();
      left = (ctx) => apply(op, l(ctx), r(ctx));
    }
    return left;
  };
  const root = expression();
  if (at !== tokens.length) throw new Error(`unexpected "${tokens[at]}"`);
  return (ctx) => root(ctx) !== 0;
}

function apply(op: string, a: number, b: number): number {
  switch (op) {
    case '==':
      return a === b ? 1 : 0;
    case '!=':
      return a !== b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    case '>=':
      return a >= b ? 1 : 0;
    case '&&':
      return a && b ? 1 : 0;
    case '||':
      return a || b ? 1 : 0;
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? 0 : Math.trunc(a / b);
    case '&':
      return a & b;
    default:
      return a | b;
  }
}

function number(t: string): number {
  let m: RegExpExecArray | null;
  if ((m = /^\$([0-9a-f]+)$/i.exec(t)) || (m = /^([0-9a-f]+)$/i.exec(t))) return parseInt(m[1], 16);
  if ((m = /^\+(\d+)$/.exec(t))) return parseInt(m[1], 10);
  if ((m = /^%([01]+)$/.exec(t))) return parseInt(m[1], 2);
  throw new Error(`"${t}" is not a register, number or memory operand`);
}

function tokenize(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push(c);
      i++;
      continue;
    }
    const op = OPS.find(
      (o) => text.startsWith(o, i) && !(o === '+' && /\d/.test(text[i + 1] ?? '') && expectsOperand(out)),
    );
    if (op) {
      out.push(op);
      i += op.length;
      continue;
    }
    const m = /^(@\w+:[$.]?\w+|c:\w+|\$[0-9a-f]+|\+\d+|%[01]+|\w+)/i.exec(text.slice(i));
    if (!m) throw new Error(`cannot read "${text.slice(i)}"`);
    out.push(m[1]);
    i += m[1].length;
  }
  if (!out.length) throw new Error('the condition is empty');
  return out;
}

/** A '+' right after an operator or at the start begins a decimal number, not an addition. */
function expectsOperand(tokens: string[]): boolean {
  const last = tokens.at(-1);
  return last === undefined || last === '(' || OPS.includes(last);
}
