// cc65 .dbg → the common debug model, on a program cc65 builds at test time:
// C lines, functions with parameters and locals by C-stack offset, globals
// from data-segment labels, types from the C declarations; and broken files.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseCc65Dbg } from '../../src/debuginfo/cc65-dbg.js';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import { DebugIndex } from '../../src/debuginfo/index.js';
import type { DebugInfo } from '../../src/debuginfo/model.js';
import type { RetroError } from '../../src/core/errors.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';

let fx: C64Fixture;
let info: DebugInfo;

before(async () => {
  fx = await buildC64Fixture();
  info = await loadDebugInfo(fx.dbg);
});

test('C lines map to addresses; line breakpoints resolve in both files', () => {
  assert.equal(info.format, 'cc65-dbg');
  assert.equal(info.cpu, '6502');
  assert.deepEqual(info.files.sort(), ['main.c', 'util.c']);
  const index = new DebugIndex(info);
  for (const name of ['banner', 'loop_call', 'scaled', 'got_key']) {
    const m = fx.markers[name];
    const resolved = index.resolveLine(m.file, m.line);
    assert.ok(resolved?.addresses.length, `${name} has code`);
    assert.equal(index.lineAt(resolved!.addresses[0])?.line, m.line);
  }
});

test('functions carry params (offset >= 0) and locals (< 0) on the C stack, typed from the source', () => {
  const add = info.functions.find((f) => f.name === 'add_scaled')!;
  assert.equal(add.file, 'util.c');
  assert.deepEqual(
    add.params.map((p) => [p.name, p.type.name, p.storage]),
    [
      ['sum', 'int', { kind: 'frame', register: 'CSP', offset: 2 }],
      ['value', 'int', { kind: 'frame', register: 'CSP', offset: 0 }],
    ],
  );
  assert.deepEqual(
    add.locals.map((p) => [p.name, p.type.name]),
    [['scaled', 'int']],
  );
  const main = info.functions.find((f) => f.name === 'main')!;
  assert.deepEqual(
    main.locals.map((v) => [v.name, v.type.name, (v.storage as { offset: number }).offset]),
    [
      ['total', 'int', -2],
      ['key', 'unsigned char', -3],
    ],
  );
  assert.ok(main.start < main.end && add.start > main.end);
  assert.ok(!info.functions.some((f) => f.name === 'printf'), 'library imports without code are not C functions here');
});

test('globals come from _name labels in data segments, typed by their declarations', () => {
  const byName = Object.fromEntries(info.globals.map((g) => [g.name, g]));
  assert.equal(byName.counter.type.name, 'int');
  assert.equal(byName.letters.type.name, 'unsigned char[4]');
  assert.equal(byName.letters.storage.kind, 'static');
  assert.equal(
    info.symbols.find((s) => s.name === '__cc65_sp__')?.address,
    2,
    "cc65's C stack pointer `sp` at the start of ZEROPAGE",
  );
});

test('without the C source, variables fall back to bytes of their known size', () => {
  const text = readFileSync(fx.dbg, 'latin1');
  const bare = parseCc65Dbg(text, { fileName: 'x.dbg' });
  const letters = bare.globals.find((g) => g.name === 'letters')!;
  assert.equal(letters.type.kind, 'bytes');
  assert.equal(bare.functions.find((f) => f.name === 'main')!.locals[0].type.kind, 'bytes');
});

test('broken .dbg files give bad_debug_info naming the place', () => {
  const bad = (text: string, pattern: RegExp) =>
    assert.throws(
      () => parseCc65Dbg(text, { fileName: 'b.dbg' }),
      (e: unknown) => (e as RetroError).code === 'bad_debug_info' && pattern.test((e as Error).message),
    );
  bad('', /not a cc65 debug file/);
  bad('version\tmajor=1,minor=0\n', /found major=1/);
  bad('version\tmajor=2,minor=0\nthis is not a record\n', /line 2 is not a cc65 debug record/);
  bad('version\tmajor=2,minor=0\nline\tid=0,file=3,line=1,type=1,span=0\n', /refers to file 3/);
  bad(
    'version\tmajor=2,minor=0\nfile\tid=0,name="a.c"\nline\tid=x,file=0,line=1,type=1,span=0\n',
    /"x" is not a number/,
  );
  // a record cut short or garbled in the middle of a big file names its line
  bad(
    'version\tmajor=2,minor=0\nfile\tid=0,name="a.c"\r\nsym\tid=1x,name="_x",val=0x800\n',
    /b\.dbg line 3: "1x" is not a number/,
  );
  bad('version\tmajor=2,minor=0\nfile\tid=0,name="a.c"\nsym\n', /b\.dbg line 3 is not a cc65 debug record/);
  bad('version\tmajor=2,minor=0\nscope\tid=0,mod=0\n', /b\.dbg line 2: a scope record without a name/);
});
