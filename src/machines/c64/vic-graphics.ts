/**
 * VIC-II graphics modes decoded from bytes into palette-indexed images (one
 * byte per pixel, a VIC colour 0-15). Multicolor pixels are two pixels wide,
 * as on screen, so every mode keeps the screen's geometry (a 40x25 bitmap is
 * 320x200). Geometry is capped; byte counts are checked before decoding.
 */
import { badRequest, tooLarge } from '../../core/errors.js';
import type { IndexedImage } from '../../core/indexed-png.js';

export type { IndexedImage } from '../../core/indexed-png.js';

export const GRAPHICS_CAPS = Object.freeze({
  columns: 64,
  rows: 64,
  cells: 2048,
  glyphs: 256,
  sprites: 256,
  sheetColumns: 64,
});

export interface CellGeometry {
  columns: number;
  rows: number;
}

export function checkCells({ columns, rows }: CellGeometry): number {
  for (const [name, value, cap] of [
    ['columns', columns, GRAPHICS_CAPS.columns],
    ['rows', rows, GRAPHICS_CAPS.rows],
  ] as const) {
    if (!Number.isInteger(value) || value < 1 || value > cap)
      throw badRequest(`${name} must be 1-${cap} (got ${value}).`, { [name]: value });
  }
  const cells = columns * rows;
  if (cells > GRAPHICS_CAPS.cells)
    throw tooLarge(`${columns}x${rows} is ${cells} cells; at most ${GRAPHICS_CAPS.cells}.`, {
      cells,
    });
  return cells;
}

export function checkCount(name: 'glyph' | 'sprite', count: number): void {
  const cap = name === 'glyph' ? GRAPHICS_CAPS.glyphs : GRAPHICS_CAPS.sprites;
  if (!Number.isInteger(count) || count < 1 || count > cap)
    throw badRequest(`The ${name} count must be 1-${cap} (got ${count}).`);
}

export function checkSheetColumns(columns: number): void {
  if (!Number.isInteger(columns) || columns < 1 || columns > GRAPHICS_CAPS.sheetColumns) {
    throw badRequest(`sheet_columns must be 1-${GRAPHICS_CAPS.sheetColumns} (got ${columns}).`);
  }
}

function blank(width: number, height: number, fill: number): IndexedImage {
  return { width, height, pixels: new Uint8Array(width * height).fill(fill) };
}

/** Colours for the four bit pairs 00, 01, 10, 11 of a multicolor byte. */
type Quad = readonly [number, number, number, number];

/** Draws 8 pixels from one byte at (x, y): hires picks `off`/`on`, multicolor picks from `quad`. */
function drawByte(
  img: IndexedImage,
  x: number,
  y: number,
  byte: number,
  colours: { on: number; off: number } | Quad,
): void {
  const row = y * img.width + x;
  if ('on' in colours) {
    for (let bit = 0; bit < 8; bit++) img.pixels[row + bit] = byte & (0x80 >> bit) ? colours.on : colours.off;
  } else {
    for (let pair = 0; pair < 4; pair++) {
      const c = colours[(byte >> (6 - 2 * pair)) & 3];
      img.pixels[row + 2 * pair] = c;
      img.pixels[row + 2 * pair + 1] = c;
    }
  }
}

/** Bitmap mode: cell-major, 8 bytes per cell (the VIC's layout). */
export function decodeHiresBitmap(geo: CellGeometry, bitmap: Uint8Array, screen: Uint8Array): IndexedImage {
  const cells = checkCells(geo);
  need('bitmap', bitmap, cells * 8);
  need('screen', screen, cells);
  const img = blank(geo.columns * 8, geo.rows * 8, 0);
  for (let cell = 0; cell < cells; cell++) {
    const x = (cell % geo.columns) * 8,
      y = Math.floor(cell / geo.columns) * 8;
    const colours = { on: screen[cell] >> 4, off: screen[cell] & 15 };
    for (let line = 0; line < 8; line++) drawByte(img, x, y + line, bitmap[cell * 8 + line], colours);
  }
  return img;
}

/** Multicolor bitmap: 00 background, 01 screen high nybble, 10 screen low nybble, 11 colour RAM low nybble. */
export function decodeMulticolorBitmap(
  geo: CellGeometry & { background: number },
  bitmap: Uint8Array,
  screen: Uint8Array,
  color: Uint8Array,
): IndexedImage {
  const cells = checkCells(geo);
  need('bitmap', bitmap, cells * 8);
  need('screen', screen, cells);
  need('color', color, cells);
  const img = blank(geo.columns * 8, geo.rows * 8, geo.background);
  for (let cell = 0; cell < cells; cell++) {
    const x = (cell % geo.columns) * 8,
      y = Math.floor(cell / geo.columns) * 8;
    const quad: Quad = [geo.background, screen[cell] >> 4, screen[cell] & 15, color[cell] & 15];
    for (let line = 0; line < 8; line++) drawByte(img, x, y + line, bitmap[cell * 8 + line], quad);
  }
  return img;
}

export interface CharColours {
  background: number;
  foreground: number;
  multicolor1: number;
  multicolor2: number;
}

