// The .cdb parser on small hand-written snippets, one record kind at a time,
// and on bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCdb, parseCdbWithWarnings } from '../../src/debuginfo/sdcc-cdb.js';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { typeName } from '../../src/debuginfo/values.js';
import { RetroError } from '../../src/core/errors.js';

const cdb = (...lines: string[]) => lines.join('\n');

test('S + L records: globals of each type chain with their addresses', () => {
  const info = parseCdb(
    cdb(
      'M:m',
      'S:G$c$0_0$0({1}SC:U),E,0,0',
      'S:G$sc$0_0$0({1}SC:S),E,0,0',
      'S:G$i$0_0$0({2}SI:S),E,0,0',
      'S:G$ul$0_0$0({4}SL:U),E,0,0',
      'S:G$ll$0_0$0({8}SI:S),E,0,0',
      'S:G$f$0_0$0({4}SF:S),E,0,0',
      'S:G$b$0_0$0({1}:S),E,0,0',
      'S:G$p$0_0$0({2}DG,SC:U),E,0,0',
      'S:G$pp$0_0$0({2}DX,DG,SI:S),E,0,0',
      'S:G$a$0_0$0({10}DA5d,SI:U),E,0,0',
      'S:G$fp$0_0$0({2}DC,DF,SV:S),E,0,0',
      'S:G$ap$0_0$0({8}DA4d,DG,SC:U),E,0,0',
      'S:Fm$st$0_0$0({2}SI:S),E,0,0',
      'S:G$ext$0_0$0({2}SI:S),E,0,0',
      'L:G$c$0_0$0:8000',
      'L:G$sc$0_0$0:8001',
      'L:G$i$0_0$0:8002',
      'L:G$ul$0_0$0:8004',
      'L:G$ll$0_0$0:8008',
      'L:G$f$0_0$0:8010',
      'L:G$b$0_0$0:8014',
      'L:G$p$0_0$0:8015',
      'L:G$pp$0_0$0:8017',
      'L:G$a$0_0$0:8019',
      'L:G$fp$0_0$0:8023',
      'L:G$ap$0_0$0:8025',
      'L:Fm$st$0_0$0:802D',
      'L:G$big$0_0$0:2C000',
    ),
  );
  assert.deepEqual(
    info.globals.map((g) => [g.name, typeName(g.type), g.storage]),
    [
      ['c', 'unsigned char', { kind: 'static', address: 0x8000 }],
      ['sc', 'signed char', { kind: 'static', address: 0x8001 }],
      ['i', 'int', { kind: 'static', address: 0x8002 }],
      ['ul', 'unsigned long', { kind: 'static', address: 0x8004 }],
      ['ll', 'long long', { kind: 'static', address: 0x8008 }],
      ['f', 'float', { kind: 'static', address: 0x8010 }],
      ['b', '_Bool', { kind: 'static', address: 0x8014 }],
      ['p', 'unsigned char *', { kind: 'static', address: 0x8015 }],
      ['pp', 'int **', { kind: 'static', address: 0x8017 }],
      ['a', 'unsigned int[5]', { kind: 'static', address: 0x8019 }],
      ['fp', 'void (*)()', { kind: 'static', address: 0x8023 }],
      ['ap', 'unsigned char *[4]', { kind: 'static', address: 0x8025 }],
      ['st', 'int', { kind: 'static', address: 0x802d }],
    ],
    'ext has no address: declared here, defined nowhere',
  );
  assert.deepEqual(
    info.symbols.find((s) => s.name === 'big'),
    { name: 'big', address: 0xc000, bank: 2 },
  );
});

test('T records: struct fields, offsets, nested and self-referencing structs, unions, bit-fields', () => {
  const info = parseCdb(
    cdb(
      'M:m',
      'T:Fm$in[({0}S:S$lo$0_0$0({1}SB0$3:U),Z,0,0)({0}S:S$hi$0_0$0({1}SB3$5:S),Z,0,0)({1}S:S$w$0_0$0({2}SI:S),Z,0,0)]',
      'T:Fm$u[({0}S:S$i$0_0$0({2}SI:S),Z,0,0)({0}S:S$l$0_0$0({4}SL:S),Z,0,0)]',
      'T:Fm$node[({0}S:S$in$0_0$0({3}STin:S),Z,0,0)({3}S:S$u$0_0$0({4}STu:S),Z,0,0)({7}S:S$next$0_0$0({2}DG,STnode:S),Z,0,0)]',
      'S:G$n$0_0$0({9}STnode:S),E,0,0',
      'L:G$n$0_0$0:9000',
    ),
  );
  const t = info.globals[0].type;
  assert.equal(t.kind, 'struct');
  if (t.kind !== 'struct') return;
  assert.equal(t.name, 'struct node');
  assert.equal(t.size, 9);
  assert.deepEqual(
    t.fields.map((f) => [f.name, f.offset, typeName(f.type)]),
    [
      ['in', 0, 'struct in'],
      ['u', 3, 'union u'],
      ['next', 7, 'struct node *'],
    ],
  );
  const next = t.fields[2].type;
  assert.ok(next.kind === 'pointer' && next.to === t, 'the pointer leads back to the same struct object');
  const inner = t.fields[0].type;
  assert.ok(inner.kind === 'struct');
  if (inner.kind !== 'struct') return;
  assert.deepEqual(
    inner.fields.map((f) => [f.name, f.offset, f.bitOffset, f.bitWidth]),
    [
      ['lo', 0, 0, 3],
      ['hi', 0, 3, 5],
      ['w', 1, undefined, undefined],
    ],
  );
  assert.equal(inner.size, 3);
});

