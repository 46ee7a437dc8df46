// DebugIndex look-ups on the real SDCC fixture; expected addresses come from
// the linker's relocated listing (.rst) and symbol table (.noi).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import { parseCdb } from '../../src/debuginfo/sdcc-cdb.js';
import { buildCdbFixture, rstLineAddresses } from '../support/cdb-fixture.js';

const fx = buildCdbFixture();
const index = new DebugIndex(parseCdb(fx.cdb, { fileName: fx.cdbPath }));
const rst = rstLineAddresses(fx.rst.main);
const at = (line: number) => Math.min(...rst.get(`main.c:${line}`)!);
const sym = (name: string) => fx.noi.get(name)!;

test('lineAt: the line whose code contains the address, undefined outside functions', () => {
  assert.equal(index.lineAt(at(25))?.line, 25);
  assert.equal(index.lineAt(at(27) - 1)?.line, 25, 'last byte of line 25 code');
  assert.equal(index.lineAt(sym('_regs_only'))?.line, 40, 'line 37 and 40 share the address; 40 owns the code');
  assert.equal(index.lineAt(0x0000), undefined, 'crt0 has no line info');
  assert.equal(index.lineAt(0x8000), undefined, 'data');
  assert.equal(index.lineAt(sym('_helper_add'))?.file, 'helper.c');
  assert.equal(index.isLineStart(at(31)), true);
  assert.equal(index.isLineStart(at(31) + 1), false);
});

test('resolveLine matches by path, suffix and basename, and moves past lines without code', () => {
  assert.deepEqual(index.resolveLine('main.c', 31), { file: 'main.c', line: 31, addresses: [at(31)] });
  assert.equal(index.resolveLine('/home/u/project/src/main.c', 31)?.addresses[0], at(31));
  assert.equal(index.resolveLine('C:\\proj\\helper.c', 9)?.file, 'helper.c');
  const moved = index.resolveLine('main.c', 26); // declaration without initializer
  assert.deepEqual(moved, { file: 'main.c', line: 27, addresses: [at(27)] });
  assert.equal(index.resolveLine('main.c', 35), undefined, 'between functions');
  assert.equal(index.resolveLine('main.c', 2), undefined, 'before any function');
  assert.equal(index.resolveLine('nothere.c', 5), undefined);
  assert.deepEqual(index.resolveLine('shapes.c', 26)?.addresses, [
    ...rstLineAddresses(fx.rst.shapes).get('shapes.c:26')!,
  ]);
});

test('lineRanges covers every piece of a line: the for loop body', () => {
  // line 30 (loop body) sits between the two pieces of line 29's code
  const body = index.lineRanges(at(30));
  assert.equal(body.length, 1);
  assert.equal(body[0][0], at(30));
  assert.equal(body[0][1] + 1, Math.max(...rst.get('main.c:29')!));
  for (const [first, last] of body) for (let a = first; a <= last; a++) assert.equal(index.lineAt(a)?.line, 30);
  const end = index.lineRanges(sym('_main') + 0x40); // inside main's for(;;)
  assert.ok(end.length >= 1 && end.every(([f, l]) => f <= l));
  assert.deepEqual(index.lineRanges(0x8000), []);
});

test('functionAt / functionByName / global / sourceFiles', () => {
  const f = index.functionAt(sym('_shadowing') + 5)!;
  assert.equal(f.name, 'shadowing');
  assert.equal(index.functionAt(sym('_main') - 1)?.name, 'shadowing');
  assert.equal(index.functionAt(sym('_main'))?.name, 'main');
  assert.equal(index.functionAt(0x0005), undefined);
  assert.equal(index.functionByName('_main'), index.functionByName('main'));
  assert.equal(index.functionByName('twice')?.file, 'shapes.c');
  assert.equal(index.functionByName('nope'), undefined);
  assert.deepEqual(index.global('g_int')?.storage, { kind: 'static', address: sym('_g_int') });
  assert.equal(index.global('_g_int'), index.global('g_int'));
  assert.deepEqual(index.sourceFiles().sort(), ['helper.c', 'main.c', 'shapes.c']);
});

test('locals respect nested blocks: the inner x hides the outer one only inside its block', () => {
  const fn = index.functionByName('shadowing')!;
  const xOffset = (line: number) => {
    const xs = index.locals(fn, at(line)).filter((v) => v.name === 'x');
    assert.equal(xs.length, 1, `one x visible at line ${line}`);
    return (xs[0].storage as { offset: number }).offset;
  };
  assert.equal(xOffset(46), -4);
  assert.equal(xOffset(51), -2);
  assert.equal(xOffset(52), -2);
  assert.equal(xOffset(54), -4);
  assert.deepEqual(
    index.locals(fn, at(46)).map((v) => v.name),
    ['n', 'x', 'px'],
  );
  assert.deepEqual(
    index
      .locals(fn, at(51))
      .map((v) => v.name)
      .sort(),
    ['n', 'px', 'qx', 'x'],
  );
  assert.deepEqual(
    index.locals(index.functionByName('stack_frame')!, at(31)).map((v) => v.name),
    ['a', 'b', 'c', 'local_int', 'buf', 'total', 'i'],
  );
});

test('loadDebugInfo reads the .cdb from disk', async () => {
  assert.deepEqual(await loadDebugInfo(fx.cdbPath), index.info);
});

test('loadDebugInfo refuses missing files and other formats with typed errors', async () => {
  await assert.rejects(
    loadDebugInfo(join(fx.dir, 'missing.cdb')),
    (e: any) =>
      e.code === 'bad_debug_info' && e.message.includes('missing.cdb') && e.message.includes('does not exist'),
  );
  // cc65 .dbg is a supported format (issue 4): a missing one is reported like a missing .cdb
  await assert.rejects(
    loadDebugInfo(join(fx.dir, 'prog.dbg')),
    (e: any) => e.code === 'bad_debug_info' && e.message.includes('does not exist'),
  );
  await assert.rejects(loadDebugInfo(join(fx.dir, 'main.c')), (e: any) => e.code === 'unsupported');
  await assert.rejects(loadDebugInfo(join(fx.dir, 'crt0.cdb.nope')), (e: any) => e.code === 'unsupported');
});

test('bodyStart: after the prologue line; at the start when the first body line shares the address (no prologue)', () => {
  // regs_only has no frame set-up: line 37 (its declaration) and line 40 (its first statement) share the start
  const regs = index.functionByName('regs_only')!;
  assert.equal(index.bodyStart(regs), sym('_regs_only'));
  assert.equal(index.lineAt(index.bodyStart(regs))?.line, 40);
  // stack_frame sets up IX in its declaration line's code: its body starts after it, at line 25
  const framed = index.functionByName('stack_frame')!;
  assert.equal(index.bodyStart(framed), at(25));
  assert.ok(at(25) > sym('_stack_frame'));
});

test('symbolAt: the label at exactly an address (as the linker placed it), nothing between labels', () => {
  assert.equal(index.symbolAt(sym('_main')), 'main');
  assert.equal(index.symbolAt(sym('_g_int')), 'g_int');
  assert.equal(index.symbolAt(sym('_main') + 1), undefined);
});
