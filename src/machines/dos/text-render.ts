/**
 * Renders a decoded text screen to RGBA with the guest's own 8x8 BIOS font
 * (F000:FA6E for characters 0..127, the INT 1Fh table for 128..255), so no
 * font ships with us and the picture matches the guest's glyphs.
 */
import { TEXT_COLOURS } from './palette.js';
import type { TextScreen } from './video.js';

export const FONT_LOW_PHYSICAL = 0xffa6e;

export function renderText(screen: TextScreen, font: Uint8Array): { width: number; height: number; rgba: Buffer } {
  const width = screen.columns * 8;
  const height = screen.rows * 8;
  const rgba = Buffer.alloc(width * height * 4);
  for (let cell = 0; cell < screen.chars.length; cell++) {
    const ch = screen.chars[cell];
    const attr = screen.attributes[cell];
    const fg = TEXT_COLOURS[attr & 15];
    const bg = TEXT_COLOURS[(attr >> 4) & 7];
    const x0 = (cell % screen.columns) * 8;
    const y0 = Math.floor(cell / screen.columns) * 8;
    for (let y = 0; y < 8; y++) {
      const bits = font[ch * 8 + y] ?? 0;
      for (let x = 0; x < 8; x++) {
        const c = bits & (0x80 >> x) ? fg : bg;
        const i = ((y0 + y) * width + x0 + x) * 4;
        rgba[i] = c[0];
        rgba[i + 1] = c[1];
        rgba[i + 2] = c[2];
        rgba[i + 3] = 255;
      }
    }
  }
  return { width, height, rgba };
}