function drawGlyph(
  img: IndexedImage,
  x: number,
  y: number,
  charset: Uint8Array,
  code: number,
  colours: { on: number; off: number } | Quad,
): void {
  for (let line = 0; line < 8; line++) drawByte(img, x, y + line, charset[code * 8 + line], colours);
}

/** A character set as a sheet of `sheetColumns` glyphs per row; multicolor 11 uses `foreground`. */
export function decodeCharset(
  opts: CharColours & { count: number; sheetColumns: number; multicolor: boolean },
  charset: Uint8Array,
): IndexedImage {
  checkCount('glyph', opts.count);
  checkSheetColumns(opts.sheetColumns);
  need('charset', charset, opts.count * 8);
  const columns = Math.min(opts.sheetColumns, opts.count);
  const img = blank(columns * 8, Math.ceil(opts.count / columns) * 8, opts.background);
  const colours = opts.multicolor
    ? ([opts.background, opts.multicolor1, opts.multicolor2, opts.foreground] as const)
    : { on: opts.foreground, off: opts.background };
  for (let code = 0; code < opts.count; code++)
    drawGlyph(img, (code % columns) * 8, Math.floor(code / columns) * 8, charset, code, colours);
  return img;
}

/** Glyphs a screen needs: up to the highest screen code present. */
export function glyphsNeeded(screen: Uint8Array): number {
  let max = 0;
  for (const code of screen) if (code > max) max = code;
  return max + 1;
}

/**
 * Text mode. Hires: each cell's colour-RAM low nybble (or `foreground` without
 * colour RAM) on the background. Multicolor: colour-RAM bit 3 makes a cell
 * multicolor (00 background, 01 $D022, 10 $D023, 11 colour RAM bits 0-2);
 * otherwise the cell is hires in colour RAM bits 0-2.
 */
export function decodeCharScreen(
  opts: CellGeometry & CharColours & { multicolor: boolean },
  screen: Uint8Array,
  charset: Uint8Array,
  color?: Uint8Array,
): IndexedImage {
  const cells = checkCells(opts);
  need('screen', screen, cells);
  need('charset', charset, glyphsNeeded(screen.subarray(0, cells)) * 8);
  if (opts.multicolor && !color)
    throw badRequest("Multicolor text mode needs colour RAM (color): its bit 3 selects each cell's mode.");
  if (color) need('color', color, cells);
  const img = blank(opts.columns * 8, opts.rows * 8, opts.background);
  for (let cell = 0; cell < cells; cell++) {
    const x = (cell % opts.columns) * 8,
      y = Math.floor(cell / opts.columns) * 8;
    const c = color ? color[cell] & 15 : opts.foreground;
    const colours = opts.multicolor
      ? c & 8
        ? ([opts.background, opts.multicolor1, opts.multicolor2, c & 7] as const)
        : { on: c & 7, off: opts.background }
      : { on: c, off: opts.background };
    drawGlyph(img, x, y, charset, screen[cell], colours);
  }
  return img;
}

export const SPRITE_WIDTH = 24;
export const SPRITE_HEIGHT = 21;
export const SPRITE_BYTES = 63;

export function spriteBytesNeeded(count: number, stride: number): number {
  return (count - 1) * stride + SPRITE_BYTES;
}

/**
 * Sprites on a sheet, `sheetColumns` per row. Hires: set bits in `foreground`.
 * Multicolor: 01 $D025, 10 the sprite colour, 11 $D026. Transparent pixels
 * (clear bits, pair 00) show `background`.
 */
export function decodeSprites(
  opts: CharColours & { count: number; stride: 63 | 64; sheetColumns: number; multicolor: boolean },
  data: Uint8Array,
): IndexedImage {
  checkCount('sprite', opts.count);
  checkSheetColumns(opts.sheetColumns);
  if (opts.stride !== 63 && opts.stride !== 64)
    throw badRequest(`sprite_stride must be 64 or 63 (got ${opts.stride}).`);
  need('sprite data', data, spriteBytesNeeded(opts.count, opts.stride));
  const columns = Math.min(opts.sheetColumns, opts.count);
  const img = blank(columns * SPRITE_WIDTH, Math.ceil(opts.count / columns) * SPRITE_HEIGHT, opts.background);
  const colours = opts.multicolor
    ? ([opts.background, opts.multicolor1, opts.foreground, opts.multicolor2] as const)
    : { on: opts.foreground, off: opts.background };
  for (let s = 0; s < opts.count; s++) {
    const x0 = (s % columns) * SPRITE_WIDTH,
      y0 = Math.floor(s / columns) * SPRITE_HEIGHT;
    for (let line = 0; line < SPRITE_HEIGHT; line++) {
      for (let b = 0; b < 3; b++) drawByte(img, x0 + b * 8, y0 + line, data[s * opts.stride + line * 3 + b], colours);
    }
  }
  return img;
}

function need(name: string, bytes: Uint8Array, count: number): void {
  if (bytes.length < count) {
    throw badRequest(`${name} has ${bytes.length} bytes; this geometry needs ${count}.`, {
      source: name,
      needed: count,
      available: bytes.length,
    });
  }
}
