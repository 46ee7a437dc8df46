/**
 * Renders what the built-in C64's VIC-II shows into VICE's debug-buffer
 * geometry, drawn where x64sc r46200 draws it: 504x312, the inner 320x200 at
 * 136,50 and the visible 384x272 at 104,15 (borders 35 above, 37 below), the
 * rest 0, one palette index a pixel. DISPLAY is what VICE *reports* for it,
 * Y offset 51 (it centres the 272 lines as 36/36), so the built-in answers
 * like a real VICE and a client that trusts the report is caught by tests.
 * Modes: standard, multicolour and extended-background text; hires and
 * multicolour bitmap. Not drawn: sprites, fine scrolling, 38/24 borders.
 */
import type { C64Bus } from './c64-bus.js';

/** What the built-in's DISPLAY_GET reports, as x64sc r46200 does (innerY one row below the picture). */
export const DISPLAY = { width: 504, height: 312, innerX: 136, innerY: 51, innerWidth: 320, innerHeight: 200 } as const;
/** Where the inner area really is in the buffer. */
export const DRAWN_INNER = { x: 136, y: 50, width: 320, height: 200 } as const;
/** The normally visible area in the buffer (the rest is 0). */
export const VISIBLE = { x: 104, y: 15, width: 384, height: 272 } as const;

export function renderDisplay(bus: C64Bus, out: Buffer = Buffer.alloc(DISPLAY.width * DISPLAY.height)): Buffer {
  const { width } = DISPLAY;
  out.fill(0);
  const vic = bus.vic;
  const border = vic[0x20] & 0x0f;
  for (let y = VISIBLE.y; y < VISIBLE.y + VISIBLE.height; y++)
    out.fill(border, y * width + VISIBLE.x, y * width + VISIBLE.x + VISIBLE.width);
  if (!(vic[0x11] & 0x10)) return out; // display disabled: border only

  const ecm = (vic[0x11] & 0x40) !== 0;
  const bmm = (vic[0x11] & 0x20) !== 0;
  const mcm = (vic[0x16] & 0x10) !== 0;
  const screenBase = ((vic[0x18] >> 4) & 0x0f) * 0x400;
  const charBase = ((vic[0x18] >> 1) & 0x07) * 0x800;
  const bitmapBase = vic[0x18] & 0x08 ? 0x2000 : 0;
  const bg = [vic[0x21] & 15, vic[0x22] & 15, vic[0x23] & 15, vic[0x24] & 15];

  for (let row = 0; row < 25; row++) {
    for (let col = 0; col < 40; col++) {
      const cell = row * 40 + col;
      const code = bus.vicRead(screenBase + cell);
      const colour = bus.colorRam[cell] & 0x0f;
      for (let line = 0; line < 8; line++) {
        const at = (DRAWN_INNER.y + row * 8 + line) * width + DRAWN_INNER.x + col * 8;
        if (bmm) {
          const bits = bus.vicRead(bitmapBase + cell * 8 + line);
          if (mcm) pairs(out, at, bits, [bg[0], code >> 4, code & 15, colour]);
          else singles(out, at, bits, code >> 4, code & 15);
          continue;
        }
        const glyphCode = ecm ? code & 0x3f : code;
        const bits = bus.vicRead(charBase + glyphCode * 8 + line);
        if (ecm) singles(out, at, bits, colour, bg[code >> 6]);
        else if (mcm && colour & 8) pairs(out, at, bits, [bg[0], bg[1], bg[2], colour & 7]);
        else singles(out, at, bits, colour, bg[0]);
      }
    }
  }
  return out;
}

function singles(out: Buffer, at: number, bits: number, fg: number, bg: number): void {
  for (let b = 0; b < 8; b++) out[at + b] = bits & (0x80 >> b) ? fg : bg;
}

function pairs(out: Buffer, at: number, bits: number, colours: number[]): void {
  for (let b = 0; b < 4; b++) {
    const c = colours[(bits >> (6 - b * 2)) & 3];
    out[at + b * 2] = c;
    out[at + b * 2 + 1] = c;
  }
}
