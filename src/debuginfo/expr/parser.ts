/**
 * C expression parser (precedence climbing) over the lexer's tokens. It
 * knows C syntax only; names are resolved by the type checker. Forms with
 * side effects (assignment, ++/--, calls, comma) are refused with a reason:
 * a debugger's evaluate must not change the program.
 */
import type { BinaryOp, Expr, TypeName, UnaryOp } from './ast.js';
import { exprError } from './errors.js';
import { tokenize, type Token } from './lexer.js';

/** Precedence of binary operators; higher binds tighter. */
const BINARY: Record<string, number> = {
  '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6, '<': 7, '>': 7, '<=': 7, '>=': 7,
  '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10,
}; // prettier-ignore

const SCALAR_WORDS = new Set([
  'void',
  'char',
  'short',
  'int',
  'long',
  'float',
  'double',
  'signed',
  'unsigned',
  '_Bool',
]);
const QUALIFIERS = new Set(['const', 'volatile', 'register']);
const ASSIGNMENTS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=']);
/** Nesting bound: deeper expressions are refused instead of exhausting the stack. */
const MAX_DEPTH = 200;

export interface ParseOptions {
  /** true when `name` is a typedef name here (so `(name)x` is a cast) */
  isTypedef?: (name: string) => boolean;
}

