/**
 * Every common BIOS video mode decoded from the emulator's VGA buffer
 * (`vga.mem.linear`, 4 bytes = planes 0..3 per VGA address; measured on
 * DOSBox 0.74 and DOSBox-X):
 * - CGA 4/2-colour (04h/05h/06h): B800 bytes, even lines at 0, odd at 2000h,
 *   stored like text (stride 2 or the odd/even stride 8 of DOSBox-X);
 * - EGA/VGA planar 16-colour (0Dh/0Eh/10h/12h): address a, plane p at 4a + p;
 * - 256 colours: chain-4 mode 13h (CPU offset o at 4(o & ~3) + (o & 3)) or
 *   unchained Mode X (plane x & 3 at 4(start + y·80 + x/4) + (x & 3));
 * - text: cells through the font (plane 2: glyph c row r at VGA address 32c + r).
 * Every decoder returns one pixel value per pixel: the index the guest wrote
 * (CGA 0..3, planar 0..15, 0..255, text: the attribute's colour 0..15).
 */
import { textIndex, type TextStride } from './video.js';

export type ModeKind = 'cga' | 'planar' | 'vga256' | 'text';

export interface ModeGeometry {
  mode: number;
  kind: ModeKind;
  width: number;
  height: number;
  /** bits per pixel in CGA modes */
  bpp?: 1 | 2;
  /** bytes per scan line in planar modes */
  bytesPerRow?: number;
  /** what people call it */
  name: string;
}

const MODES: ModeGeometry[] = [
  { mode: 0x04, kind: 'cga', width: 320, height: 200, bpp: 2, name: 'CGA 320x200x4' },
  { mode: 0x05, kind: 'cga', width: 320, height: 200, bpp: 2, name: 'CGA 320x200x4 (grey)' },
  { mode: 0x06, kind: 'cga', width: 640, height: 200, bpp: 1, name: 'CGA 640x200x2' },
  { mode: 0x0d, kind: 'planar', width: 320, height: 200, bytesPerRow: 40, name: 'EGA 320x200x16' },
  { mode: 0x0e, kind: 'planar', width: 640, height: 200, bytesPerRow: 80, name: 'EGA 640x200x16' },
  { mode: 0x10, kind: 'planar', width: 640, height: 350, bytesPerRow: 80, name: 'EGA 640x350x16' },
  { mode: 0x12, kind: 'planar', width: 640, height: 480, bytesPerRow: 80, name: 'VGA 640x480x16' },
  { mode: 0x13, kind: 'vga256', width: 320, height: 200, name: 'VGA 320x200x256' },
];

/** Geometry of a graphics mode, or of a text mode with its BDA size and character height. */
export function modeGeometry(
  mode: number,
  text?: { columns: number; rows: number; charHeight: number },
): ModeGeometry | undefined {
  if ((mode <= 3 || mode === 7) && text)
    return {
      mode,
      kind: 'text',
      width: text.columns * 8,
      height: text.rows * text.charHeight,
      name: `text ${text.columns}x${text.rows} (8x${text.charHeight} font)`,
    };
  return MODES.find((m) => m.mode === mode);
}

/** CGA bytes (CPU offsets in B800) → pixel values; `stride` is the emulator's text/CGA layout. */
export function decodeCga(vga: Uint8Array, stride: TextStride, g: ModeGeometry): Uint8Array {
  const bpp = g.bpp ?? 2;
  const perByte = 8 / bpp;
  const mask = (1 << bpp) - 1;
  const out = new Uint8Array(g.width * g.height);
  for (let y = 0; y < g.height; y++) {
    const line = (y & 1) * 0x2000 + (y >> 1) * 80;
    for (let x = 0; x < g.width; x++) {
      const byte = vga[textIndex(stride, line + Math.floor(x / perByte))];
      out[y * g.width + x] = (byte >> (8 - bpp * ((x % perByte) + 1))) & mask;
    }
  }
  return out;
}

/** Linear bytes a CGA frame spans for a layout. */
export function cgaSpan(stride: TextStride): number {
  return textIndex(stride, 0x2000 + 100 * 80) + 1;
}

/** Planar 16-colour pixels from VGA address `start` (one bit per plane, MSB = leftmost). */
export function decodePlanar(vga: Uint8Array, start: number, g: ModeGeometry): Uint8Array {
  const bpr = g.bytesPerRow ?? g.width / 8;
  const out = new Uint8Array(g.width * g.height);
  for (let y = 0; y < g.height; y++) {
    for (let b = 0; b < bpr; b++) {
      const i = 4 * (start + y * bpr + b);
      const p0 = vga[i],
        p1 = vga[i + 1],
        p2 = vga[i + 2],
        p3 = vga[i + 3];
      for (let bit = 0; bit < 8; bit++) {
        const s = 7 - bit;
        out[y * g.width + b * 8 + bit] =
          ((p0 >> s) & 1) | (((p1 >> s) & 1) << 1) | (((p2 >> s) & 1) << 2) | (((p3 >> s) & 1) << 3);
      }
    }
  }
  return out;
}

/** Linear bytes a planar frame spans from its start address. */
export function planarSpan(g: ModeGeometry): number {
  return 4 * (g.bytesPerRow ?? g.width / 8) * g.height;
}

