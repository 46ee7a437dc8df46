/** The C64 symbol profile (generator determinism, contents, citations) and the session label table. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { C64_SYMBOL_PROFILE, profileSymbols } from '../../src/machines/c64/symbol-profile.js';
import { LabelTable, viceLabelFile, type Label } from '../../src/session/labels.js';
import type { RetroError } from '../../src/core/errors.js';

const ROOT = join(__dirname, '..', '..');

test('the generator is deterministic and the bundled profile matches it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'c64-profile-'));
  try {
    for (const name of ['a.json', 'b.json'])
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-c64-symbol-profile.mjs'), join(dir, name)]);
    const a = readFileSync(join(dir, 'a.json'));
    assert.ok(a.equals(readFileSync(join(dir, 'b.json'))), 'two runs give identical bytes');
    assert.ok(
      a.equals(readFileSync(join(ROOT, 'data', 'c64-symbol-profile.json'))),
      'data/c64-symbol-profile.json is up to date (run the generator)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('profile contents: every register of each chip, the 39 KERNAL entries, vectors, citations', () => {
  const group = (id: string) => C64_SYMBOL_PROFILE.groups.find((g) => g.id === id)!;
  const span = (id: string) => group(id).symbols.map((s) => s.address);
  const contiguous = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  assert.deepEqual(span('cpu_port'), [0, 1]);
  assert.deepEqual(span('vic_ii'), contiguous(0xd000, 0xd02e));
  assert.deepEqual(span('sid'), contiguous(0xd400, 0xd41c));
  assert.deepEqual(span('cia1'), contiguous(0xdc00, 0xdc0f));
  assert.deepEqual(span('cia2'), contiguous(0xdd00, 0xdd0f));
  assert.deepEqual(
    group('color_ram').symbols.map((s) => [s.address, s.size]),
    [[0xd800, 1024]],
  );
  const kernal = group('kernal_jump_table').symbols;
  assert.equal(kernal.length, 39);
  assert.deepEqual(
    kernal.map((s) => s.address),
    contiguous(0, 38).map((i) => 0xff81 + 3 * i),
    'every 3 bytes from $FF81 to $FFF3',
  );
  const byName = new Map(profileSymbols().map((s) => [s.name, s.address]));
  // spot checks from the guide's tables
  for (const [name, addr] of [
    ['CHROUT', 0xffd2],
    ['GETIN', 0xffe4],
    ['CINT', 0xff81],
    ['IOBASE', 0xfff3],
    ['EXTCOL', 0xd020],
    ['BGCOL0', 0xd021],
    ['VMCSB', 0xd018],
    ['SIGVOL', 0xd418],
    ['RANDOM', 0xd41b],
    ['CIA1PRA', 0xdc00],
    ['CIA2PRA', 0xdd00],
    ['CIA1ICR', 0xdc0d],
    ['RESVEC', 0xfffc],
    ['IRQVEC', 0xfffe],
    ['NMIVEC', 0xfffa],
    ['CINV', 0x0314],
    ['HIBASE', 0x0288],
    ['R6510', 1],
    ['SP7COL', 0xd02e],
  ] as const) {
    assert.equal(byName.get(name), addr, name);
  }
  assert.equal(byName.size, profileSymbols().length, 'symbol names are unique');
  for (const g of [...C64_SYMBOL_PROFILE.groups, ...C64_SYMBOL_PROFILE.equates]) {
    assert.match(g.source, /Commodore 64 Programmer's Reference Guide|data sheet/, `${g.id} cites its source`);
  }
  const equates = C64_SYMBOL_PROFILE.equates.flatMap((e) => e.values);
  assert.ok(equates.length >= 40);
  assert.ok(equates.every((v) => Number.isInteger(v.value) && v.value > 0 && v.value <= 0xff && v.register));
  assert.equal(equates.find((v) => v.name === 'VIC_BMM')?.value, 0x20);
  assert.equal(equates.find((v) => v.name === 'SID_GATE')?.value, 0x01);
});

const lbl = (name: string, address: number, size = 1): Label => ({ name, address, size, source: 'test' });
const code = (e: unknown) => (e as RetroError).code;

test('labels: dry run changes nothing; apply; re-apply is a no-op; lookups cover ranges', () => {
  const t = new LabelTable();
  let changes = 0;
  t.onChange(() => changes++);
  const dry = t.apply([lbl('EXTCOL', 0xd020), lbl('COLRAM', 0xd800, 1024)], 'error', true);
  assert.equal(dry.added.length, 2);
  assert.equal(dry.applied, false);
  assert.equal(t.list().length, 0);
  const real = t.apply([lbl('EXTCOL', 0xd020), lbl('COLRAM', 0xd800, 1024)], 'error', false);
  assert.equal(real.applied, true);
  assert.equal(t.list().length, 2);
  assert.equal(changes, 1);
  const again = t.apply([lbl('EXTCOL', 0xd020), lbl('COLRAM', 0xd800, 1024)], 'error', false);
  assert.deepEqual([again.added.length, again.unchanged.length, again.conflicts.length], [0, 2, 0]);
  assert.equal(changes, 1, 're-applying fires no change');
  assert.deepEqual(t.at(0xd810), { label: t.get('COLRAM'), offset: 0x10 });
  assert.equal(t.at(0xdc00), undefined);
});

test('labels: conflicts under error (nothing applied), skip and replace', () => {
  const t = new LabelTable();
  t.apply([lbl('EXTCOL', 0xd020)], 'error', false);
  const clash = [lbl('BORDER', 0xd020), lbl('NEW', 0x1000)];
  const err = t.apply(clash, 'error', false);
  assert.equal(err.applied, false);
  assert.equal(err.conflicts[0].reason, 'address_named_otherwise');
  assert.equal(t.get('NEW'), undefined, 'policy error applies nothing at all');
  const moved = t.apply([lbl('EXTCOL', 0xd021)], 'error', true);
  assert.equal(moved.conflicts[0].reason, 'name_elsewhere');
  const skip = t.apply(clash, 'skip', false);
  assert.deepEqual([skip.added.length, skip.skipped.length], [1, 1]);
  assert.ok(t.get('NEW') && !t.get('BORDER'));
  const rep = t.apply(clash, 'replace', false);
  assert.equal(rep.replaced.length, 1);
  assert.ok(t.get('BORDER') && !t.get('EXTCOL'));
  assert.throws(
    () => t.apply([lbl('9BAD', 1)], 'error', true),
    (e) => code(e) === 'bad_request',
  );
  assert.throws(
    () => t.apply([lbl('A', 1), lbl('A', 2)], 'error', true),
    (e) => code(e) === 'bad_request',
  );
});

test('VICE label file export', () => {
  assert.equal(viceLabelFile([lbl('R6510', 1), lbl('EXTCOL', 0xd020)]), 'al C:0001 .R6510\nal C:d020 .EXTCOL\n');
});
