/**
 * Sprinter video from VRAM bytes (256 rows × 1024 bytes): the per-square mode
 * table at columns #300-#39F, palettes at #3E0-#3FF, text squares and
 * 320/640-wide graphics. Pure functions on a Uint8Array of the :vram share.
 */
import { badRequest } from '../../core/errors.js';

export const VRAM_ROW = 1024;
export const VRAM_SIZE = 256 * VRAM_ROW;
/** VRAM column of the mode table (4 bytes per 8×8 square) and of the palettes (R, G, B per colour row). */
export const MODE_COLUMN = 0x300;
export const PALETTE_COLUMN = 0x3e0;

/** The video modes DSS's SETVMOD (RST #10, C = #50) takes (SDK video.h): code, kind, size and colours. */
export const SETVMOD_MODES: Record<
  number,
  { kind: 'text' | 'graphics'; width: number; height: number; colours: number }
> = {
  0x02: { kind: 'text', width: 40, height: 32, colours: 16 },
  0x03: { kind: 'text', width: 80, height: 32, colours: 16 },
  0x80: { kind: 'graphics', width: 320, height: 256, colours: 16 },
  0x81: { kind: 'graphics', width: 320, height: 256, colours: 256 },
  0x82: { kind: 'graphics', width: 640, height: 256, colours: 16 },
};

/** How the hardware shows a screen: per 8×8 square, its mode bytes (decodeMode reads them). */
export const SQUARE_MODES = {
  squares: { columns: 56, visible_columns: 40, rows: 40, visible_rows: 32, screen_pixels_wide: 16, lines: 8 },
  mode_table: 'VRAM row 1 + 2a + #80 × PM (RGMOD bit 0), column #300 + 4b, for square column a, row b',
  mode0: [
    'bit 4 = 0: graphics; bits 7-6 palette 0-3; bit 5: 320 wide (8 bpp) else 640 (4 bpp, high nibble left)',
    'graphics source: column (m0[3:0] << 6) | (m1[2:0] << 3), row m1[7:3] << 3; m2 bit 2: low-res 2×2',
    'bit 4 = 1: text; m1 = character, m2 = attribute row, bits 3-0 font block, bit 5: 40 columns else 80',
    'bits 7-4 = 1111: border/sync; bits 3-2 = 11 blank; bit 0: INT at the end of that square row',
  ],
  palettes: 'colour n of palette k at VRAM row n, column #3E0 + 4k: R, G, B',
  text: 'character at column c, row r: VRAM row 1 + c + #80 × PM, column #301 + 4r',
  picture: '640 × 256 inside a visible 736 × 288 frame, starting at (48, 16); 320-mode pixels are 2 wide',
} as const;

export type SquareMode =
  | { kind: 'graphics'; palette: number; width: 320 | 640; sourceColumn: number; sourceRow: number; lowRes: boolean }
  | { kind: 'text'; char: number; attrRow: number; fontBlock: number; columns: 40 | 80 }
  | { kind: 'border'; blank: boolean; interrupt: boolean };

function checkVram(vram: Uint8Array): void {
  if (vram.length < VRAM_SIZE) throw badRequest(`Sprinter VRAM is ${VRAM_SIZE} bytes; got ${vram.length}.`);
}

/** The 4 mode bytes of square (a = column 0..55, b = row 0..39) in mode page pm (RGMOD bit 0). */
export function modeBytes(
  vram: Uint8Array,
  a: number,
  b: number,
  pm: 0 | 1 = 0,
  rightHalf = false,
): [number, number, number, number] {
  checkVram(vram);
  const row = 1 + 2 * a + 0x80 * pm + (rightHalf ? 1 : 0);
  const at = row * VRAM_ROW + MODE_COLUMN + 4 * b;
  return [vram[at], vram[at + 1], vram[at + 2], vram[at + 3]];
}

export function decodeMode([m0, m1, m2]: readonly number[]): SquareMode {
  if ((m0 & 0xf0) === 0xf0) return { kind: 'border', blank: (m0 & 0x0c) === 0x0c, interrupt: (m0 & 1) === 1 };
  // bit 5 as MAME draws it: set = 16-pixel characters (40 columns) / one byte a pixel pair (320 wide)
  if (m0 & 0x10) return { kind: 'text', char: m1, attrRow: m2, fontBlock: m0 & 0x0f, columns: m0 & 0x20 ? 40 : 80 };
  return {
    kind: 'graphics',
    palette: (m0 >> 6) & 3,
    width: m0 & 0x20 ? 320 : 640,
    sourceColumn: ((m0 & 0x0f) << 6) | ((m1 & 0x07) << 3),
    sourceRow: (m1 >> 3) << 3,
    lowRes: (m2 & 0x04) !== 0,
  };
}

/** Colour n of palette k: R, G, B at row n, columns #3E0 + 4k. */
export function paletteColor(vram: Uint8Array, k: number, n: number): { r: number; g: number; b: number } {
  checkVram(vram);
  if (k < 0 || k > 3 || n < 0 || n > 255)
    throw badRequest(`Palette ${k} colour ${n} does not exist (palettes 0..3, colours 0..255).`);
  const at = n * VRAM_ROW + PALETTE_COLUMN + 4 * k;
  return { r: vram[at], g: vram[at + 1], b: vram[at + 2] };
}

/** Character code shown at text column c (0..79), row r (0..31). */
export function textCharAt(vram: Uint8Array, c: number, r: number, pm: 0 | 1 = 0): number {
  checkVram(vram);
  return vram[(1 + c + 0x80 * pm) * VRAM_ROW + MODE_COLUMN + 1 + 4 * r];
}

/** The whole text screen as lines (non-printable bytes as '.'), trailing blanks trimmed. */
export function textScreen(vram: Uint8Array, pm: 0 | 1 = 0, columns = 80, rows = 32): string[] {
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = '';
    for (let c = 0; c < columns; c++) {
      const ch = textCharAt(vram, c, r, pm);
      line += ch >= 0x20 && ch < 0x7f ? String.fromCharCode(ch) : ch === 0 ? ' ' : '.';
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/** Colour index of pixel x of a 320-wide square row read from (row, column): one byte a pixel. */
export function pixel320(vram: Uint8Array, row: number, column: number): number {
  checkVram(vram);
  return vram[row * VRAM_ROW + column];
}

/** 640-wide mode: two 4-bit pixels a byte, high nibble on the left. */
export function pixel640(vram: Uint8Array, row: number, column: number, right: boolean): number {
  const byte = pixel320(vram, row, column);
  return right ? byte & 0x0f : byte >> 4;
}
