/**
 * The built-in C64's character generator image (4 KiB, laid out like the
 * real one: set 1 upper case/graphics at $000, set 2 lower/upper case at
 * $800, codes $80-$FF reversed), built from this project's own glyph shapes.
 */
import { GLYPH_ROWS, GRAPHIC_ROWS } from '../../machines/glyphs.js';

/** a visible hatched box for graphics codes without a drawn shape */
const HATCHED = [0xff, 0x99, 0xa5, 0xc3, 0xc3, 0xa5, 0x99, 0xff];

function rowsToBytes(rows: string, shift: number): number[] {
  return rows.split('|').map((row) => {
    let byte = 0;
    for (let i = 0; i < row.length; i++) if (row[i] === '#') byte |= 0x80 >> (i + shift);
    return byte & 0xff;
  });
}

function textGlyph(ch: string): number[] {
  const rows = GLYPH_ROWS[ch];
  if (!rows) throw new Error(`no glyph for ${JSON.stringify(ch)}`);
  return rowsToBytes(rows, 1);
}

function graphicGlyph(code: number): number[] {
  const rows = GRAPHIC_ROWS[code];
  return rows ? rowsToBytes(rows, 0) : HATCHED;
}

/** The glyph of screen code 0-127 in a set. */
function glyph(set: 1 | 2, code: number): number[] {
  if (code === 0) return textGlyph('@');
  if (code <= 26) return textGlyph(String.fromCharCode((set === 1 ? 0x40 : 0x60) + code));
  if (code < 32) return textGlyph('[£]↑←'[code - 27]);
  if (code < 64) return textGlyph(String.fromCharCode(code));
  if (set === 2 && code >= 0x41 && code <= 0x5a) return textGlyph(String.fromCharCode(code));
  return graphicGlyph(code);
}

function build(): Uint8Array {
  const rom = new Uint8Array(0x1000);
  for (const set of [1, 2] as const) {
    const base = set === 1 ? 0 : 0x800;
    for (let code = 0; code < 128; code++) {
      const bytes = glyph(set, code);
      for (let row = 0; row < 8; row++) {
        rom[base + code * 8 + row] = bytes[row] ?? 0;
        rom[base + (code + 128) * 8 + row] = ~(bytes[row] ?? 0) & 0xff;
      }
    }
  }
  return rom;
}

export const CHAR_ROM = build();
