import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarations } from '../../src/debuginfo/c-declarations.js';
import { tokenizeSource } from '../../src/debuginfo/c-source-tokens.js';
import { SMALL_TARGET } from '../../src/debuginfo/expr/c-types.js';
import { typeName } from '../../src/debuginfo/values.js';
import type { CType } from '../../src/debuginfo/model.js';

function parse(text: string, headers: Record<string, string> = {}) {
  const { tokens, macros } = tokenizeSource(text, 'main.c', (name) =>
    headers[name] !== undefined ? { path: name, text: headers[name] } : undefined,
  );
  return parseDeclarations(tokens, macros, SMALL_TARGET);
}

const spelled = (d: ReturnType<typeof parse>, name: string) => {
  const t = d.objects.get(name)?.type;
  return t ? typeName(t) : undefined;
};

test('every declarator of a declaration; every spelling of the scalar types', () => {
  const d = parse('unsigned char a, *b, c[3];\nsigned short s; short int si; long unsigned lu; signed sg; char **pp;');
  assert.deepEqual(
    ['a', 'b', 'c', 's', 'si', 'lu', 'sg', 'pp'].map((n) => spelled(d, n)),
    ['unsigned char', 'unsigned char *', 'unsigned char[3]', 'int', 'int', 'unsigned long', 'int', 'char **'],
  );
});

test('array sizes from macros, enum constants, sizeof and the initialiser; comments and strings are not code', () => {
  const d = parse(
    [
      '#define N 4',
      '#define TWICE (N * 2)',
      'enum { LAST = 9 };',
      '/* int hidden; */ char *text = "int fake;";',
      'int sieve[] = { 2, 3, 5, { 7 }, 11 };',
      'char msg[] = "hi" "!";',
      'int grid[TWICE][N + 1];',
      'long l[LAST + 1];',
      'char buf[sizeof(long) * 2];',
    ].join('\n'),
  );
  assert.equal(d.objects.has('hidden'), false);
  assert.equal(d.objects.has('fake'), false);
  assert.equal(spelled(d, 'sieve'), 'int[5]');
  assert.equal(spelled(d, 'msg'), 'char[4]');
  assert.equal(spelled(d, 'grid'), 'int[8][5]');
  assert.equal(spelled(d, 'l'), 'long[10]');
  assert.equal(spelled(d, 'buf'), 'char[8]');
});

test('typedefs (also from included headers), structs with nested fields, unions, enums, bit-fields', () => {
  const d = parse(
    [
      '#include "defs.h"',
      'struct point { int x, y; };',
      'typedef struct node { char tag; struct point at; union { unsigned w; byte b[2]; } raw; struct node *next; } node_t;',
      'typedef struct { unsigned a : 3, b : 5; unsigned c : 9; } flags_t;',
      'enum colour { BLACK, RED = 5, CYAN };',
      'node_t nodes[3]; node_t *head; flags_t f; enum colour paint; counter_t n;',
    ].join('\n'),
    { 'defs.h': 'typedef unsigned char byte;\ntypedef unsigned long counter_t;' },
  );
  const node = d.typedefs.get('node_t') as Extract<CType, { fields: unknown }>;
  assert.equal(node.size, 1 + 4 + 2 + 2);
  assert.deepEqual(
    node.fields.map((f) => [f.name, f.offset, typeName(f.type)]),
    [
      ['tag', 0, 'char'],
      ['at', 1, 'struct point'],
      ['raw', 5, 'union <anonymous>'],
      ['next', 7, 'struct node *'],
    ],
  );
  const next = node.fields[3].type as Extract<CType, { kind: 'pointer' }>;
  assert.equal((next.to as Extract<CType, { fields: unknown }>).fields.length, 4, 'the self-reference sees the fields');
  assert.equal(spelled(d, 'nodes'), 'node_t[3]');
  assert.equal(spelled(d, 'head'), 'node_t *');
  assert.equal(spelled(d, 'n'), 'counter_t');
  assert.equal((d.objects.get('n')!.type as Extract<CType, { kind: 'int' }>).size, 4);
  const flags = d.typedefs.get('flags_t') as Extract<CType, { fields: unknown }>;
  assert.deepEqual(
    flags.fields.map((f) => [f.name, f.offset, f.bitOffset, f.bitWidth]),
    [
      ['a', 0, 0, 3],
      ['b', 0, 3, 5],
      ['c', 2, 0, 9],
    ],
  );
  assert.equal(flags.size, 4);
  assert.deepEqual([d.constants.get('BLACK'), d.constants.get('RED'), d.constants.get('CYAN')], [0, 5, 6]);
  assert.equal(spelled(d, 'paint'), 'enum colour');
});

test("each function's own parameters and locals; statics, externs and prototypes at file scope", () => {
  const d = parse(
    [
      'extern int shared; static int hidden = 1; int proto(int);',
      'int shared = 2;',
      'static int helper(int n) { int same = n; return same; }',
      'int __fastcall__ sum(register unsigned char count, int base[]) {',
      '  register int i; unsigned char same, *p;',
      '  for (i = 0; i < count; ++i) { long inner; same += i; }',
      '  return same;',
      '}',
    ].join('\n'),
  );
  assert.equal(d.objects.get('shared')?.linkage, 'global');
  assert.equal(d.objects.get('hidden')?.linkage, 'static');
  assert.equal(d.objects.has('proto'), false);
  const helper = d.functions.get('helper')!;
  assert.equal(typeName(helper.locals.find((l) => l.name === 'same')!.type), 'int');
  const sum = d.functions.get('sum')!;
  assert.deepEqual(
    sum.params.map((p) => [p.name, typeName(p.type)]),
    [
      ['count', 'unsigned char'],
      ['base', 'int *'],
    ],
  );
  assert.deepEqual(
    sum.locals.map((l) => [l.name, typeName(l.type), l.linkage]),
    [
      ['i', 'int', 'register'],
      ['same', 'unsigned char', 'local'],
      ['p', 'unsigned char *', 'local'],
      ['inner', 'long', 'local'],
    ],
  );
  assert.equal(sum.bodyStart, 4);
  assert.equal(sum.bodyEnd, 8);
});

test("locals of blocks inside a function body: their block's lines, its first statement and its depth", () => {
  const d = parse(
    [
      'int f(int n) {', // 1
      '  int top = n;', // 2
      '  for (top = 0; top < n; ++top) {', // 3
      '    int a;', // 4
      '    char b = 1;', // 5
      '    a = b;', // 6
      '    if (a) {', // 7
      '      int c = a, *p = &c;', // 8
      '      *p = 2;', // 9
      '    }', // 10
      '  }', // 11
      '  return top;', // 12
      '}',
    ].join('\n'),
  );
  const locals = Object.fromEntries(d.functions.get('f')!.locals.map((l) => [l.name, l]));
  assert.equal(locals.top.block, undefined, "the body's own local");
  assert.deepEqual(locals.a.block, { open: 3, close: 11, body: 6, depth: 1 });
  assert.equal(locals.b.block, locals.a.block);
  assert.deepEqual([locals.a.initialised, locals.b.initialised], [undefined, true], 'what cc65 pushes on its line');
  assert.deepEqual(locals.c.block, { open: 7, close: 10, body: 9, depth: 2 });
  assert.equal(typeName(locals.p.type), 'int *');
});
