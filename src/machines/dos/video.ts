/**
 * VGA memory as DOSBox-family emulators keep it: `vga.mem.linear`, 4 bytes
 * (planes 0..3) per VGA address. Text mode is either plain (char, attr, …:
 * stride 2, DOSBox 0.74 / js-dos DOSBox) or one cell per 8 bytes (stride 8,
 * DOSBox-X); mode 13h is chain-4: CPU offset o sits at 4·(o & ~3) + (o & 3).
 */
import { decodeCp437 } from './cp437.js';

export type TextStride = 2 | 8;

export const MODE13_WIDTH = 320;
export const MODE13_HEIGHT = 200;
export const MODE13_PIXELS = MODE13_WIDTH * MODE13_HEIGHT;
/** Bytes of the VGA buffer one 64000-pixel chain-4 frame spans. */
export const MODE13_SPAN = MODE13_PIXELS * 4;

/** Where B800:offset lives in the VGA buffer for a text layout. */
export function textIndex(stride: TextStride, offset: number): number {
  return stride === 2 ? offset : (offset & ~1) * 4 + (offset & 1);
}

export function chain4Index(offset: number): number {
  return (offset & ~3) * 4 + (offset & 3);
}

/** Bytes of the VGA buffer a text page of `cells` cells spans. */
export function textSpan(stride: TextStride, cells: number): number {
  return textIndex(stride, cells * 2 - 1) + 1;
}

export interface TextScreen {
  columns: number;
  rows: number;
  lines: string[];
  /** attribute byte per cell, row-major */
  attributes: Uint8Array;
  /** character byte per cell, row-major */
  chars: Uint8Array;
}

/** Decodes a text page from VGA buffer bytes that start at the page. */
export function decodeText(vga: Uint8Array, stride: TextStride, columns: number, rows: number): TextScreen {
  const cells = columns * rows;
  const chars = new Uint8Array(cells);
  const attributes = new Uint8Array(cells);
  for (let k = 0; k < cells; k++) {
    chars[k] = vga[textIndex(stride, k * 2)];
    attributes[k] = vga[textIndex(stride, k * 2 + 1)];
  }
  const lines: string[] = [];
  for (let r = 0; r < rows; r++)
    lines.push(decodeCp437(chars.subarray(r * columns, (r + 1) * columns)).replace(/[ \u00a0]+$/, ''));
  return { columns, rows, lines, attributes, chars };
}

/** 64000 palette indices from a chain-4 span that starts at the page. */
export function decodeMode13(span: Uint8Array): Uint8Array {
  const out = new Uint8Array(MODE13_PIXELS);
  for (let o = 0; o < MODE13_PIXELS; o += 4) {
    const i = o * 4;
    out[o] = span[i];
    out[o + 1] = span[i + 1];
    out[o + 2] = span[i + 2];
    out[o + 3] = span[i + 3];
  }
  return out;
}

/** Count of pixels that differ between two index frames of equal size. */
export function countDifferences(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** Does a chain-4 span at `start` decode to `reference`? Early exit on the first mismatch. */
export function chain4Matches(buffer: Uint8Array, start: number, reference: Uint8Array): boolean {
  for (let o = 0; o < reference.length; o++) if (buffer[start + chain4Index(o)] !== reference[o]) return false;
  return true;
}
