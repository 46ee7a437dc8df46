/** Tokens of a C expression, each with its offset in the text. */
import { exprError } from './errors.js';

export type Token =
  | { kind: 'int'; at: number; end: number; value: bigint; radix: 8 | 10 | 16; unsigned: boolean; long: 0 | 1 | 2 }
  | { kind: 'float'; at: number; end: number; value: number }
  | { kind: 'char'; at: number; end: number; value: number }
  | { kind: 'string'; at: number; end: number; value: Uint8Array }
  | { kind: 'ident'; at: number; end: number; name: string }
  | { kind: 'register'; at: number; end: number; name: string }
  | { kind: 'punct'; at: number; end: number; op: string }
  | { kind: 'eof'; at: number; end: number };

/** Longest first, so `<<=` is not read as `<<` `=`. */
const PUNCTUATORS = [
  '<<=', '>>=', '...',
  '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=',
  '+', '-', '*', '/', '%', '<', '>', '!', '~', '&', '|', '^', '?', ':', '(', ')', '[', ']', '.', ',', '=', ';', '{', '}',
]; // prettier-ignore

const ESCAPES: Record<string, number> = {
  n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, e: 27, '\\': 92, "'": 39, '"': 34, '?': 63,
}; // prettier-ignore

/** Longest expression text accepted: bounds work per evaluation. */
export const MAX_EXPRESSION_LENGTH = 4096;

export function tokenize(text: string): Token[] {
  if (text.length > MAX_EXPRESSION_LENGTH)
    throw exprError(text, MAX_EXPRESSION_LENGTH, `expressions are limited to ${MAX_EXPRESSION_LENGTH} characters`);
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const t = number(text, at);
      out.push(t);
      i = t.end;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /[A-Za-z_]\w*/y;
      m.lastIndex = at;
      const name = m.exec(text)![0];
      i = at + name.length;
      out.push({ kind: 'ident', at, end: i, name });
    } else if (c === '$') {
      const m = /\$([A-Za-z_][\w']*)/y;
      m.lastIndex = at;
      const found = m.exec(text);
      if (!found) throw exprError(text, at, '`$` must be followed by a register name, as in `$pc` or `$hl`');
      i = at + found[0].length;
      out.push({ kind: 'register', at, end: i, name: found[1] });
    } else if (c === "'") {
      const { bytes, end } = quoted(text, at, "'");
      if (bytes.length !== 1) throw exprError(text, at, 'a character literal holds exactly one character');
      out.push({ kind: 'char', at, end, value: bytes[0] });
      i = end;
    } else if (c === '"') {
      const { bytes, end } = quoted(text, at, '"');
      out.push({ kind: 'string', at, end, value: Uint8Array.from(bytes) });
      i = end;
    } else {
      const op = PUNCTUATORS.find((p) => text.startsWith(p, at));
      if (!op) throw exprError(text, at, `unexpected character ${JSON.stringify(c)}`);
      i = at + op.length;
      out.push({ kind: 'punct', at, end: i, op });
    }
  }
  out.push({ kind: 'eof', at: text.length, end: text.length });
  return out;
}

function number(text: string, at: number): Token {
  const re = /(0[xX][0-9A-Fa-f]+|[0-9]*\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.?(?:[eE][+-]?[0-9]+)?)([A-Za-z_0-9]*)/y;
  re.lastIndex = at;
  const m = re.exec(text)!;
  const [whole, body, suffix] = m;
  const end = at + whole.length;
  const isHex = /^0[xX]/.test(body);
  if (!isHex && /[.eE]/.test(body)) {
    if (suffix && !/^[fFlL]$/.test(suffix)) throw exprError(text, at, `bad suffix "${suffix}" on a floating constant`);
    return { kind: 'float', at, end, value: Number(body) };
  }
  const s = suffix.toLowerCase();
  if (s && !/^(u|ul|ull|l|ll|lu|llu)$/.test(s))
    throw exprError(text, at, `bad suffix "${suffix}" on an integer constant`);
  const octal = !isHex && body.length > 1 && body.startsWith('0');
  if (octal && /[89]/.test(body)) throw exprError(text, at, `${body} is not an octal number (digits 0 to 7)`);
  const value = isHex ? BigInt(body) : octal ? BigInt(`0o${body.slice(1)}`) : BigInt(body);
  const long = s.includes('ll') ? 2 : s.includes('l') ? 1 : 0;
  return { kind: 'int', at, end, value, radix: isHex ? 16 : octal ? 8 : 10, unsigned: s.includes('u'), long };
}

/** A quoted literal's bytes (escapes decoded, one byte each) and the offset after the closing quote. */
function quoted(text: string, at: number, quote: string): { bytes: number[]; end: number } {
  const bytes: number[] = [];
  let i = at + 1;
  while (i < text.length && text[i] !== quote) {
    if (text[i] !== '\\') {
      const code = text.codePointAt(i)!;
      if (code > 0xff) throw exprError(text, i, `${JSON.stringify(text[i])} is not a single-byte character`);
      bytes.push(code);
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e === undefined) break;
    const hex = /x([0-9A-Fa-f]{1,2})/y;
    const oct = /([0-7]{1,3})/y;
    hex.lastIndex = oct.lastIndex = i + 1;
    const h = hex.exec(text);
    const o = h ? null : oct.exec(text);
    if (h) {
      bytes.push(parseInt(h[1], 16));
      i += 1 + h[0].length;
    } else if (o) {
      const v = parseInt(o[1], 8);
      if (v > 0xff) throw exprError(text, i, `octal escape \\${o[1]} is larger than a byte`);
      bytes.push(v);
      i += 1 + o[0].length;
    } else if (ESCAPES[e] !== undefined) {
      bytes.push(ESCAPES[e]);
      i += 2;
    } else throw exprError(text, i, `unknown escape \\${e}`);
  }
  if (text[i] !== quote) throw exprError(text, at, `missing closing ${quote}`);
  return { bytes, end: i + 1 };
}
