/**
 * Frame helpers shared by every frame source and viewer: palette indices to
 * RGBA through a 32-bit lookup table (one write a pixel, no array per pixel),
 * crops, change checks, and a ScreenFrame as the RGBA ScreenImage PNGs use.
 */
import type { Rgb } from './indexed-png.js';
import type { FrameListener, ScreenFrame, ScreenImage } from './target.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** RGBA words for a palette, in the machine's byte order, so a pixel is one Uint32 store; indices past it are black. */
export function paletteWords(palette: readonly Rgb[]): Uint32Array {
  const word = (r: number, g: number, b: number) =>
    (littleEndian ? (255 << 24) | (b << 16) | (g << 8) | r : (r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
  const words = new Uint32Array(256).fill(word(0, 0, 0));
  palette.slice(0, 256).forEach(([r, g, b], i) => (words[i] = word(r, g, b)));
  return words;
}

/** Palette indices → RGBA bytes. */
export function indexedToRgba(pixels: Uint8Array, palette: readonly Rgb[]): Buffer {
  const out = Buffer.alloc(pixels.length * 4);
  const words = new Uint32Array(out.buffer, out.byteOffset, pixels.length);
  const lut = paletteWords(palette);
  for (let i = 0; i < pixels.length; i++) words[i] = lut[pixels[i]];
  return out;
}

/** A rectangle of a one-byte-a-pixel picture `width` wide. */
export function cropIndexed(pixels: Uint8Array, width: number, rect: Rect): Uint8Array {
  const out = new Uint8Array(rect.width * rect.height);
  for (let y = 0; y < rect.height; y++) {
    const from = (rect.y + y) * width + rect.x;
    out.set(pixels.subarray(from, from + rect.width), y * rect.width);
  }
  return out;
}

/** The frame's pixels as RGBA (the form PNG encoding and ScreenImage take). */
export function frameRgba(frame: ScreenFrame): Buffer {
  if (frame.pixels && frame.palette) return indexedToRgba(frame.pixels, frame.palette);
  if (frame.rgba) return Buffer.from(frame.rgba.buffer, frame.rgba.byteOffset, frame.rgba.byteLength);
  return Buffer.alloc(frame.width * frame.height * 4);
}

export function frameToImage(frame: ScreenFrame): ScreenImage {
  return {
    width: frame.width,
    height: frame.height,
    rgba: frameRgba(frame),
    frame: frame.frame,
    maybeStale: frame.maybeStale,
    ...(frame.source ? { source: frame.source } : {}),
  };
}

/** Same size, the same palette (if any) and the same pixels. */
export function samePicture(a: ScreenFrame | undefined, b: ScreenFrame): boolean {
  if (!a || a.width !== b.width || a.height !== b.height || !samePalette(a.palette, b.palette)) return false;
  const pa = a.pixels ?? a.rgba;
  const pb = b.pixels ?? b.rgba;
  return !!pa && !!pb && Buffer.compare(pa, pb) === 0;
}

function samePalette(a: readonly Rgb[] | undefined, b: readonly Rgb[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((c, i) => c[0] === b[i][0] && c[1] === b[i][1] && c[2] === b[i][2]);
}

/** Hands a frame to each viewer; a viewer's exception stays its own, so the source (and the machine) runs on. */
export function deliverFrame(viewers: Iterable<{ listener: FrameListener }>, frame: ScreenFrame): void {
  for (const v of viewers) {
    try {
      v.listener(frame);
    } catch {
      /* the viewer's bug, not the source's */
    }
  }
}

/** A requested frame rate within (0, max]; a missing or nonsense one is the source's most. */
export function clampFps(fps: number, max: number): number {
  return Number.isFinite(fps) && fps > 0 ? Math.min(max, fps) : max;
}
