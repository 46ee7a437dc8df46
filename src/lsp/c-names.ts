/**
 * Where C names are declared, from the tokens of a file and its includes, for what
 * `parseDeclarations` keeps no place of: struct/union/enum tags, typedef names, enum
 * constants (definitions) and function prototypes (declarations only).
 */
import type { CToken } from '../debuginfo/c-token.js';

export interface NamePlace {
  name: string;
  file: string;
  /** 1-based, as tokens count */
  line: number;
  /** a definition, or only a declaration (a prototype) */
  defines: boolean;
}

const KEYWORDS = new Set(
  'auto break case char const continue default do double else enum extern float for goto if int long register return short signed sizeof static struct switch typedef union unsigned void volatile while __fastcall__ __cdecl__ _Bool inline'.split(
    ' ',
  ),
);

const isName = (t: CToken | undefined): t is CToken => t?.kind === 'id' && !KEYWORDS.has(t.text);
const isP = (t: CToken | undefined, text: string) => t?.kind === 'p' && t.text === text;

/** Tags, enum constants, typedef names and prototypes at file scope. */
export function namePlaces(t: CToken[]): NamePlace[] {
  const out: NamePlace[] = [];
  const place = (tok: CToken, defines: boolean) =>
    out.push({ name: tok.text, file: tok.file, line: tok.line, defines });
  let braces = 0;
  let statement = 0; // the first token of the file-scope statement being read
  let body = false; // the outermost braces open a function body (after `)`), not a struct or an initialiser
  for (let i = 0; i < t.length; i++) {
    const tok = t[i];
    if (tok.kind === 'id' && (tok.text === 'struct' || tok.text === 'union' || tok.text === 'enum')) {
      if (isName(t[i + 1]) && isP(t[i + 2], '{')) place(t[i + 1], true);
      if (tok.text === 'enum') enumConstants(t, i, place);
    }
    if (tok.kind !== 'p') continue;
    if (tok.text === '{') {
      if (braces++ === 0) body = isP(t[i - 1], ')');
    } else if (tok.text === '}') {
      braces = Math.max(0, braces - 1);
      if (braces === 0 && body) statement = i + 1;
    } else if (tok.text === ';' && braces === 0) {
      fileScopeStatement(t, statement, i, place);
      statement = i + 1;
    }
  }
  return out;
}

function enumConstants(t: CToken[], at: number, place: (tok: CToken, defines: boolean) => void): void {
  let i = at + 1;
  if (isName(t[i])) i++;
  if (!isP(t[i], '{')) return;
  let depth = 0;
  for (i++; i < t.length && !isP(t[i], '}'); i++) {
    if (isP(t[i], '(')) depth++;
    else if (isP(t[i], ')')) depth--;
    else if (depth === 0 && isName(t[i]) && (isP(t[i - 1], '{') || isP(t[i - 1], ','))) place(t[i], true);
  }
}

/** A typedef's names (those outside the body of a struct it defines), or a prototype's name. */
function fileScopeStatement(t: CToken[], from: number, to: number, place: (tok: CToken, defines: boolean) => void) {
  const typedef = t.slice(from, to).some((s) => s.kind === 'id' && s.text === 'typedef');
  let braces = 0;
  let parens = 0;
  for (let i = from; i < to; i++) {
    const tok = t[i];
    if (isP(tok, '{')) braces++;
    else if (isP(tok, '}')) braces--;
    else if (isP(tok, '(')) parens++;
    else if (isP(tok, ')')) parens--;
    if (braces > 0 || !isName(tok)) continue;
    const next = t[i + 1];
    if (typedef) {
      const declarator = parens === 0 || (parens === 1 && isP(t[i - 1], '*'));
      if (declarator && (isP(next, ';') || isP(next, ',') || isP(next, '[') || isP(next, ')'))) place(tok, true);
    } else if (parens === 0 && isP(next, '(') && !isP(t[i - 1], '.')) {
      place(tok, false);
      return;
    }
  }
}
