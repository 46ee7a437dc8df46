// The C sources' preprocessor as far as declarations need it: #if groups on the macros known at that point and
// cc65's predefined ones for the program's target, #undef, a macro naming a type (stdbool's bool); and cc65's own
// mousedemo sample, compiled by cl65, whose main is declared twice under #if and whose locals' types come from
// cc65's headers (they showed as byte[2] before).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseDeclarations } from '../../src/debuginfo/c-declarations.js';
import { tokenizeSource } from '../../src/debuginfo/c-source-tokens.js';
import { cc65Predefined } from '../../src/debuginfo/cc65-c-decls.js';
import { SMALL_TARGET } from '../../src/debuginfo/expr/c-types.js';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import { typeName } from '../../src/debuginfo/values.js';
import { buildCc65Program } from '../support/c64-fixture.js';

const ids = (text: string, predefined = cc65Predefined(['/usr/share/cc65/lib/c64.lib'])) =>
  tokenizeSource(text, 'main.c', undefined, predefined)
    .tokens.filter((t) => t.kind === 'id')
    .map((t) => t.text)
    .join(' ');

test('#if groups: the branch the compiler takes, nested, with #elif, #else, defined and #undef', () => {
  assert.equal(ids('#ifdef __CBM__\ncbm\n#else\nother\n#endif'), 'cbm');
  assert.equal(ids('#ifdef __CBM__\ncbm\n#else\nother\n#endif', new Map()), 'other');
  assert.equal(ids('#if defined(__C64__) && __CC65__ >= 0x200\nyes\n#endif'), 'yes');
  assert.equal(ids('#define N 2\n#if N == 1\none\n#elif N == 2\ntwo\n#elif 1\nlate\n#else\nnone\n#endif'), 'two');
  assert.equal(ids('#if 0\n#if 1\ninner\n#else\nelse_inner\n#endif\nouter\n#else\nshown\n#endif'), 'shown');
  assert.equal(ids('#define A\n#undef A\n#ifndef A\ngone\n#endif'), 'gone');
  assert.equal(ids('#if UNKNOWN\nzero\n#endif\nafter'), 'after', 'an unknown name is 0');
  assert.equal(ids('#define bool _Bool\nbool b;'), '_Bool b');
  assert.equal(ids('#ifdef __APPLE2__\nx\n#endif', cc65Predefined(['apple2enh.lib'])), 'x');
});

test("cc65's mousedemo: main's parameters and locals have their C types", async () => {
  const dir = await buildCc65Program('/usr/share/cc65/samples', ['mousedemo.c']);
  const info = await loadDebugInfo(join(dir, 'program.dbg'));
  const main = info.functions.find((f) => f.name === 'main')!;
  const types = Object.fromEntries([...main.params, ...main.locals].map((v) => [v.name, typeName(v.type)]));
  assert.deepEqual(types, {
    argc: 'int',
    argv: 'char **',
    info: 'struct mouse_info',
    full_box: 'struct mouse_box',
    small_box: 'struct mouse_box',
    width: 'unsigned char',
    height: 'unsigned char',
    C: 'char',
    Invisible: '_Bool',
    Done: '_Bool',
    Jailed: '_Bool',
  });
  const parsed = parseDeclarations(
    tokenizeSource('#include <stdbool.h>\nbool flag;', 'x.c', () => ({
      path: 'stdbool.h',
      text: '#define bool _Bool\ntypedef unsigned char _Bool;',
    })).tokens,
    new Map(),
    SMALL_TARGET,
  );
  assert.equal(typeName(parsed.objects.get('flag')!.type), '_Bool');
});