export function parseExpression(text: string, opts: ParseOptions = {}): Expr {
  const p = new Parser(text, tokenize(text), opts);
  const e = p.expression();
  p.expectEnd();
  return e;
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
    private readonly opts: ParseOptions,
  ) {}

  private get t(): Token {
    return this.tokens[this.i];
  }

  private isPunct(op: string, t: Token = this.t): boolean {
    return t.kind === 'punct' && t.op === op;
  }

  private fail(at: number, reason: string): never {
    throw exprError(this.text, at, reason);
  }

  private expect(op: string): Token {
    if (!this.isPunct(op)) this.fail(this.t.at, `expected \`${op}\` but found ${describe(this.t)}`);
    return this.tokens[this.i++];
  }

  expectEnd(): void {
    const t = this.t;
    if (t.kind === 'eof') return;
    if (t.kind === 'punct' && ASSIGNMENTS.has(t.op))
      this.fail(t.at, `assignment is not evaluated here; use Set Value (setVariable/setExpression) to change memory`);
    if (this.isPunct(',')) this.fail(t.at, 'the comma operator is not supported; evaluate one expression at a time');
    this.fail(t.at, `expected the end of the expression but found ${describe(t)}`);
  }

  expression(): Expr {
    if (++this.depth > MAX_DEPTH) this.fail(this.t.at, `expression nested deeper than ${MAX_DEPTH} levels`);
    try {
      return this.conditional();
    } finally {
      this.depth--;
    }
  }

  private conditional(): Expr {
    const test = this.binary(1);
    if (!this.isPunct('?')) return test;
    this.i++;
    const then = this.expression();
    this.expect(':');
    const otherwise = this.conditional();
    return { k: 'cond', at: test.at, end: otherwise.end, test, then, else: otherwise };
  }

  private binary(min: number): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.t;
      const prec = t.kind === 'punct' ? BINARY[t.op] : undefined;
      if (prec === undefined || prec < min) return left;
      this.i++;
      const right = this.binary(prec + 1);
      const op = (t as { op: string }).op;
      left =
        op === '&&' || op === '||'
          ? { k: 'logical', op, at: left.at, end: right.end, left, right }
          : { k: 'binary', op: op as BinaryOp, opAt: t.at, at: left.at, end: right.end, left, right };
    }
  }

  private unary(): Expr {
    const t = this.t;
    if (t.kind === 'punct') {
      if (t.op === '++' || t.op === '--') this.fail(t.at, `\`${t.op}\` changes memory and is not evaluated here`);
      if (['-', '+', '~', '!', '*', '&'].includes(t.op)) {
        this.i++;
        const operand = this.nested(() => this.unary());
        return { k: 'unary', op: t.op as UnaryOp, at: t.at, end: operand.end, operand };
      }
      if (t.op === '(' && this.startsType(this.tokens[this.i + 1])) {
        this.i++;
        const to = this.typeName();
        this.expect(')');
        const operand = this.nested(() => this.unary());
        return { k: 'cast', to, at: t.at, end: operand.end, operand };
      }
    }
    if (t.kind === 'ident' && t.name === 'sizeof') {
      this.i++;
      if (this.isPunct('(') && this.startsType(this.tokens[this.i + 1])) {
        this.i++;
        const to = this.typeName();
        const close = this.expect(')');
        return { k: 'sizeof', operand: to, at: t.at, end: close.end };
      }
      const operand = this.nested(() => this.unary());
      return { k: 'sizeof', operand, at: t.at, end: operand.end };
    }
    return this.postfix(this.primary());
  }

  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail(this.t.at, `expression nested deeper than ${MAX_DEPTH} levels`);
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private postfix(base: Expr): Expr {
    for (;;) {
      const t = this.t;
      if (this.isPunct('[')) {
        this.i++;
        const index = this.expression();
        const close = this.expect(']');
        base = { k: 'index', base, index, at: base.at, end: close.end };
      } else if (this.isPunct('.') || this.isPunct('->')) {
        this.i++;
        const name = this.t;
        if (name.kind !== 'ident') this.fail(name.at, `expected a member name after \`${(t as { op: string }).op}\``);
        this.i++;
        const arrow = this.isPunct('->', t);
        base = { k: 'member', base, name: name.name, nameAt: name.at, arrow, at: base.at, end: name.end };
      } else if (this.isPunct('(')) {
        this.fail(t.at, 'function calls are not evaluated: they would run code on the target');
      } else if (this.isPunct('++') || this.isPunct('--')) {
        this.fail(t.at, `\`${(t as { op: string }).op}\` changes memory and is not evaluated here`);
      } else return base;
    }
  }

  private primary(): Expr {
    const t = this.t;
    switch (t.kind) {
      case 'int':
        this.i++;
        return { k: 'int', at: t.at, end: t.end, value: t.value, radix: t.radix, unsigned: t.unsigned, long: t.long };
      case 'float':
        this.i++;
        return { k: 'float', at: t.at, end: t.end, value: t.value };
      case 'char':
        this.i++;
        return { k: 'char', at: t.at, end: t.end, value: t.value };
      case 'string': {
        this.i++;
        let bytes = t.value;
        let end = t.end;
        while (this.t.kind === 'string') {
          bytes = Uint8Array.from([...bytes, ...this.t.value]); // adjacent literals concatenate, as in C
          end = this.t.end;
          this.i++;
        }
        return { k: 'string', at: t.at, end, value: bytes };
      }
      case 'register':
        this.i++;
        return { k: 'register', at: t.at, end: t.end, name: t.name };
      case 'ident':
        if (SCALAR_WORDS.has(t.name) || ['struct', 'union', 'enum'].includes(t.name))
          this.fail(t.at, `a type name (\`${t.name}\`) cannot stand here; did you mean a cast like (${t.name})x?`);
        this.i++;
        return { k: 'ident', at: t.at, end: t.end, name: t.name };
      case 'punct':
        if (t.op === '(') {
          this.i++;
          const inner = this.expression();
          const close = this.expect(')');
          return { ...inner, at: t.at, end: close.end };
        }
        return this.fail(t.at, `expected a value but found ${describe(t)}`);
      case 'eof':
        return this.fail(t.at, this.i === 0 ? 'the expression is empty' : 'the expression ends too early');
    }
  }

  private startsType(t: Token | undefined): boolean {
    if (t?.kind !== 'ident') return false;
    if (SCALAR_WORDS.has(t.name) || QUALIFIERS.has(t.name) || ['struct', 'union', 'enum'].includes(t.name)) return true;
    return this.opts.isTypedef?.(t.name) ?? false;
  }

  private typeName(): TypeName {
    const at = this.t.at;
    const words: string[] = [];
    let base: TypeName['base'] | undefined;
    for (;;) {
      const t = this.t;
      if (t.kind !== 'ident') break;
      if (QUALIFIERS.has(t.name)) {
        this.i++;
      } else if (SCALAR_WORDS.has(t.name) && !base) {
        words.push(t.name);
        this.i++;
      } else if (['struct', 'union', 'enum'].includes(t.name) && !base && !words.length) {
        this.i++;
        const tag = this.t;
        if (tag.kind !== 'ident') this.fail(tag.at, `expected a tag name after \`${t.name}\``);
        this.i++;
        base = { kind: 'tagged', tag: t.name as 'struct' | 'union' | 'enum', name: tag.name };
      } else if (!base && !words.length && this.opts.isTypedef?.(t.name)) {
        this.i++;
        base = { kind: 'typedef', name: t.name };
      } else break;
    }
    if (!base && !words.length) this.fail(this.t.at, `expected a type name but found ${describe(this.t)}`);
    let pointers = 0;
    while (this.isPunct('*') || (this.t.kind === 'ident' && QUALIFIERS.has(this.t.name))) {
      if (this.isPunct('*')) pointers++;
      this.i++;
    }
    if (this.isPunct('[') || this.isPunct('('))
      this.fail(this.t.at, 'array and function types are not supported in casts; cast to a pointer instead');
    const end = this.tokens[this.i - 1].end;
    return { at, end, base: base ?? { kind: 'scalar', words }, pointers };
  }
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'the end of the expression';
    case 'punct':
      return `\`${t.op}\``;
    case 'ident':
      return `\`${t.name}\``;
    case 'register':
      return `register \`$${t.name}\``;
    default:
      return 'a constant';
  }
}
