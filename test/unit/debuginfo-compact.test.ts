// The compact debug-info model: the line table's typed arrays, SDCC functions whose variables are made on first
// use, cc65 records by id (spans read when asked for), and the source locator's folder listings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineTable, LineTableBuilder } from '../../src/debuginfo/line-table.js';
import { RecTable } from '../../src/debuginfo/cc65-dbg-fields.js';
import { parseCdb } from '../../src/debuginfo/sdcc-cdb.js';
import { sourceLocator } from '../../src/debuginfo/source-near.js';
import { sdccCdb } from '../support/debuginfo-gen.js';

test('the line table sorts by address, keeping the order of entries at one address; cc65 order by line too', () => {
  const t = LineTable.from([
    { file: 'b.c', line: 7, address: 0x20, level: 1, block: 2 },
    { file: 'a.c', line: 5, address: 0x10 },
    { file: 'c.c', line: 9, address: 0x20, bank: 3 },
    { file: 'a.c', line: 4, address: 0x20 },
  ]);
  assert.deepEqual(
    t.map((e) => [e.file, e.line, e.address]),
    [
      ['a.c', 5, 0x10],
      ['b.c', 7, 0x20],
      ['c.c', 9, 0x20],
      ['a.c', 4, 0x20],
    ],
  );
  assert.deepEqual(t.at(1), { file: 'b.c', line: 7, address: 0x20, level: 1, block: 2 });
  assert.deepEqual(t.at(2), { file: 'c.c', line: 9, address: 0x20, bank: 3 });
  assert.equal(t.at(4), undefined);
  assert.deepEqual(t.files, ['a.c', 'b.c', 'c.c']);
  assert.equal(t.lowerBound(0x11), 1);
  const b = new LineTableBuilder();
  for (const [line, address] of [
    [9, 0x20],
    [4, 0x20],
    [5, 0x10],
  ])
    b.add('m.c', line, address);
  assert.deepEqual(
    [...b.build({ byLineToo: true })].map((e) => [e.line, e.address]),
    [
      [5, 0x10],
      [4, 0x20],
      [9, 0x20],
    ],
  );
});

test('SDCC: a function makes its variables on first use, once; a spread of it has only its own fields', () => {
  const info = parseCdb(sdccCdb(20));
  const fn = info.functions[3];
  assert.deepEqual(Object.keys(fn).sort(), ['end', 'file', 'hasFramePointer', 'name', 'returnType', 'start']);
  assert.equal({ ...fn }.params, undefined);
  const params = fn.params;
  assert.deepEqual(
    params.map((v) => v.name),
    ['a'],
  );
  assert.equal(fn.params, params, 'made once');
  assert.deepEqual(
    fn.locals.map((v) => [v.name, v.storage]),
    [['x', { kind: 'frame', register: 'IX', offset: -2 }]],
  );
  fn.locals = [];
  assert.deepEqual(fn.locals, []);
  assert.equal(fn.params, params, 'setting one keeps the other');
});

test('cc65 records by id: a repeated id keeps its place and takes the last record; unread ones are read when asked', () => {
  const text = 'span\tid=1,seg=0,start=0x4,size=2,name="a, b"\r\nspan\tid=3,seg=x';
  const t = new RecTable(text);
  t.set(2, { id: '2', name: 'first' });
  t.setUnread(1, 5);
  t.set(2, { id: '2', name: 'second' });
  t.set(-1, { id: '-1', name: 'odd' });
  t.setUnread(3, text.indexOf('id=3'));
  assert.deepEqual(t.ids(), [2, 1, -1, 3]);
  // fields of an unread record, in place
  assert.equal(t.numberField(1, 'start'), 4);
  assert.equal(t.numberField(1, 'size'), 2);
  assert.equal(t.field(1, 'name'), '"a, b"', 'a quoted value as written, its comma inside');
  assert.equal(t.field(1, 'missing'), undefined);
  assert.ok(Number.isNaN(t.numberField(1, 'missing')));
  assert.ok(Number.isNaN(t.numberField(3, 'seg')), 'not a number');
  assert.equal(t.field(3, 'seg'), 'x', 'the last field ends with the text');
  assert.deepEqual(
    t.values().map((r) => r.start ?? r.name),
    ['second', '0x4', 'odd', undefined],
  );
  assert.equal(t.get(1)?.name, 'a, b');
  assert.equal(t.numberField(2, 'id'), 2, 'a parsed record answers too');
  assert.equal(t.has(7), false);
  assert.equal(t.get(7), undefined);
  assert.equal(t.get(Number('x')), undefined);
});

test('cc65 records by id: ids in sequence keep no list, one out of sequence starts it', () => {
  const t = new RecTable();
  for (let id = 0; id < 3; id++) t.set(id, { id: String(id) });
  assert.deepEqual(t.ids(), [0, 1, 2]);
  t.set(7, { id: '7' });
  t.set(1, { id: '1' });
  t.set(3, { id: '3' });
  assert.deepEqual(t.ids(), [0, 1, 2, 7, 3]);
  // an id no array should index by keeps its place too, read or unread
  t.set(2 ** 31, { id: String(2 ** 31) });
  assert.equal(t.setUnread(2 ** 31 + 1, 0), false, 'too big to index: the caller parses it');
  assert.deepEqual(t.ids(), [0, 1, 2, 7, 3, 2 ** 31]);
  assert.deepEqual(
    t.values().map((r) => r.id),
    ['0', '1', '2', '7', '3', String(2 ** 31)],
  );
});

test('sources: every one of many C files in a folder is found (past the stats, through its listing), a missing one not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'retro-sources-'));
  try {
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, `m${i}.c`), `int v${i};\n`);
    const locate = sourceLocator(join(dir, 'program.dbg'));
    for (let i = 0; i < 40; i++) assert.equal(locate(`m${i}.c`, { system: false })?.text, `int v${i};\n`, `m${i}.c`);
    assert.equal(locate('missing.c', { system: false }), undefined);
    writeFileSync(join(dir, 'late.c'), 'int late;\n');
    // the listing is read once per load (per locator): a new locator sees the new file
    assert.equal(sourceLocator(join(dir, 'program.dbg'))('late.c', { system: false })?.text, 'int late;\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