test('F, S locals and L:C / L:XG: a function with params, stack locals, registers, and its lines', () => {
  const info = parseCdb(
    cdb(
      'M:m',
      'F:G$f$0_0$0({2}DF,SI:S),C,0,4,0,0,0',
      'S:Lm.f$b$1_0$1({1}SC:U),B,1,4',
      'S:Lm.f$a$1_0$0({2}SI:S),R,0,0,[l,h]',
      'S:Lm.f$t$1_0$2({2}SI:S),B,1,-2',
      'S:Lm.f$r$1_0$2({2}SI:S),R,0,0,[e,d]',
      'S:Lm.f$gone$1_0$2({2}SI:S),R,0,0,[]',
      'S:Lm.f$sloc0$0_1$0({2}SI:S),B,1,-4',
      'S:Lm.f$cnt$1_0$2({1}SC:U),E,0,0',
      'S:Lm.f$in$2_0$3({1}SC:U),B,1,-3',
      'L:Lm.f$cnt$1_0$2:8100',
      'L:C$m.c$10$0_0$2:200',
      'L:G$f$0$0:200',
      'L:C$m.c$12$1_0$2:208',
      'L:C$m.c$13$2_0$3:20C',
      'L:C$m.c$12$1_0$2:210',
      'L:C$m.c$15$1_0$2:214',
      'L:XG$f$0$0:214',
      'L:G$next$0$0:220',
    ),
  );
  const f = info.functions[0];
  assert.deepEqual(
    { ...f, params: undefined, locals: undefined, returnType: undefined },
    {
      name: 'f',
      file: 'm.c',
      start: 0x200,
      end: 0x217,
      hasFramePointer: true,
      params: undefined,
      locals: undefined,
      returnType: undefined,
    },
  );
  assert.equal(typeName(f.returnType!), 'int');
  assert.deepEqual(
    f.params.map((p) => [p.name, p.storage]),
    [
      ['a', { kind: 'register', registers: ['L', 'H'] }],
      ['b', { kind: 'frame', register: 'IX', offset: 4 }],
    ],
  );
  assert.deepEqual(
    f.locals.map((v) => [v.name, v.level, v.block, v.storage]),
    [
      ['t', 1, 2, { kind: 'frame', register: 'IX', offset: -2 }],
      ['r', 1, 2, { kind: 'register', registers: ['E', 'D'] }],
      ['gone', 1, 2, { kind: 'optimized_out' }],
      ['cnt', 1, 2, { kind: 'static', address: 0x8100 }],
      ['in', 2, 3, { kind: 'frame', register: 'IX', offset: -3 }],
    ],
  );
  assert.deepEqual(
    info.lines.map((l) => [l.line, l.address]),
    [
      [10, 0x200],
      [12, 0x208],
      [13, 0x20c],
      [12, 0x210],
      [15, 0x214],
    ],
  );

  const index = new DebugIndex(info);
  assert.deepEqual(
    index.lineRanges(0x209),
    [
      [0x208, 0x20b],
      [0x210, 0x213],
    ],
    'line 12 has code in two places',
  );
  assert.deepEqual(index.lineRanges(0x215), [[0x214, 0x217]]);
  assert.equal(index.lineAt(0x218), undefined);
  assert.deepEqual(index.resolveLine('m.c', 12)?.addresses, [0x208, 0x210]);
  assert.deepEqual(index.resolveLine('m.c', 14), { file: 'm.c', line: 15, addresses: [0x214] });
  assert.equal(index.resolveLine('m.c', 16), undefined);
  assert.deepEqual(
    index.locals(f, 0x20c).map((v) => v.name),
    ['a', 'b', 't', 'r', 'gone', 'cnt', 'in'],
  );
  assert.deepEqual(
    index.locals(f, 0x210).map((v) => v.name),
    ['a', 'b', 't', 'r', 'gone', 'cnt'],
  );
});

