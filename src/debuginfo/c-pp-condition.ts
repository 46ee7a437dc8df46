/**
 * `#if` / `#elif` conditions as the preprocessor reads them: `defined X` and
 * `defined(X)`, object-like macros expanded (the ones known at that point),
 * any other name 0. A condition that is no constant expression counts as
 * true, as every block was read before conditions were.
 */
import { ConstEval } from './c-const-expr.js';
import type { CToken } from './c-token.js';

const MAX_EXPANSION_DEPTH = 16;

export function ppCondition(tokens: CToken[], macros: ReadonlyMap<string, CToken[]>): boolean {
  try {
    const expanded = expand(tokens, macros, 0);
    return new ConstEval(expanded, { constantOf: () => 0, sizeOfTypeName: () => undefined }).value() !== 0;
  } catch {
    return true;
  }
}

function expand(tokens: CToken[], macros: ReadonlyMap<string, CToken[]>, depth: number): CToken[] {
  const out: CToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'id' && t.text === 'defined') {
      const paren = tokens[i + 1]?.text === '(';
      const name = tokens[i + (paren ? 2 : 1)];
      if (name?.kind !== 'id') throw new Error('defined needs a name');
      out.push({ ...t, kind: 'num', text: macros.has(name.text) ? '1' : '0' });
      i += paren ? 3 : 1;
      continue;
    }
    const body = t.kind === 'id' ? macros.get(t.text) : undefined;
    if (body && depth < MAX_EXPANSION_DEPTH) out.push(...expand(body, macros, depth + 1));
    else out.push(t);
  }
  return out;
}
