/**
 * The plain variable names one line of C assigns: `x = …`, `x += …`, `x++`,
 * `--x`, a declaration's initializer (`char *p = …`), `for (i = 0; …; i++)`.
 * Not `x == …`, `*x = …`, `x[i] = …`, `s.x = …` or `p->x = …` (those write
 * memory, not the variable). Read from the source text, for telling which C
 * variable the code of a line puts into a register.
 */
const TOKEN = /[A-Za-z_]\w*|0[xX][0-9a-fA-F]+|\d+|<<=|>>=|->|\+\+|--|[-+*/%&|^<>=!]=|&&|\|\||\S/g;
const ASSIGN = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=', '++', '--']);
const IDENT = /^[A-Za-z_]\w*$/;
/** Tokens after which a name is a member, not a variable. */
const MEMBER = new Set(['.', '->']);

export function assignedNames(line: string): Set<string> {
  const tokens = stripped(line).match(TOKEN) ?? [];
  const names = new Set<string>();
  tokens.forEach((t, i) => {
    if (!IDENT.test(t) || MEMBER.has(tokens[i - 1])) return;
    const after = tokens[i + 1];
    const before = tokens[i - 1];
    const prefixed = (before === '++' || before === '--') && !MEMBER.has(after) && after !== '[';
    if (!prefixed && !ASSIGN.has(after)) return;
    // `*p = …` writes through p; `char *p = …` (a name before the star) declares p
    if (before === '*' && !IDENT.test(tokens[i - 2] ?? '') && tokens[i - 2] !== '*') return;
    names.add(t);
  });
  return names;
}

/** The line without comments, string and character literals (a block comment left open runs to the end). */
function stripped(line: string): string {
  // one pass, so that a quote in a comment or a comment marker in a string is read as what surrounds it
  return line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\/\*.*?(?:\*\/|$)|\/\/.*$/g, (m) =>
    m[0] === '/' ? ' ' : '0',
  );
}
