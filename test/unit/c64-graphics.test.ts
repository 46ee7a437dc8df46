/** VIC-II decoders on synthetic bytes with known pixels, the indexed PNG, palettes and geometry caps. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import type { RetroError } from '../../src/core/errors.js';
import {
  decodeCharScreen,
  decodeCharset,
  decodeHiresBitmap,
  decodeMulticolorBitmap,
  decodeSprites,
  type IndexedImage,
} from '../../src/machines/c64/vic-graphics.js';
import { encodeIndexedPng, parsePalette } from '../../src/core/indexed-png.js';
import { PEPTO_PAL } from '../../src/machines/c64/pepto-palette.js';

const px = (img: IndexedImage, x: number, y: number) => img.pixels[y * img.width + x];
const row = (img: IndexedImage, y: number, x0 = 0, n = img.width) =>
  Array.from(img.pixels.subarray(y * img.width + x0, y * img.width + x0 + n));
const code = (e: unknown) => (e as RetroError).code;
const colours = { background: 0, foreground: 1, multicolor1: 2, multicolor2: 3 };

test('hires bitmap: set bits take the screen high nybble, clear bits the low nybble; cells are 8 bytes', () => {
  const bitmap = new Uint8Array(16);
  bitmap[0] = 0b10000001; // cell 0, line 0
  bitmap[8 + 7] = 0xf0; // cell 1, line 7
  const img = decodeHiresBitmap({ columns: 2, rows: 1 }, bitmap, Uint8Array.from([0x52, 0x7e]));
  assert.equal(img.width, 16);
  assert.equal(img.height, 8);
  assert.deepEqual(row(img, 0), [5, 2, 2, 2, 2, 2, 2, 5, 14, 14, 14, 14, 14, 14, 14, 14]);
  assert.deepEqual(row(img, 7), [2, 2, 2, 2, 2, 2, 2, 2, 7, 7, 7, 7, 14, 14, 14, 14]);
});

test('multicolor bitmap: pairs 00/01/10/11 → background, screen high, screen low, colour RAM; pixels two wide', () => {
  const bitmap = new Uint8Array(8);
  bitmap[0] = 0b00011011;
  const img = decodeMulticolorBitmap(
    { columns: 1, rows: 1, background: 6 },
    bitmap,
    Uint8Array.from([0x9a]),
    Uint8Array.from([0xf5]),
  );
  assert.deepEqual(row(img, 0), [6, 6, 9, 9, 10, 10, 5, 5]);
  assert.deepEqual(row(img, 1), Array(8).fill(6));
});

test('charset sheet: glyph order, sheet columns, hires and multicolor colours, blank cells in background', () => {
  const cs = new Uint8Array(3 * 8);
  cs[0] = 0x80;
  cs[8 + 1] = 0x01;
  cs[16] = 0b01101100; // glyph 2 multicolor pairs 01 10 11 00
  const img = decodeCharset({ ...colours, background: 11, count: 3, sheetColumns: 2, multicolor: false }, cs);
  assert.equal(img.width, 16);
  assert.equal(img.height, 16);
  assert.equal(px(img, 0, 0), 1);
  assert.equal(px(img, 1, 0), 11);
  assert.equal(px(img, 15, 1), 1, 'glyph 1 is the second column');
  assert.deepEqual(row(img, 8, 0, 8), [11, 1, 1, 11, 1, 1, 11, 11], 'glyph 2 starts the second sheet row');
  assert.deepEqual(row(img, 8, 8, 8), Array(8).fill(11), 'the unused sheet cell is background');
  const mc = decodeCharset({ ...colours, background: 11, count: 3, sheetColumns: 4, multicolor: true }, cs);
  assert.equal(mc.width, 24, 'a sheet is never wider than the glyph count');
  assert.deepEqual(row(mc, 0, 16, 8), [2, 2, 3, 3, 1, 1, 11, 11]);
});

test('char screen: colour RAM per cell; multicolor only where colour bit 3 is set; needs glyphs up to the highest code', () => {
  const cs = new Uint8Array(3 * 8);
  cs[8] = 0b11000000;
  cs[16] = 0b01101100;
  const screen = Uint8Array.from([1, 2, 2]);
  const color = Uint8Array.from([0x07, 0x0d, 0x05]);
  const hires = decodeCharScreen({ ...colours, columns: 3, rows: 1, multicolor: false }, screen, cs, color);
  assert.deepEqual(row(hires, 0, 0, 8), [7, 7, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(row(hires, 0, 16, 8), [0, 5, 5, 0, 5, 5, 0, 0]);
  const mc = decodeCharScreen({ ...colours, columns: 3, rows: 1, multicolor: true }, screen, cs, color);
  assert.deepEqual(
    row(mc, 0, 8, 8),
    [2, 2, 3, 3, 5, 5, 0, 0],
    'cell 1: colour $D has bit 3 → multicolor, 11 = colour & 7',
  );
  assert.deepEqual(row(mc, 0, 16, 8), [0, 5, 5, 0, 5, 5, 0, 0], 'cell 2: colour 5 has no bit 3 → hires');
  assert.deepEqual(
    row(
      decodeCharScreen(
        { ...colours, foreground: 14, columns: 1, rows: 1, multicolor: false },
        Uint8Array.from([1]),
        cs,
      ),
      0,
      0,
      8,
    ),
    [14, 14, 0, 0, 0, 0, 0, 0],
    'without colour RAM the foreground is used',
  );
  assert.throws(
    () => decodeCharScreen({ ...colours, columns: 3, rows: 1, multicolor: false }, Uint8Array.from([1, 2, 3]), cs),
    (e) => code(e) === 'bad_request' && /needs 32/.test((e as Error).message),
  );
  assert.throws(
    () => decodeCharScreen({ ...colours, columns: 3, rows: 1, multicolor: true }, screen, cs),
    (e) => code(e) === 'bad_request',
  );
});

test('sprites: 24x21 hires, multicolor pairs, stride 64 or 63, sheet layout', () => {
  const data = new Uint8Array(64 * 2);
  data[0] = 0x80;
  data[62] = 0x01; // sprite 0: top-left and bottom-right pixels
  data[64] = 0b01101100; // sprite 1 line 0
  const img = decodeSprites(
    { ...colours, background: 6, foreground: 7, count: 2, stride: 64, sheetColumns: 8, multicolor: false },
    data,
  );
  assert.equal(img.width, 48);
  assert.equal(img.height, 21);
  assert.equal(px(img, 0, 0), 7);
  assert.equal(px(img, 1, 0), 6);
  assert.equal(px(img, 23, 20), 7);
  const mc = decodeSprites(
    { ...colours, background: 6, foreground: 7, count: 2, stride: 64, sheetColumns: 1, multicolor: true },
    data,
  );
  assert.equal(mc.width, 24);
  assert.equal(mc.height, 42);
  assert.deepEqual(
    row(mc, 21, 0, 8),
    [2, 2, 7, 7, 3, 3, 6, 6],
    'multicolor: 01 $D025, 10 sprite colour, 11 $D026, 00 transparent',
  );
  const packed = new Uint8Array(63 * 2);
  packed[63] = 0x80;
  assert.equal(
    px(decodeSprites({ ...colours, count: 2, stride: 63, sheetColumns: 2, multicolor: false }, packed), 24, 0),
    1,
    'stride 63: sprite 1 starts at byte 63',
  );
  assert.throws(
    () => decodeSprites({ ...colours, count: 2, stride: 64, sheetColumns: 2, multicolor: false }, new Uint8Array(126)),
    (e) => code(e) === 'bad_request' && /needs 127/.test((e as Error).message),
  );
});

test('geometry caps: 64 columns, 64 rows, 2048 cells, 256 glyphs/sprites, 64 sheet columns', () => {
  const big = new Uint8Array(64 * 64 * 8);
  assert.throws(
    () => decodeHiresBitmap({ columns: 65, rows: 1 }, big, big),
    (e) => code(e) === 'bad_request',
  );
  assert.throws(
    () => decodeHiresBitmap({ columns: 1, rows: 65 }, big, big),
    (e) => code(e) === 'bad_request',
  );
  assert.throws(
    () => decodeHiresBitmap({ columns: 64, rows: 33 }, big, big),
    (e) => code(e) === 'too_large',
  );
  assert.equal(decodeHiresBitmap({ columns: 64, rows: 32 }, big, big).width, 512);
  assert.throws(
    () => decodeCharset({ ...colours, count: 257, sheetColumns: 16, multicolor: false }, big),
    (e) => code(e) === 'bad_request',
  );
  assert.throws(
    () => decodeCharset({ ...colours, count: 16, sheetColumns: 65, multicolor: false }, big),
    (e) => code(e) === 'bad_request',
  );
  assert.throws(
    () => decodeSprites({ ...colours, count: 257, stride: 64, sheetColumns: 8, multicolor: false }, big),
    (e) => code(e) === 'bad_request',
  );
});

test('indexed PNG: palette-indexed, Pepto PAL colours, short palettes extended with black and reported', () => {
  const img: IndexedImage = { width: 3, height: 2, pixels: Uint8Array.from([0, 1, 2, 14, 6, 1]) };
  const { png, used_indices, unmapped_indices, plte_entries } = encodeIndexedPng(img, PEPTO_PAL);
  assert.equal(png[25], 3, 'colour type 3 (palette)');
  assert.deepEqual(used_indices, [0, 1, 2, 6, 14]);
  assert.deepEqual(unmapped_indices, []);
  assert.equal(plte_entries, 16);
  const decoded = PNG.sync.read(png);
  const rgb = (i: number) => Array.from(decoded.data.subarray(i * 4, i * 4 + 3));
  assert.deepEqual(rgb(0), [0, 0, 0]);
  assert.deepEqual(rgb(1), [0xff, 0xff, 0xff]);
  assert.deepEqual(rgb(2), [0x68, 0x37, 0x2b]);
  assert.deepEqual(rgb(3), [0x6c, 0x5e, 0xb5]);
  const short = encodeIndexedPng(img, parsePalette(['#102030', [1, 2, 3]]));
  assert.deepEqual(short.unmapped_indices, [2, 6, 14]);
  assert.equal(short.plte_entries, 15);
  const d2 = PNG.sync.read(short.png);
  assert.deepEqual(Array.from(d2.data.subarray(0, 3)), [0x10, 0x20, 0x30]);
  assert.deepEqual(Array.from(d2.data.subarray(4, 7)), [1, 2, 3]);
  assert.deepEqual(Array.from(d2.data.subarray(8, 11)), [0, 0, 0], 'index 2 past the palette is black');
});

test('palette entries that are not colours are refused, naming the entry', () => {
  for (const bad of ['red', '#12345', '#1234567', [1, 2], [0, 0, 256], [0.5, 0, 0], null, 7]) {
    assert.throws(
      () => parsePalette(['#000000', bad]),
      (e) => code(e) === 'bad_request' && /Palette entry 1/.test((e as Error).message),
      JSON.stringify(bad),
    );
  }
  assert.throws(
    () => parsePalette([]),
    (e) => code(e) === 'bad_request',
  );
});