/**
 * Unchained 256 colours (Mode X) with 80 addresses a line: pixel (x, y) is
 * plane x & 3 of address start + 80y + x/4, i.e. linear byte 4·start + 320y + x —
 * the frame is one run of the buffer.
 */
export function decodeUnchained(vga: Uint8Array, start: number, width: number, height: number): Uint8Array {
  return vga.slice(4 * start, 4 * start + width * height);
}

/** Does an unchained frame at VGA address `start` equal `reference`? */
export function unchainedMatches(vga: Uint8Array, start: number, reference: Uint8Array): boolean {
  const at = 4 * start;
  if (at + reference.length > vga.length) return false;
  for (let i = 0; i < reference.length; i++) if (vga[at + i] !== reference[i]) return false;
  return true;
}

/** The active font: 256 glyphs of `height` rows as the VGA keeps them (32 rows reserved a glyph). */
export interface Font {
  glyphRow(char: number, row: number): number;
  height: number;
}

/** A font in a flat array of 32-byte glyphs (plane 2 as one array, DOSBox 0.74's vga.draw.font). */
export function fontFrom32(bytes: Uint8Array, height: number, step = 1, first = 0): Font {
  return { height, glyphRow: (c, r) => bytes[first + (c * 32 + r) * step] ?? 0 };
}

/** A font given as consecutive `height`-byte glyphs (the BIOS ROM tables). */
export function fontFromRom(bytes: Uint8Array, height: number): Font {
  return { height, glyphRow: (c, r) => bytes[c * height + r] ?? 0 };
}

/**
 * Text cells rendered through a font, 8 pixels a glyph: each pixel the
 * attribute's foreground (low nibble) or background (bits 4..6) colour.
 */
export function renderTextIndices(
  chars: Uint8Array,
  attributes: Uint8Array,
  columns: number,
  rows: number,
  font: Font,
): Uint8Array {
  const width = columns * 8;
  const h = font.height;
  const out = new Uint8Array(width * rows * h);
  for (let cell = 0; cell < columns * rows; cell++) {
    const fg = attributes[cell] & 15;
    const bg = (attributes[cell] >> 4) & 7;
    const x0 = (cell % columns) * 8;
    const y0 = Math.floor(cell / columns) * h;
    for (let r = 0; r < h; r++) {
      const bits = font.glyphRow(chars[cell], r);
      const row = (y0 + r) * width + x0;
      for (let x = 0; x < 8; x++) out[row + x] = bits & (0x80 >> x) ? fg : bg;
    }
  }
  return out;
}

/**
 * Locates the BIOS's 8xN ROM font in guest memory C0000..C7FFF (the VGA BIOS):
 * glyph 0 and space blank, glyph DBh (full block) all ones, 'A' not blank.
 * Returns every match (one is expected).
 */
export function findRomFont(vgaBios: Uint8Array, height: number): number[] {
  const hits: number[] = [];
  const full = 0xdb * height;
  for (let f = 0; f + 256 * height <= vgaBios.length; f++) {
    let ok = true;
    for (let r = 0; ok && r < height; r++)
      ok = vgaBios[f + full + r] === 0xff && vgaBios[f + r] === 0 && vgaBios[f + 0x20 * height + r] === 0;
    if (ok && vgaBios.subarray(f + 0x41 * height, f + 0x42 * height).some((b) => b !== 0)) hits.push(f);
  }
  return hits;
}

/** 200-line modes run a CGA-compatible palette; 350/480-line modes the EGA 64-colour one. */
function cgaCompatible(mode: number): boolean {
  return mode === 0x04 || mode === 0x05 || mode === 0x06 || mode === 0x0d || mode === 0x0e;
}

/** Attribute-controller palette the BIOS sets for a mode (pixel value → DAC index). */
export function defaultAttributePalette(mode: number): number[] {
  if (mode === 0x04 || mode === 0x05) return [0x00, 0x13, 0x15, 0x17];
  if (mode === 0x06) return [0x00, 0x17];
  if (cgaCompatible(mode)) return [0, 1, 2, 3, 4, 5, 6, 7, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17];
  return [0, 1, 2, 3, 4, 5, 0x14, 7, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f];
}

/**
 * DAC entries 0..63 as the BIOS loads them for a mode (6-bit): EGA colour bits
 * (B G R b g r) for 350/480 lines; for 200 lines CGA's (B G R, bit 4 intensity;
 * entry 6 brown).
 */
export function biosDac(mode: number): Uint8Array {
  const dac = new Uint8Array(768);
  for (let i = 0; i < 64; i++) {
    const bit = (n: number) => (i >> n) & 1;
    if (cgaCompatible(mode)) {
      const hi = 21 * bit(4);
      dac.set([42 * bit(2) + hi, (i & 7) === 6 && !bit(4) ? 21 : 42 * bit(1) + hi, 42 * bit(0) + hi], i * 3);
    } else dac.set([42 * bit(2) + 21 * bit(5), 42 * bit(1) + 21 * bit(4), 42 * bit(0) + 21 * bit(3)], i * 3);
  }
  return dac;
}