test('a function with only stack parameters leaves the frame undecided; one with nothing on the stack has none', () => {
  const info = parseCdb(
    cdb(
      'M:m',
      'F:G$g$0_0$0({2}DF,SV:S),C,0,0,0,0,0',
      'S:Lm.g$p$1_0$1({1}SC:U),B,1,4',
      'F:Fm$h$0_0$0({2}DF,SV:S),C,0,0,0,0,0',
      'S:Lm.h$q$1_0$0({1}SC:U),R,0,0,[a]',
      'L:G$g$0$0:100',
      'L:A$m$1:100',
      'L:A$m$2:101',
      'L:Fm$h$0$0:110',
      'L:XFm$h$0$0:112',
    ),
  );
  const [g, h] = info.functions;
  assert.equal(g.hasFramePointer, undefined);
  assert.deepEqual(g.params[0].storage, { kind: 'stack', offset: 2 });
  assert.equal(g.end, 0x104, 'last asm record + longest instruction');
  assert.equal(h.name, 'h');
  assert.equal(h.hasFramePointer, false);
  assert.equal(h.end, 0x115);
});

test('bad lines become warnings naming the line; usable records still parse', () => {
  const { info, warnings } = parseCdbWithWarnings(
    cdb(
      'M:m',
      'Q:what is this',
      'S:G$x$0_0$0({2}SI:S', // truncated
      'S:G$y$0_0$0({2}ZZ:S),E,0,0', // unknown specifier
      'L:G$x$0_0$0:zz', // bad address
      'T:Fm$s[({0}S:S$a$0_0$0({2}SI:S),Z,0',
      'S:G$ok$0_0$0({2}SI:U),E,0,0',
      'L:G$y$0_0$0:8000',
      'L:G$ok$0_0$0:8002',
    ),
    { fileName: 'prog.cdb' },
  );
  assert.deepEqual(
    info.globals.map((g) => g.name),
    ['ok'],
  );
  assert.equal(warnings.length, 5);
  assert.match(warnings[0], /^prog\.cdb line 2: unknown record type "Q"/);
  assert.match(warnings[1], /line 3: missing \(type chain\)/);
  assert.match(warnings[2], /line 4: y: type chain .* unknown specifier "ZZ"/);
  assert.match(warnings[3], /line 5: linker record has no hex address/);
  assert.match(warnings[4], /line 6: type record/);
});

test('records cut short or garbled in their numbers are skipped with a warning naming the line', () => {
  const { info, warnings } = parseCdbWithWarnings(
    cdb(
      'M:m',
      'L:C$m.c$x$0_0$1:0800', // line number
      'L:C$m.c$3$0_0$1:08', // fine
      'S:G$a$0_0$0({2}SI:S),E,1x,0', // on-stack flag
      'S:G$b$0_0$0({2}SI:S),E,0', // no offset
      'F:G$f$0_0$0({2}DF,SI:S),C,0', // one number
      'L:XG$f$0$0:', // no address
      'L:G$c$x$0:0900', // level
      'S:G$ok$0_0$0({2}SI:S),E,0,0',
      'L:G$ok$0$0:8002',
    ),
    { fileName: 'cut.cdb' },
  );
  assert.deepEqual(
    info.globals.map((g) => g.name),
    ['ok'],
  );
  assert.deepEqual(
    info.lines.map((l) => [l.file, l.line, l.address]),
    [['m.c', 3, 8]],
  );
  assert.deepEqual(
    warnings.map((w) => /^cut\.cdb line (\d+): /.exec(w)?.[1]),
    ['2', '4', '5', '6', '7', '8'],
  );
  assert.match(warnings[0], /C line record is not C\$file\$line\$level\$block/);
  assert.match(warnings[1], /symbol fields "E,1x,0" are not space,onStack,offset/);
  assert.match(warnings[3], /function record needs address space, on-stack flag and stack size/);
  assert.match(warnings[4], /linker record has no hex address/);
  assert.match(warnings[5], /symbol "G\$c\$x\$0" is not scope\$name\$level\$block/);
});

test('files without usable records are bad_debug_info naming the file and first bad line', () => {
  const bad = (text: string, pattern: RegExp) =>
    assert.throws(
      () => parseCdb(text, { fileName: 'x.cdb' }),
      (e: unknown) => e instanceof RetroError && e.code === 'bad_debug_info' && pattern.test(e.message),
    );
  bad('', /x\.cdb has no SDCC debug records \(it is empty\)/);
  bad('\n\n  \n', /empty/);
  bad(
    'hello world\nsecond line',
    /x\.cdb has no usable SDCC debug records; the first bad line is line 1: unknown record type "h"/,
  );
  bad('\u0000\u0001\u0002binary', /first bad line is line 1/);
  bad('M:only_a_module', /no SDCC debug records/);
  bad('L:C$a.c', /first bad line is line 1: linker record has no hex address/);
  // symbol records are read by the builder, not as they are met: a file of bad ones is still of no use
  bad('M:main\nS:G$x$0_0$0({2}SI:S),bogus\nL:garbage', /first bad line is line 2: symbol fields "bogus"/);
  bad('S:Lmain.f$x$1_0$1({2}SI:S),B,1', /first bad line is line 1: symbol fields/);
  assert.equal(parseCdb('S:G$x$0_0$0({2}SI:S),bogus\nS:G$y$0_0$0({2}SI:S),E,0,0').format, 'sdcc-cdb', 'one reads');
});
