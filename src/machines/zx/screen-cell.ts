/**
 * What is under a point of the ZX Spectrum's picture: the display-file byte
 * (and bit) holding the pixel, the attribute byte of its 8x8 cell, and that
 * attribute's ink, paper, bright and flash. Pure: the caller reads the bytes.
 * Coordinates are pixels of the 256x192 paper (0,0 = its top-left pixel);
 * outside it is border. Addresses of the normal screen (RAM page 5 at $4000);
 * which screen a 128K shows, and where page 7 is, is zx128-screen.ts's.
 */

export const ZX_PAPER = { width: 256, height: 192 } as const;
export const ZX_BITMAP = 0x4000;
export const ZX_ATTRIBUTES = 0x5800;

/** The inner (paper) area in a frame of this size: MAME 0.251's spectrum shows 352x296, borders 48 left and top. */
export function zxPaperIn(width: number, height: number): { x: number; y: number } {
  if (width === 352 && height === 296) return { x: 48, y: 48 };
  return { x: Math.max(0, (width - ZX_PAPER.width) >> 1), y: Math.max(0, (height - ZX_PAPER.height) >> 1) };
}

/** Display-file address of the byte holding paper pixel (x, y): y's bits 7-6, 2-0, 5-3 then x / 8. */
export function zxBitmapAddress(x: number, y: number): number {
  return ZX_BITMAP | ((y & 0xc0) << 5) | ((y & 0x07) << 8) | ((y & 0x38) << 2) | (x >> 3);
}

export function zxAttributeAddress(x: number, y: number): number {
  return ZX_ATTRIBUTES + (y >> 3) * 32 + (x >> 3);
}

export const ZX_COLOUR_NAMES = ['black', 'blue', 'red', 'magenta', 'green', 'cyan', 'yellow', 'white'] as const;

export interface ZxAttribute {
  ink: number;
  paper: number;
  bright: boolean;
  flash: boolean;
}

export function zxAttribute(byte: number): ZxAttribute {
  return { ink: byte & 7, paper: (byte >> 3) & 7, bright: (byte & 0x40) !== 0, flash: (byte & 0x80) !== 0 };
}

export interface ZxPoint {
  /** the cell (32x24), undefined over the border */
  cell?: { col: number; row: number };
  bitmapAddress?: number;
  /** 7 = the byte's leftmost pixel */
  bit?: number;
  attributeAddress?: number;
}

export function zxPointAt(x: number, y: number): ZxPoint {
  if (x < 0 || y < 0 || x >= ZX_PAPER.width || y >= ZX_PAPER.height) return {};
  return {
    cell: { col: x >> 3, row: y >> 3 },
    bitmapAddress: zxBitmapAddress(x, y),
    bit: 7 - (x & 7),
    attributeAddress: zxAttributeAddress(x, y),
  };
}

/** MAME drivers of the Spectrum family whose screen this is (the 48K layout). */
export const ZX_MACHINES: ReadonlySet<string> = new Set([
  'spectrum',
  'spec128',
  'specpls2',
  'specpl2a',
  'specpls3',
  'pentagon',
  'scorpion',
  'tc2048',
]);
