/**
 * What is under a point of the C64's visible picture, from the VIC-II's
 * registers ($D000-$D02E) and CIA 2's port A ($DD00, the VIC bank): the
 * character cell, its screen-RAM and colour-RAM addresses, the sprites
 * covering the point, and the display mode. Pure: the caller reads the
 * bytes at the addresses. Coordinates are pixels of the inner area (0,0 =
 * the top-left pixel of the 320x200 screen); outside it is border.
 */
import { GLYPHS, type CharSet } from './screen-codes.js';

export const VIC_REGISTERS = 0x2f;
export const COLOUR_RAM = 0xd800;

export interface C64Point {
  /** column/row of the 40x25 cells, undefined over the border */
  cell?: { col: number; row: number };
  screenAddress?: number;
  colourAddress?: number;
  /** sprites (0-7) whose box covers the point, front-most first */
  sprites: number[];
  mode: string;
  charset: CharSet;
}

const MODES = [
  'standard text',
  'multicolour text',
  'hires bitmap',
  'multicolour bitmap',
  'extended background text',
  'invalid (ECM+MCM)',
  'invalid (ECM+BMM)',
  'invalid (ECM+BMM+MCM)',
];

export function c64Mode(vic: Uint8Array): string {
  const ecm = (vic[0x11] >> 6) & 1;
  const bmm = (vic[0x11] >> 5) & 1;
  const mcm = (vic[0x16] >> 4) & 1;
  return MODES[(ecm << 2) | (bmm << 1) | mcm];
}

/** The VIC's 16 KiB bank start from CIA 2 port A (bits 0-1, inverted). */
export function vicBank(cia2pa: number): number {
  return (3 - (cia2pa & 3)) * 0x4000;
}

export function c64PointAt(x: number, y: number, vic: Uint8Array, cia2pa: number): C64Point {
  const screenBase = vicBank(cia2pa) + ((vic[0x18] >> 4) & 0x0f) * 0x400;
  const charset: CharSet = vic[0x18] & 0x02 ? 'lower_upper' : 'upper_graphics';
  const inside = x >= 0 && y >= 0 && x < 320 && y < 200;
  const cell = inside ? { col: Math.floor(x / 8), row: Math.floor(y / 8) } : undefined;
  const index = cell ? cell.row * 40 + cell.col : undefined;
  return {
    cell,
    screenAddress: index === undefined ? undefined : screenBase + index,
    colourAddress: index === undefined ? undefined : COLOUR_RAM + index,
    sprites: spritesAt(x, y, vic),
    mode: c64Mode(vic),
    charset,
  };
}

export interface SpriteBox {
  sprite: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The enabled sprites' boxes in inner-area pixels (X 24 and Y 50 are its top-left corner), sprite 0 first. */
export function spriteBoxes(vic: Uint8Array): SpriteBox[] {
  const out: SpriteBox[] = [];
  for (let s = 0; s < 8; s++) {
    if (!(vic[0x15] & (1 << s))) continue;
    out.push({
      sprite: s,
      x: vic[s * 2] + (vic[0x10] & (1 << s) ? 256 : 0) - 24,
      y: vic[s * 2 + 1] - 50,
      width: vic[0x1d] & (1 << s) ? 48 : 24,
      height: vic[0x17] & (1 << s) ? 42 : 21,
    });
  }
  return out;
}

function spritesAt(x: number, y: number, vic: Uint8Array): number[] {
  // sprite 0 has the highest priority, as the list reads
  return spriteBoxes(vic)
    .filter((b) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height)
    .map((b) => b.sprite);
}

/** The character a screen code shows (reverse video for $80-$FF), as text. */
export function screenCodeChar(code: number, charset: CharSet): { char: string; reverse: boolean } {
  return { char: String.fromCodePoint(GLYPHS[charset][code & 0x7f]), reverse: code >= 0x80 };
}

/** The 16 colours' names, as VICE's palette files call them. */
export { COLOUR_NAMES as C64_COLOUR_NAMES } from './pepto-palette.js';
