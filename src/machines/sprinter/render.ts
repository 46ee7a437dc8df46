/**
 * The Sprinter's picture from VRAM, as MAME's sprinter driver draws it (screen_update: the graphics squares, then
 * the text squares): 736 x 288 pens, with the 640 x 256 picture at (48, 16). A pen is `palette × 256 + index` for
 * graphics and 0x400 + … for text (paper 0x400, ink 0x500, flash 0x600/0x700, + attribute); every pen's colour is
 * in VRAM too: pen k × 256 + n is R, G, B at row n, column 0x3E0 + 4k. Pure.
 */
import { MODE_COLUMN, PALETTE_COLUMN, VRAM_ROW, VRAM_SIZE } from './video.js';
import { badRequest } from '../../core/errors.js';

export const FRAME = { width: 736, height: 288, left: 48, top: 16 } as const;
const LINE = 896;
const LINES = 320;

export interface RenderState {
  /** RGMOD bit 0: which mode table page */
  pm: 0 | 1;
  /** border colour 0-7 (port 0xFE) */
  border: number;
  /** HOLD (port 0xCB): the picture's shift; 0x77 = none */
  hold: number;
  /** 7FFD bit 3 (selects the font half) */
  pn3: 0 | 1;
  /** the flash phase (frame counter bit 4) */
  flash: boolean;
}

export const RESET_STATE: RenderState = { pm: 0, border: 0, hold: 0x77, pn3: 0, flash: false };

/** Pens of the whole visible frame, row-major. */
export function renderPens(vram: Uint8Array, state: RenderState = RESET_STATE): Uint16Array {
  if (vram.length < VRAM_SIZE) throw badRequest(`Sprinter VRAM is ${VRAM_SIZE} bytes; got ${vram.length}.`);
  const out = new Uint16Array(FRAME.width * FRAME.height);
  const dy = 7 - (state.hold >> 4);
  const dx = (7 - (state.hold & 0x0f)) * 2;
  for (let y = 0; y < FRAME.height; y++) {
    const b8 = (LINES + y - FRAME.top - dy) % LINES;
    for (let x = 0; x < FRAME.width; x++) {
      const a16 = (LINE + x - FRAME.left - dx) % LINE;
      const left = (1 + (a16 >> 4) * 2 + 0x80 * state.pm) * VRAM_ROW + MODE_COLUMN + (b8 >> 3) * 4;
      const m0 = vram[left];
      out[y * FRAME.width + x] = m0 & 0x10 ? textPen(vram, left, a16, b8, state) : graphicsPen(vram, left, a16, b8);
    }
  }
  return out;
}

function graphicsPen(vram: Uint8Array, at: number, a16: number, b8: number): number {
  const [m0, m1, m2] = [vram[at], vram[at + 1], vram[at + 2]];
  const color = vram[graphicsByte(m0, m1, m2, a16, b8)];
  // bit 5: one byte a pixel pair (320 wide, 256 colours); else a nibble a pixel (640 wide), high nibble left
  return ((m0 >> 6) << 8) + (m0 & 0x20 ? color : a16 & 1 ? color & 0x0f : color >> 4);
}

/**
 * The VRAM address of the byte that colours pixel (a16 = x in the 896-pixel line, b8 = line) of a graphics square
 * with mode bytes m0..m2: its source column and row, halved again in low-res (2x2) squares.
 */
export function graphicsByte(m0: number, m1: number, m2: number, a16: number, b8: number): number {
  const lowRes = (m2 >> 2) & 1;
  let column = ((m0 & 0x0f) << 6) | ((m1 & 7) << 3);
  let row = (m1 >> 3) << 3;
  if (lowRes) {
    column += 4 * (m2 & 1);
    row += 4 * ((m2 >> 1) & 1);
  }
  return (row + ((b8 & 7) >> lowRes)) * VRAM_ROW + column + ((a16 & 15) >> (1 + lowRes));
}

/** The font's VRAM offset for a text square (mode byte 0's block, 7FFD bit 3). */
const fontOf = (m0: number, pn3: number) => ((m0 & 0x0f) << 6) | (pn3 << 5);

/** VRAM address of character m1's glyph byte for line b8 in a text square with mode byte m0. */
export function glyphByte(m0: number, m1: number, b8: number, pn3: 0 | 1 = 0): number {
  return (m1 << 10) | fontOf(m0, pn3) | ((m0 >> 6) << 3) | (b8 & 7);
}

/** VRAM address of the attribute byte (its pens' low bits) of attribute row m2 in a text square. */
export function attributeByte(m0: number, m2: number, pn3: 0 | 1 = 0): number {
  return (m2 << 10) | fontOf(m0, pn3) | 0x18 | (m0 >> 6);
}

function textPen(vram: Uint8Array, left: number, a16: number, b8: number, state: RenderState): number {
  // without bit 5 a square holds two 8-pixel characters: the right one's bytes are in the next VRAM row
  const at = !(vram[left] & 0x20) && (a16 & 15) >= 8 ? left + VRAM_ROW : left;
  const [m0, m1, m2] = [vram[at], vram[at + 1], vram[at + 2]];
  if ((m0 & 0xfc) === 0xfc) return 0x400; // blank
  if (m0 >> 5 === 7) return (m0 & 0x0c) === 0x0c ? 0x400 : 0x400 | (state.border << 3) | state.border;
  const attr = vram[attributeByte(m0, m2, state.pn3)];
  const glyph = vram[glyphByte(m0, m1, b8, state.pn3)];
  const bit = 0x80 >> ((a16 >> ((m0 >> 5) & 1)) & 7);
  return attr + 0x400 + (glyph & bit ? 0x100 : 0) + (state.flash ? 0x200 : 0);
}

/** A pen's colour from VRAM's palette columns. */
export function penRgb(vram: Uint8Array, pen: number): [number, number, number] {
  const at = (pen & 0xff) * VRAM_ROW + PALETTE_COLUMN + 4 * (pen >> 8);
  return [vram[at], vram[at + 1], vram[at + 2]];
}

/** The frame as RGBA. */
export function renderRgba(vram: Uint8Array, state: RenderState = RESET_STATE): Buffer {
  const pens = renderPens(vram, state);
  const rgba = Buffer.alloc(pens.length * 4);
  pens.forEach((pen, i) => {
    const [r, g, b] = penRgb(vram, pen);
    rgba[i * 4] = r;
    rgba[i * 4 + 1] = g;
    rgba[i * 4 + 2] = b;
    rgba[i * 4 + 3] = 0xff;
  });
  return rgba;
}
