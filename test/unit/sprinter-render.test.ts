// The Sprinter's picture decoded from VRAM bytes (src/machines/sprinter/render.ts): each kind of square the driver
// draws — 320-wide graphics (a byte a pixel pair), 640-wide (a nibble a pixel, high left), low-res 2x2, 80- and
// 40-column text with glyph and attribute, border and blank — at its place in the 736x288 frame, the HOLD shift,
// and the colours from VRAM's palette columns. Expected pens are worked out by hand from the mode-table layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME, renderPens, renderRgba, RESET_STATE } from '../../src/machines/sprinter/render.js';
import { VRAM_ROW, VRAM_SIZE } from '../../src/machines/sprinter/video.js';

/** Mode bytes of square (a, b) in mode page 0; `right` = the right half's (one VRAM row on). */
function setMode(vram: Uint8Array, a: number, b: number, bytes: number[], right = false): void {
  vram.set(bytes, (1 + 2 * a + (right ? 1 : 0)) * VRAM_ROW + 0x300 + 4 * b);
}

/** The pen at picture pixel (x, y): the picture starts at (48, 16) in the frame. */
const penAt = (pens: Uint16Array, x: number, y: number) => pens[(FRAME.top + y) * FRAME.width + FRAME.left + x];

test('320-wide graphics: palette × 256 + the byte, one byte for each pair of screen pixels', () => {
  const vram = new Uint8Array(VRAM_SIZE);
  // palette 1, 320 wide; source column (1 << 6) | (1 << 3) = 72, row (0x11 >> 3) << 3 = 16
  setMode(vram, 0, 0, [0x61, 0x11, 0]);
  vram[18 * VRAM_ROW + 72 + 2] = 0x07; // line 2, pixels 4-5
  vram[16 * VRAM_ROW + 72] = 0xc3; // line 0, pixels 0-1
  const pens = renderPens(vram);
  assert.equal(penAt(pens, 4, 2), 0x107);
  assert.equal(penAt(pens, 5, 2), 0x107);
  assert.equal(penAt(pens, 0, 0), 0x1c3);
  assert.equal(penAt(pens, 6, 2), 0x100);
});

test('640-wide graphics: a nibble a pixel, high nibble left; low-res squares double both ways', () => {
  const vram = new Uint8Array(VRAM_SIZE);
  setMode(vram, 0, 0, [0x41, 0x11, 0]); // palette 1, 640 wide
  vram[18 * VRAM_ROW + 72 + 2] = 0x7a;
  let pens = renderPens(vram);
  assert.deepEqual([penAt(pens, 4, 2), penAt(pens, 5, 2)], [0x107, 0x10a]);
  // low-res (m2 bit 2), quarter 3 (m2 bits 0-1): source column 72 + 4, row 16 + 4; each byte covers 2x2 of it
  setMode(vram, 0, 0, [0x41, 0x11, 0x07]);
  vram[(20 + 1) * VRAM_ROW + 76 + 1] = 0x5c; // lines 2-3, screen pixels 4-7
  pens = renderPens(vram);
  assert.deepEqual(
    [penAt(pens, 4, 2), penAt(pens, 5, 2), penAt(pens, 6, 3), penAt(pens, 7, 3)],
    [0x105, 0x10c, 0x105, 0x10c],
  );
});

test('text: 80 columns take two characters a square, 40 columns one, pens 0x400 + attribute (+0x100 ink, +0x200 flash)', () => {
  const vram = new Uint8Array(VRAM_SIZE);
  // square (1, 0): 80 columns (bit 5 clear); 'A' left with attribute row 5, 'B' right with attribute row 6
  setMode(vram, 1, 0, [0x10, 0x41, 5]);
  setMode(vram, 1, 0, [0x10, 0x42, 6], true);
  vram[0x41 << 10] = 0x80; // 'A' line 0: its first pixel
  vram[(0x42 << 10) | 1] = 0x01; // 'B' line 1: its last pixel
  vram[(5 << 10) | 0x18] = 0x2a;
  vram[(6 << 10) | 0x18] = 0x31;
  let pens = renderPens(vram);
  assert.deepEqual([penAt(pens, 16, 0), penAt(pens, 17, 0)], [0x52a, 0x42a]);
  assert.deepEqual([penAt(pens, 23, 1), penAt(pens, 24, 1)], [0x42a, 0x431]);
  assert.equal(penAt(pens, 31, 1), 0x531);
  assert.equal(renderPens(vram, { ...RESET_STATE, flash: true })[16 * FRAME.width + 48 + 16], 0x72a);
  // 40 columns (bit 5 set): one character over 16 screen pixels, each bit 2 wide
  setMode(vram, 1, 0, [0x30, 0x41, 5]);
  pens = renderPens(vram);
  assert.deepEqual([penAt(pens, 16, 0), penAt(pens, 17, 0), penAt(pens, 18, 0)], [0x52a, 0x52a, 0x42a]);
});

test('border squares take the border colour, blank ones pen 0x400; HOLD shifts the picture', () => {
  const vram = new Uint8Array(VRAM_SIZE);
  setMode(vram, 2, 0, [0xf0, 0, 0]);
  setMode(vram, 3, 0, [0xfc, 0, 0]);
  const pens = renderPens(vram, { ...RESET_STATE, border: 2 });
  assert.equal(penAt(pens, 32, 0), 0x412);
  assert.equal(penAt(pens, 48, 0), 0x400);
  // HOLD 0x76: 2 screen pixels right; 0x67: 1 line down
  const right = renderPens(vram, { ...RESET_STATE, border: 2, hold: 0x76 });
  assert.deepEqual([penAt(right, 33, 0), penAt(right, 34, 0)], [0, 0x412]);
  const down = renderPens(vram, { ...RESET_STATE, border: 2, hold: 0x67 });
  assert.deepEqual([penAt(down, 32, 0), penAt(down, 32, 1)], [0, 0x412]);
});

test("colours come from VRAM's palette columns: pen k × 256 + n is R, G, B at row n, column 0x3E0 + 4k", () => {
  const vram = new Uint8Array(VRAM_SIZE);
  setMode(vram, 0, 0, [0x61, 0x11, 0]);
  vram[16 * VRAM_ROW + 72] = 0x07;
  vram.set([0x11, 0x22, 0x33], 7 * VRAM_ROW + 0x3e0 + 4);
  const rgba = renderRgba(vram);
  const at = (FRAME.top * FRAME.width + FRAME.left) * 4;
  assert.deepEqual([...rgba.subarray(at, at + 4)], [0x11, 0x22, 0x33, 0xff]);
  assert.equal(rgba.length, FRAME.width * FRAME.height * 4);
  assert.throws(() => renderPens(new Uint8Array(100)), /Sprinter VRAM is 262144 bytes/);
});
