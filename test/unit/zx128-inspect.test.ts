/**
 * The inspector on a ZX Spectrum 128K: the screen the machine shows, as port
 * $7FFD's latch says (bit 3 shadow = page 7, bits 0-2 the page at $C000, bit 5
 * lock), named by CPU address when it is paged in and by RAM page and offset
 * when not (the click then opens the RAM device's byte); an unreadable latch says the selection
 * is unknown, and 128K-type drivers whose paging is not decoded say so too.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { notFound } from '../../src/core/errors.js';
import type { Address } from '../../src/core/target.js';
import { describeZxScreen, zx128Paging, zxScreenPlace } from '../../src/machines/zx/zx128-screen.js';
import { inspectPoint } from '../../src/ui/screen-inspect.js';

const PORT = ':/0/m_port_7ffd_data';
const RAM = ':ram/0/m_pointer';
const PAGE7 = 7 * 0x4000;

/** cpu bytes, the latch, and the RAM device's bytes; unset bytes read 0; `port: undefined` = no such item. */
function machine(port: number | undefined, cpu: Record<number, number>, ram: Record<number, number>) {
  const reads: Address[] = [];
  return {
    reads,
    readMemory: async (a: Address, length: number) => {
      reads.push(a);
      if (a.space === 'share' && a.bank === PORT) {
        if (port === undefined) throw notFound(`no memory share, region or save-state item tagged "${PORT}"`);
        return Uint8Array.of(port);
      }
      const bytes = a.space === 'share' && a.bank === RAM ? ram : a.space === 'cpu' ? cpu : {};
      return Uint8Array.from({ length }, (_, i) => bytes[a.offset + i] ?? 0);
    },
  };
}

// paper pixel (100, 77): bitmap offset $0D2C bit 3, attribute offset $192C; at 148,125 in MAME's 352x296 frame
const AT = [148, 125] as const;
const FRAME = { width: 352, height: 296 };

test('the latch decoded: which screen, which page at $C000, locked', () => {
  assert.deepEqual(zx128Paging(0x0f), { port: 0x0f, shadow: true, pageAtC000: 7, locked: false });
  assert.deepEqual(zx128Paging(0x28), { port: 0x28, shadow: true, pageAtC000: 0, locked: true });
  assert.deepEqual(zxScreenPlace(zx128Paging(0x0f)), { page: 7, cpuBase: 0xc000 });
  assert.deepEqual(zxScreenPlace(zx128Paging(0x08)), { page: 7 });
  assert.deepEqual(zxScreenPlace(zx128Paging(0x07)), { page: 5, cpuBase: 0x4000 });
  assert.equal(describeZxScreen(zx128Paging(0x0f)), 'shadow screen (page 7, $7FFD = $0F): at $C000');
  assert.equal(
    describeZxScreen(zx128Paging(0x28)),
    'shadow screen (page 7, $7FFD = $28, locked): not paged in (page 0 at $C000): RAM page 7 offsets',
  );
});

test('shadow screen paged in at $C000: CPU addresses, and the click opens the bitmap byte', async () => {
  const m = machine(0x0f, { 0xcd2c: 0x08, 0xd92c: 0x42, 0x4d2c: 0xff, 0x592c: 0x38 }, {});
  const r = await inspectPoint(m, 'spec128', ...AT, FRAME);
  assert.deepEqual(r.lines, [
    'pixel 148, 125',
    'cell 12, 9',
    'shadow screen (page 7, $7FFD = $0F): at $C000',
    'bitmap $CD2C = $08 (bit 3 ink)',
    'attribute $D92C = $42',
    'ink 2 (red), paper 0 (black), bright 1, flash 0',
  ]);
  assert.deepEqual(r.address, { space: 'cpu', offset: 0xcd2c });
});

test('shadow screen not paged in: RAM page 7 and offset, read from the RAM device, nothing to open', async () => {
  const m = machine(0x08, { 0xcd2c: 0xff, 0x4d2c: 0xff }, { [PAGE7 + 0x0d2c]: 0x08, [PAGE7 + 0x192c]: 0x02 });
  const r = await inspectPoint(m, 'spec128', ...AT, FRAME);
  assert.deepEqual(r.lines.slice(2), [
    'shadow screen (page 7, $7FFD = $08): not paged in (page 0 at $C000): RAM page 7 offsets',
    'bitmap page 7 + $0D2C = $08 (bit 3 ink)',
    'attribute page 7 + $192C = $02',
    'ink 2 (red), paper 0 (black), bright 0, flash 0',
  ]);
  assert.deepEqual(r.address, { space: 'share', bank: RAM, offset: PAGE7 + 0x0d2c }, 'the RAM page itself');
  assert.deepEqual(
    m.reads.filter((a) => a.bank === RAM).map((a) => a.offset),
    [PAGE7 + 0x0d2c, PAGE7 + 0x192c],
  );
});

test('normal screen on a 128K (page 7 at $C000 or not): $4000 addresses', async () => {
  const m = machine(0x07, { 0x4d2c: 0x08, 0x592c: 0x38 }, {});
  const r = await inspectPoint(m, 'specpls2', ...AT, FRAME);
  assert.equal(r.lines[2], 'normal screen (page 5, $7FFD = $07): at $4000');
  assert.equal(r.lines[3], 'bitmap $4D2C = $08 (bit 3 ink)');
  assert.deepEqual(r.address, { space: 'cpu', offset: 0x4d2c });
});

test('the latch unreadable, or a driver whose paging is not decoded: the selection is said to be unknown', async () => {
  const m = machine(undefined, { 0x4d2c: 0x08 }, {});
  const r = await inspectPoint(m, 'spec128', ...AT, FRAME);
  assert.match(
    r.lines[2],
    /^128K screen selection unknown \(\$7FFD not readable: no memory share.*\): page 5's bytes$/,
  );
  assert.equal(r.lines[3], 'bitmap $4D2C = $08 (bit 3 ink)');
  const plus3 = await inspectPoint(machine(0x0f, {}, {}), 'specpls3', ...AT, FRAME);
  assert.equal(plus3.lines[2], "specpls3: screen selection unknown (its paging is not decoded): page 5's bytes");
});

test('a 48K has one screen: no selection line, no latch read', async () => {
  const m = machine(0x0f, { 0x4d2c: 0x08 }, {});
  const r = await inspectPoint(m, 'spectrum', ...AT, FRAME);
  assert.equal(r.lines[2], 'bitmap $4D2C = $08 (bit 3 ink)');
  assert.ok(!m.reads.some((a) => a.space === 'share'));
});
