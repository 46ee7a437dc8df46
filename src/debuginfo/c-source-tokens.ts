/**
 * C source text → tokens with their line numbers, for reading declarations
 * (not for compiling): comments and string contents are dropped, `#define`
 * object-like macros are collected, `#include` is followed through a
 * caller-supplied reader (tokens of an included file carry its name),
 * conditional blocks are read as the preprocessor would (`#if` on the macros
 * known so far and the caller's predefined ones: cc65's mousedemo declares
 * `main` twice under `#if`), and every other directive is skipped.
 */
import { ppCondition } from './c-pp-condition.js';
import type { CToken } from './c-token.js';

export type { CToken } from './c-token.js';

export interface SourceReader {
  /** the text of an included file and where it was found, or undefined; `system` for <name> */
  (name: string, system: boolean, from: string): { path: string; text: string } | undefined;
}

/** At most this many tokens are read for one file with its includes (declarations need far fewer). */
export const MAX_TOKENS = 2_000_000;
const MAX_INCLUDE_DEPTH = 16;

const PUNCT3 = ['...', '<<=', '>>='];
const PUNCT2 = ['->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '##']; // prettier-ignore

export interface TokenizedSource {
  tokens: CToken[];
  macros: Map<string, CToken[]>;
}

/** One `#if` group of a file: whether its current block is read, whether one of its blocks was. */
interface Conditional {
  on: boolean;
  taken: boolean;
  /** the enclosing block is read */
  outer: boolean;
}

export function tokenizeSource(
  text: string,
  file = '',
  read?: SourceReader,
  predefined?: ReadonlyMap<string, CToken[]>,
): TokenizedSource {
  const out: TokenizedSource = { tokens: [], macros: new Map(predefined) };
  scan(text, file, read, out, new Set([file]), 0);
  return out;
}

function scan(
  text: string,
  file: string,
  read: SourceReader | undefined,
  out: TokenizedSource,
  seen: Set<string>,
  depth: number,
): void {
  let i = 0;
  let line = 1;
  let lineStart = true;
  const n = text.length;
  const conds: Conditional[] = [];
  while (i < n) {
    if (out.tokens.length > MAX_TOKENS) return;
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
      lineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '#' && lineStart) {
      // a directive: up to the end of the line, with backslash continuations
      let end = i;
      let body = '';
      while (end < n && text[end] !== '\n') {
        if (text[end] === '\\' && text[end + 1] === '\n') {
          body += ' ';
          end += 2;
          line++;
          continue;
        }
        body += text[end++];
      }
      const clean = body.slice(1).replace(/\/\*.*?\*\/|\/\/.*$/g, ' ');
      if (!conditional(clean, conds, out.macros, file)) {
        if (isOn(conds)) directive(clean, file, line, read, out, seen, depth);
      }
      i = end;
      continue;
    }
    lineStart = false;
    if (!isOn(conds)) {
      // a block the preprocessor skips: to the end of the line (its comments and strings do not matter)
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    const at = i;
    if (/[A-Za-z_]/.test(c)) {
      while (i < n && /[A-Za-z0-9_]/.test(text[i])) i++;
      // a macro that names another identifier is replaced (stdbool's `#define bool _Bool`: a type name)
      const name = text.slice(at, i);
      const alias = out.macros.get(name);
      const replaced = alias?.length === 1 && alias[0].kind === 'id' ? alias[0].text : name;
      out.tokens.push({ kind: 'id', text: replaced, line, file });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      while (i < n && /[0-9A-Za-z_.]/.test(text[i])) i++;
      out.tokens.push({ kind: 'num', text: text.slice(at, i), line, file });
      continue;
    }
    if (c === '"' || c === "'") {
      let length = 0;
      let value = 0;
      i++;
      while (i < n && text[i] !== c && text[i] !== '\n') {
        if (text[i] === '\\') {
          i++;
          const e = text[i] ?? '';
          if (/[0-7]/.test(e)) {
            let v = 0;
            for (let k = 0; k < 3 && /[0-7]/.test(text[i] ?? ''); k++) v = v * 8 + Number(text[i++]);
            value = v;
          } else if (e === 'x') {
            i++;
            let v = 0;
            while (/[0-9a-fA-F]/.test(text[i] ?? '')) v = v * 16 + parseInt(text[i++], 16);
            value = v & 0xff;
          } else {
            value = ESCAPES[e] ?? text.charCodeAt(i);
            i++;
          }
        } else value = text.charCodeAt(i++);
        length++;
      }
      i++;
      out.tokens.push(
        c === '"'
          ? { kind: 'str', text: '""', line, file, value: length + 1 }
          : { kind: 'chr', text: "''", line, file, value },
      );
      continue;
    }
    const three = text.slice(i, i + 3);
    const two = text.slice(i, i + 2);
    const op = PUNCT3.includes(three) ? three : PUNCT2.includes(two) ? two : c;
    i += op.length;
    out.tokens.push({ kind: 'p', text: op, line, file });
  }
}

const ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 }; // prettier-ignore

function isOn(conds: Conditional[]): boolean {
  return conds.length === 0 || conds[conds.length - 1].on;
}

/** `#if` and its kin: true when `body` was one (the stack of groups updated). */
function conditional(body: string, conds: Conditional[], macros: Map<string, CToken[]>, file: string): boolean {
  const m = /^\s*(if|ifdef|ifndef|elif|else|endif)\b\s*(.*)$/.exec(body);
  if (!m) return false;
  const [, kind, rest] = m;
  const test = (): boolean => {
    if (kind === 'ifdef' || kind === 'ifndef') return macros.has(rest.trim().split(/\s/)[0]) === (kind === 'ifdef');
    return ppCondition(tokenizeSource(rest, file).tokens, macros);
  };
  const top = conds[conds.length - 1];
  if (kind === 'if' || kind === 'ifdef' || kind === 'ifndef') {
    const outer = isOn(conds);
    const on = outer && test();
    conds.push({ on, taken: on, outer });
  } else if (!top)
    return true; // an #else or #endif without its #if: ignored
  else if (kind === 'elif') {
    top.on = top.outer && !top.taken && test();
    top.taken ||= top.on;
  } else if (kind === 'else') {
    top.on = top.outer && !top.taken;
    top.taken = true;
  } else conds.pop();
  return true;
}

function directive(
  body: string,
  file: string,
  line: number,
  read: SourceReader | undefined,
  out: TokenizedSource,
  seen: Set<string>,
  depth: number,
): void {
  const define = /^\s*define\s+([A-Za-z_]\w*)(?!\()\s*(.*)$/.exec(body);
  if (define) {
    const value = tokenizeSource(define[2], file).tokens.map((t) => ({ ...t, line }));
    out.macros.set(define[1], value);
    return;
  }
  const undef = /^\s*undef\s+([A-Za-z_]\w*)/.exec(body);
  if (undef) {
    out.macros.delete(undef[1]);
    return;
  }
  const include = /^\s*include\s*(?:"([^"]+)"|<([^>]+)>)/.exec(body);
  if (!include || !read || depth >= MAX_INCLUDE_DEPTH) return;
  const system = include[2] !== undefined;
  const found = read(include[1] ?? include[2], system, file);
  if (!found || seen.has(found.path)) return;
  seen.add(found.path);
  scan(found.text, found.path, read, out, seen, depth + 1);
}
