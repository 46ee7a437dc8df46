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
    // `*p = …` writes through p; `char *p = …` (a name before the star) and `int n = 0, *p = q` declare p
    const prior = tokens[i - 2] ?? '';
    if (before === '*' && !IDENT.test(prior) && prior !== '*' && !(prior === ',' && declaration(tokens, i))) return;
    names.add(t);
  });
  return names;
}

/** Words that start a declaration. */
const DECLARES = new Set(['char', 'short', 'int', 'long', 'signed', 'unsigned', 'float', 'double', 'void', '_Bool', 'const', 'volatile', 'static', 'register', 'auto', 'extern', 'struct', 'union', 'enum']); // prettier-ignore

/** Whether the statement holding token `i` is a declaration: a type word first, or a typedef name and a declarator. */
function declaration(tokens: string[], i: number): boolean {
  let start = i;
  while (start > 0 && !STATEMENT_ENDS.has(tokens[start - 1])) start--;
  const [a, b, c] = tokens.slice(start, start + 3);
  return DECLARES.has(a) || (IDENT.test(a) && (IDENT.test(b) || (b === '*' && IDENT.test(c ?? ''))));
}

const STATEMENT_ENDS = new Set([';', '{', '}']);

/** The line without comments, string and character literals (a block comment left open runs to the end). */
function stripped(line: string): string {
  // one pass, so that a quote in a comment or a comment marker in a string is read as what surrounds it
  return line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\/\*.*?(?:\*\/|$)|\/\/.*$/g, (m) =>
    m[0] === '/' ? ' ' : '0',
  );
}
