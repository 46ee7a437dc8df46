/**
 * The inspector's per-machine facts (ZX Spectrum, Sprinter, DOS text and mode
 * 13h) from memory laid out as the machines lay it out, and the click's
 * memory-view link. Addresses are checked against the hardware's own
 * formulas written out by hand for the chosen points.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Address } from '../../src/core/target.js';
import { dosPointAt } from '../../src/machines/dos/screen-cell.js';
import { sprinterPointAt } from '../../src/machines/sprinter/screen-cell.js';
import { zxAttribute, zxBitmapAddress, zxPointAt } from '../../src/machines/zx/screen-cell.js';
import { inspectPoint } from '../../src/ui/screen-inspect.js';
import { HEX_EDITOR, openMemory, type MemoryViewHost } from '../../src/ui/open-memory.js';

/** A reader over sparse memory per space; unset bytes read 0. */
function memory(bytes: Record<string, Record<number, number>>) {
  const reads: Address[] = [];
  return {
    reads,
    readMemory: async (a: Address, length: number) => {
      reads.push(a);
      const space = bytes[a.space] ?? {};
      return Uint8Array.from({ length }, (_, i) => space[a.offset + i] ?? 0);
    },
  };
}

test('ZX: display-file address interleaves y (bits 7-6, 2-0, 5-3), attribute per 8x8 cell', () => {
  assert.equal(zxBitmapAddress(0, 0), 0x4000);
  assert.equal(zxBitmapAddress(0, 1), 0x4100); // the next pixel row is 256 bytes on
  assert.equal(zxBitmapAddress(0, 8), 0x4020); // the next character row is 32 bytes on
  assert.equal(zxBitmapAddress(0, 64), 0x4800); // the middle third
  assert.equal(zxBitmapAddress(255, 191), 0x57ff);
  const p = zxPointAt(100, 77); // x 100 = byte 12, bit 3; y 77 = 01 001 101
  assert.deepEqual(p, { cell: { col: 12, row: 9 }, bitmapAddress: 0x4d2c, bit: 3, attributeAddress: 0x592c });
  assert.deepEqual(zxPointAt(256, 0), {});
  assert.deepEqual(zxAttribute(0xd6), { ink: 6, paper: 2, bright: true, flash: true });
});

test('ZX inspector: on MAME 352x296 the paper starts at 48,48; bitmap bit, ink/paper/bright/flash', async () => {
  const mem = memory({ cpu: { 0x4d2c: 0x08, 0x592c: 0x47 } }); // bit 3 set; white ink on black, bright
  const r = await inspectPoint(mem, 'spectrum', 148, 125, { width: 352, height: 296 });
  assert.deepEqual(r.lines, [
    'pixel 148, 125',
    'cell 12, 9',
    'bitmap $4D2C = $08 (bit 3 ink)',
    'attribute $592C = $47',
    'ink 7 (white), paper 0 (black), bright 1, flash 0',
  ]);
  assert.deepEqual(r.address, { space: 'cpu', offset: 0x4d2c });
  assert.deepEqual((await inspectPoint(mem, 'spec128', 10, 10, { width: 352, height: 296 })).lines, [
    'pixel 10, 10',
    'border',
  ]);
});

