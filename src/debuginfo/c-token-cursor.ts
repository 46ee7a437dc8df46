/**
 * A cursor over C tokens with the skipping a declaration reader needs:
 * to the end of a statement, over balanced brackets and attributes, and
 * over an initialiser (counting its elements for `T a[] = {…}`).
 */
import type { CToken } from './c-source-tokens.js';

export class TokenCursor {
  protected at = 0;

  constructor(protected readonly t: CToken[]) {}

  // ---- tokens ----

  protected peek(offset = 0): CToken | undefined {
    return this.t[this.at + offset];
  }

  protected is(text: string, offset = 0): boolean {
    const tok = this.t[this.at + offset];
    return tok !== undefined && tok.text === text && (tok.kind === 'p' || tok.kind === 'id');
  }

  protected take(text: string): boolean {
    if (!this.is(text)) return false;
    this.at++;
    return true;
  }

  protected expect(text: string): void {
    if (!this.take(text)) throw new Error(`expected ${text}`);
  }

  /** Skips to after the next `;` (or a balanced `{…}`) at this nesting level. */
  protected skipStatement(): void {
    let depth = 0;
    while (this.at < this.t.length) {
      const tok = this.t[this.at++];
      if (tok.kind !== 'p') continue;
      if (tok.text === '(' || tok.text === '[' || tok.text === '{') depth++;
      else if (tok.text === ')' || tok.text === ']' || tok.text === '}') {
        depth--;
        if (depth <= 0 && tok.text === '}') return;
      } else if (tok.text === ';' && depth <= 0) return;
    }
  }

  protected skipBalanced(open: string, close: string): void {
    let depth = 0;
    do {
      const tok = this.t[this.at++];
      if (!tok) return;
      if (tok.kind === 'p' && tok.text === open) depth++;
      else if (tok.kind === 'p' && tok.text === close) depth--;
    } while (depth > 0);
  }

  protected skipAttributes(): void {
    while (this.is('__attribute__') || this.is('__asm__') || this.is('asm')) {
      this.at++;
      if (this.is('(')) this.skipBalanced('(', ')');
    }
  }

  protected initialiser(): number {
    const tok = this.peek();
    if (tok?.kind === 'str') {
      this.at++;
      let length = tok.value ?? 1;
      while (this.peek()?.kind === 'str') length += (this.t[this.at++].value ?? 1) - 1; // "a" "b" concatenate
      return length;
    }
    if (!this.is('{')) {
      let depth = 0;
      while (this.at < this.t.length) {
        const p = this.peek()!;
        if (p.kind === 'p') {
          if (p.text === '(' || p.text === '[' || p.text === '{') depth++;
          if (p.text === ')' || p.text === ']' || p.text === '}') depth--;
          if (depth < 0 || (depth === 0 && (p.text === ',' || p.text === ';'))) break;
        }
        this.at++;
      }
      return 1;
    }
    this.at++;
    let count = 0;
    let item = false;
    let depth = 0;
    while (this.at < this.t.length) {
      const p = this.t[this.at++];
      if (p.kind === 'p' && (p.text === '{' || p.text === '(' || p.text === '[')) depth++;
      else if (p.kind === 'p' && (p.text === ')' || p.text === ']')) depth--;
      else if (p.kind === 'p' && p.text === '}') {
        if (depth-- === 0) break;
      } else if (p.kind === 'p' && p.text === ',' && depth === 0) {
        if (item) count++;
        item = false;
        continue;
      }
      item = true;
    }
    return count + (item ? 1 : 0);
  }

  /** Skips one statement's tokens inside a body: up to `;` outside parentheses, or to a brace (left for the caller). */
  protected skipInBody(): void {
    let parens = 0;
    while (this.at < this.t.length) {
      const tok = this.peek()!;
      if (tok.kind === 'p') {
        if (tok.text === '(') parens++;
        else if (tok.text === ')') parens--;
        else if ((tok.text === '{' || tok.text === '}') && parens <= 0) return;
        else if (tok.text === ';' && parens <= 0) {
          this.at++;
          return;
        }
      }
      this.at++;
    }
  }
}
