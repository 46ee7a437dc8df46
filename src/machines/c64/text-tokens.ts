/**
 * Caller token maps for C64 text: a byte's rendering replaced by a caller's
 * string. Keys are unprefixed decimal ("129") or explicit hex ("0x81").
 * Single-pass uses the strings literally; recursive mode expands two-digit
 * hex references such as "{81}" inside them, to a depth limit, refusing
 * cycles. The aggregate rendering cap fails rather than truncates.
 */
import { tooLarge, badRequest } from '../../core/errors.js';
import { hex } from '../../core/hex.js';

export type TokenMode = 'single' | 'recursive';
export const MAX_TOKEN_DEPTH = 32;
export const MAX_TOKENS = 256;
export const MAX_TOKEN_CHARS = 1024;

export function parseTokenMap(raw: Record<string, string>): Map<number, string> {
  const map = new Map<number, string>();
  const keys = Object.keys(raw);
  if (keys.length > MAX_TOKENS) throw tooLarge(`A token map has at most ${MAX_TOKENS} entries (got ${keys.length}).`);
  for (const key of keys) {
    let byte: number;
    if (/^0x[0-9a-f]{1,2}$/i.test(key)) byte = parseInt(key.slice(2), 16);
    else if (/^(0|[1-9][0-9]{0,2})$/.test(key)) byte = parseInt(key, 10);
    else throw badRequest(`Token key "${key}" is not a byte: use decimal ("129") or hex with 0x ("0x81").`);
    if (byte > 255) throw badRequest(`Token key "${key}" is ${byte}, past the byte range 0-255.`);
    if (map.has(byte))
      throw badRequest(`Token keys name byte ${byte} twice (e.g. "${byte}" and "0x${byte.toString(16)}").`);
    const value = raw[key];
    if (value.length > MAX_TOKEN_CHARS) throw tooLarge(`Token ${key} is longer than ${MAX_TOKEN_CHARS} characters.`);
    map.set(byte, value);
  }
  return map;
}

/** Expands byte tokens into a rendering; `fallback` renders a byte that has no token. */
export class TokenExpander {
  private rendered = 0;

  constructor(
    private readonly tokens: ReadonlyMap<number, string>,
    private readonly mode: TokenMode,
    private readonly maxDepth: number,
    private readonly maxChars: number,
    private readonly fallback: (byte: number) => string,
  ) {
    if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > MAX_TOKEN_DEPTH) {
      throw badRequest(`The token depth must be 1-${MAX_TOKEN_DEPTH} (got ${maxDepth}).`);
    }
  }

  /** Rendering of one text byte, counted against the cap. */
  render(byte: number): string {
    return this.count(this.tokens.has(byte) ? this.expand(byte, []) : this.fallback(byte));
  }

  private expand(byte: number, stack: number[]): string {
    const value = this.tokens.get(byte)!;
    if (this.mode === 'single') return value;
    if (stack.includes(byte)) {
      throw badRequest(`Token cycle: ${[...stack, byte].map((b) => '{' + hex(b, 2, '') + '}').join(' → ')}.`, {
        cycle: [...stack, byte],
      });
    }
    if (stack.length >= this.maxDepth) {
      throw badRequest(
        `Token expansion of {${hex(stack[0], 2, '')}} goes deeper than the depth limit ${this.maxDepth}.`,
        { depth: this.maxDepth },
      );
    }
    const next = [...stack, byte];
    let out = '';
    let last = 0;
    for (const m of value.matchAll(/\{([0-9a-fA-F]{2})\}/g)) {
      const ref = parseInt(m[1], 16);
      out += value.slice(last, m.index) + (this.tokens.has(ref) ? this.expand(ref, next) : this.fallback(ref));
      last = m.index! + m[0].length;
      if (out.length + this.rendered > this.maxChars) this.count(out);
    }
    return out + value.slice(last);
  }

  private count(text: string): string {
    this.rendered += text.length;
    if (this.rendered > this.maxChars) {
      throw tooLarge(
        `The rendered text exceeds the cap of ${this.maxChars} characters; raise max_rendered_chars or decode less.`,
        { cap: this.maxChars },
      );
    }
    return text;
  }
}