test('Sprinter: the square under the point, its mode bytes, and the glyph and attribute of a text pixel', async () => {
  assert.deepEqual(sprinterPointAt(0, 0), { square: { a: 0, b: 0 }, modeAddress: 1 * 1024 + 0x300 });
  // x 100 → square 6, y 50 → row 6: VRAM row 13, column #318
  assert.deepEqual(sprinterPointAt(100, 50), { square: { a: 6, b: 6 }, modeAddress: 13 * 1024 + 0x318 });
  assert.equal(sprinterPointAt(100, 50, 1).modeAddress, (13 + 0x80) * 1024 + 0x318);
  const at = 13 * 1024 + 0x318;
  // text, 80 columns (bit 5 clear), 'A', attribute row 5; x 100 is the left character's pixel 4, y 50 its line 2
  const glyph = (0x41 << 10) | 2;
  const mem = memory({ vram: { [at]: 0x10, [at + 1]: 0x41, [at + 2]: 0x05, [glyph]: 0x08, [(5 << 10) | 0x18]: 0x2a } });
  const r = await inspectPoint(mem, 'sprinter', 48 + 100, 16 + 50, { width: 736, height: 288 });
  assert.deepEqual(r.lines, [
    'pixel 148, 66',
    'square 6, 6',
    'mode VRAM $03718 = 10 41 05 00 (mode page 0)',
    "text 80 columns, character $41 'A', attribute row 5",
    'glyph VRAM $10402 = $08, bit 3: ink',
    'attribute VRAM $01418 = $2A',
  ]);
  assert.deepEqual(r.address, { space: 'vram', offset: at }, 'a click opens the mode bytes in VRAM');
  // the right character of an 80-column square has its mode bytes one VRAM row on: x 108 is its pixel 4
  const right = memory({ vram: { [at]: 0x10, [at + 1]: 0x41, [at + 1024]: 0x10, [at + 1025]: 0x42 } });
  const rr = await inspectPoint(right, 'sprinter', 48 + 108, 16 + 50, { width: 736, height: 288 });
  assert.equal(rr.lines[3], "text 80 columns, character $42 'B', attribute row 0");
  assert.equal(rr.lines[4], 'glyph VRAM $10802 = $00, bit 3: paper');
});

test('Sprinter: a graphics pixel names its VRAM byte (or nibble at 640) and the palette colour it picks', async () => {
  const at = 13 * 1024 + 0x318;
  // palette 1, 320 wide; source column (1 << 6) | (1 << 3) = 72, row 2 << 3 = 16; x 101 → byte 2, y 50 → line 2
  const pixelAt = 18 * 1024 + 72 + 2;
  const colour = 7 * 1024 + 0x3e0 + 4;
  const bytes = { [at + 1]: 0x11, [pixelAt]: 0x07, [colour]: 0x11, [colour + 1]: 0x22, [colour + 2]: 0x33 };
  const r = await inspectPoint(memory({ vram: { ...bytes, [at]: 0x61 } }), 'sprinter', 48 + 101, 16 + 50, {
    width: 736,
    height: 288,
  });
  assert.deepEqual(r.lines.slice(3), [
    'graphics 320 wide, palette 1, from VRAM row 16 column 72',
    'pixel VRAM $0484A = $07: colour 7 = #112233',
  ]);
  // 640 wide (bit 5 clear), palette 1: x 101 is odd, the low nibble
  const wide = await inspectPoint(memory({ vram: { ...bytes, [at]: 0x41 } }), 'sprinter', 48 + 101, 16 + 50, {
    width: 736,
    height: 288,
  });
  assert.equal(wide.lines[4], 'pixel VRAM $0484A = $07 (low nibble): colour 7 = #112233');
});

/** BDA bytes for a mode, columns, rows and page offset. */
function bda(mode: number, columns: number, rows: number, page = 0): Record<number, number> {
  return { 0x449: mode, 0x44a: columns, 0x44b: 0, 0x44e: page & 0xff, 0x44f: page >> 8, 0x484: rows - 1 };
}

test('DOS text: the cell from the frame scale, character and attribute at B800 + page', async () => {
  assert.deepEqual(dosPointAt(719, 399, 720, 400, { videoMode: 3, columns: 80, rows: 25, pageOffset: 0 }), {
    kind: 'text',
    col: 79,
    row: 24,
    address: 0xb8000 + (24 * 80 + 79) * 2,
  });
  const cell = 0xb8000 + 0x1000 + (3 * 80 + 10) * 2; // page 1
  const mem = memory({ cpu: { ...bda(3, 80, 25, 0x1000), [cell]: 0x41, [cell + 1]: 0x9e } });
  // 720x400: 9 pixels a column, 16 a row → column 10, row 3
  const r = await inspectPoint(mem, 'dos', 10 * 9 + 4, 3 * 16 + 8, { width: 720, height: 400 });
  assert.deepEqual(r.lines, [
    'pixel 94, 56',
    'cell 10, 3',
    "B800:11F4 = $41 'A'",
    'attribute $9E (yellow on blue, blinking)',
  ]);
  assert.deepEqual(r.address, { space: 'cpu', offset: cell });
  const mono = dosPointAt(0, 0, 720, 350, { videoMode: 7, columns: 80, rows: 25, pageOffset: 0 });
  assert.equal(mono.kind === 'text' && mono.address, 0xb0000);
});

