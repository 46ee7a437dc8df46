/**
 * What is under a point of the Sprinter's picture: the 8x8 "square" (16
 * screen pixels wide in 640 mode) and the VRAM address of its 4 mode bytes
 * in the mode table (video.ts: column #300 + 4b of row 1 + 2a + #80·PM),
 * which say how that square is drawn. Pure: the caller reads the bytes.
 * Coordinates are pixels of the 640x256 picture; outside it is border.
 */
import { VRAM_ROW } from './video.js';

export const SPRINTER_PICTURE = { width: 640, height: 256 } as const;
/** squares across the visible picture (56 exist in the table, 40 are shown) */
const SQUARES = { across: 40, down: 32 } as const;

/** The picture in a frame of this size: MAME's sprinter shows 736x288 with the picture at 48,16 (sprinter.md). */
export function sprinterPictureIn(width: number, height: number): { x: number; y: number } {
  if (width === 736 && height === 288) return { x: 48, y: 16 };
  return {
    x: Math.max(0, (width - SPRINTER_PICTURE.width) >> 1),
    y: Math.max(0, (height - SPRINTER_PICTURE.height) >> 1),
  };
}

export interface SprinterPoint {
  /** a = column (0..39), b = row (0..31) */
  square?: { a: number; b: number };
  /** VRAM (share :vram) offset of the square's 4 mode bytes */
  modeAddress?: number;
}

export function sprinterPointAt(x: number, y: number, pm: 0 | 1 = 0): SprinterPoint {
  if (x < 0 || y < 0 || x >= SPRINTER_PICTURE.width || y >= SPRINTER_PICTURE.height) return {};
  const a = Math.floor(x / 16);
  const b = Math.floor(y / 8);
  if (a >= SQUARES.across || b >= SQUARES.down) return {};
  return { square: { a, b }, modeAddress: (1 + 2 * a + 0x80 * pm) * VRAM_ROW + 0x300 + 4 * b };
}
