import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  VRAM_ROW,
  VRAM_SIZE,
  decodeMode,
  modeBytes,
  paletteColor,
  pixel320,
  pixel640,
  textCharAt,
  textScreen,
} from '../../src/machines/sprinter/video.js';
import { RetroError } from '../../src/core/errors.js';

function vram(): Uint8Array {
  return new Uint8Array(VRAM_SIZE);
}

test('mode bytes of square (a, b) sit at row 1 + 2a (+0x80 for mode page 1), column 0x300 + 4b', () => {
  const v = vram();
  v.set([0x12, 0x41, 0x07, 0x00], (1 + 2 * 3) * VRAM_ROW + 0x300 + 4 * 5);
  v.set([0x9a, 0x00, 0x00, 0x00], (1 + 2 * 3 + 0x80) * VRAM_ROW + 0x300 + 4 * 5);
  assert.deepEqual(modeBytes(v, 3, 5), [0x12, 0x41, 0x07, 0x00]);
  assert.deepEqual(modeBytes(v, 3, 5, 1), [0x9a, 0, 0, 0]);
});

// bit 5 as MAME 0.276 draws it (the open ROM's 0x10 squares show 80 columns: sprinter-open-rom.test.ts)
test('decodes graphics, text and border squares', () => {
  assert.deepEqual(decodeMode([0x8a, 0x2b, 0x04, 0]), {
    kind: 'graphics',
    palette: 2,
    width: 640,
    sourceColumn: (0xa << 6) | (3 << 3),
    sourceRow: 5 << 3,
    lowRes: true,
  });
  assert.equal((decodeMode([0x20, 0, 0, 0]) as { width: number }).width, 320);
  assert.deepEqual(decodeMode([0x33, 0x41, 0x07, 0]), {
    kind: 'text',
    char: 0x41,
    attrRow: 7,
    fontBlock: 3,
    columns: 40,
  });
  assert.deepEqual(decodeMode([0xfd, 0, 0, 0]), { kind: 'border', blank: true, interrupt: true });
});

test('palette colour n of palette k is R, G, B at row n, column 0x3E0 + 4k', () => {
  const v = vram();
  v.set([0x10, 0x20, 0x30], 7 * VRAM_ROW + 0x3e0 + 4 * 2);
  assert.deepEqual(paletteColor(v, 2, 7), { r: 0x10, g: 0x20, b: 0x30 });
  assert.throws(
    () => paletteColor(v, 4, 0),
    (e) => e instanceof RetroError && e.code === 'bad_request',
  );
});

test('text screen: the character at column c, row r is at VRAM row 1 + c, column 0x301 + 4r', () => {
  const v = vram();
  'DSS'.split('').forEach((ch, c) => {
    v[(1 + c) * VRAM_ROW + 0x301 + 4 * 2] = ch.charCodeAt(0);
  });
  v[(1 + 3 + 0x80) * VRAM_ROW + 0x301] = 0x41;
  assert.equal(textCharAt(v, 1, 2), 0x53);
  const lines = textScreen(v, 0, 80, 4);
  assert.deepEqual(lines, ['', '', 'DSS', '']);
  assert.equal(textScreen(v, 1, 80, 1)[0], '   A');
});

test('graphics pixels: one byte a pixel at 320, two nibbles (high left) at 640', () => {
  const v = vram();
  v[10 * VRAM_ROW + 33] = 0xa5;
  assert.equal(pixel320(v, 10, 33), 0xa5);
  assert.deepEqual([pixel640(v, 10, 33, false), pixel640(v, 10, 33, true)], [0xa, 0x5]);
  assert.throws(
    () => pixel320(new Uint8Array(10), 0, 0),
    (e) => e instanceof RetroError && e.code === 'bad_request',
  );
});