test('DOS mode 13h: offset and palette index, the frame doubled or not; other modes say so', async () => {
  const mem = memory({ cpu: { ...bda(0x13, 40, 25), [0xa0000 + 100 * 320 + 200]: 42 } });
  for (const [w, h, x, y] of [
    [320, 200, 200, 100],
    [640, 400, 401, 201],
  ]) {
    const r = await inspectPoint(mem, 'dos', x, y, { width: w, height: h });
    assert.deepEqual(r.lines.slice(1), ['mode 13h 200, 100', 'A000:7DC8 = palette index 42']);
    assert.deepEqual(r.address, { space: 'cpu', offset: 0xa0000 + 32200 });
  }
  const planar = memory({ cpu: bda(0x12, 80, 30) });
  assert.deepEqual((await inspectPoint(planar, 'dos', 5, 5, { width: 640, height: 480 })).lines, [
    'pixel 5, 5',
    'video mode $12: no cell facts for it yet',
  ]);
});

test('a click opens the address in the hex editor over the debug session, else the built-in view', async () => {
  const calls: unknown[] = [];
  const host = (type: string | undefined, editor: boolean, fails = false): MemoryViewHost => ({
    session: () => (type ? { id: 'dbg-1', type } : undefined),
    hasHexEditor: () => editor,
    openWith: async (uri, viewType) => {
      calls.push([uri, viewType]);
      if (fails) throw new Error('no such editor');
    },
    showInformation: (text) => calls.push(text),
    openBuiltIn: (reference) => calls.push(['built-in', reference]),
  });
  assert.equal(await openMemory(host('retro', true), '0x4CD'), 'opened');
  assert.deepEqual(calls.pop(), [
    { scheme: 'vscode-debug-memory', authority: 'dbg-1', path: '/0x4CD/memory.bin', query: 'range=0:256' },
    HEX_EDITOR,
  ]);
  assert.equal(await openMemory(host('retro', false), '0x4CD'), 'opened');
  assert.deepEqual(calls.pop(), ['built-in', '0x4CD'], 'without the hex editor: the built-in hex view');
  assert.equal(calls.length, 0);
  assert.equal(await openMemory(host(undefined, true), '0xB8000'), 'told');
  assert.match(String(calls.pop()), /\$B8000: start a Retro Debug session/);
  assert.equal(await openMemory(host('retro', true, true), '16'), 'told');
  assert.match(String(calls.pop()), /\$10: the hex editor did not open \(no such editor\)/);
  assert.equal(calls.length, 1, 'the failed attempt');
  calls.length = 0;
  assert.equal(await openMemory(host('retro', true), 'vram:0x3718'), 'opened', 'another space: its own reference');
  assert.deepEqual(calls.pop(), [
    { scheme: 'vscode-debug-memory', authority: 'dbg-1', path: '/vram%3A0x3718/memory.bin', query: 'range=0:256' },
    HEX_EDITOR,
  ]);
  assert.equal(await openMemory(host('retro', false), 'vram:0x3718'), 'opened');
  assert.deepEqual(calls.pop(), ['built-in', 'vram:0x3718']);
  assert.equal(await openMemory(host('retro', true), 'main'), 'told');
  assert.match(String(calls.pop()), /"main" is not a memory address/);
  assert.equal(calls.length, 0, 'a bad reference opens nothing');
});
