/**
 * The built-in C64's pictures in VICE's debug-buffer geometry, drawn where
 * x64sc r46200 draws them: 504x312, the inner 320x200 at 136,50 and the
 * visible 384x272 at 104,15 (borders 35 above, 37 below), the rest 0, one
 * palette index a pixel. DISPLAY is what VICE *reports* for it, Y offset 51
 * (it centres the 272 lines as 36/36), so the built-in answers like a real
 * VICE and a client that trusts the report is caught by tests. The pixels
 * come from the raster (vic-raster.ts): the last completed frame (the
 * default), the frame as drawn so far, or memory now.
 */
import type { FrameSource } from '../../core/target.js';
import type { C64Bus } from './c64-bus.js';
import { memoryNow, type VicFrame } from './vic-raster.js';

/** What the built-in's DISPLAY_GET reports, as x64sc r46200 does (innerY one row below the picture). */
export const DISPLAY = { width: 504, height: 312, innerX: 136, innerY: 51, innerWidth: 320, innerHeight: 200 } as const;
/** Where the inner area really is in the buffer. */
export const DRAWN_INNER = { x: 136, y: 50, width: 320, height: 200 } as const;
/** The normally visible area in the buffer (the rest is 0). */
export const VISIBLE = { x: 104, y: 15, width: 384, height: 272 } as const;

/** The picture `source` names; 'last-frame' before the first completed frame is memory now, and says so. */
export function displayFrame(bus: C64Bus, source: FrameSource = 'last-frame'): VicFrame {
  switch (source) {
    case 'last-frame':
      return bus.raster.lastFrame();
    case 'raster-now':
      return { pixels: bus.raster.live, frame: bus.raster.frames, source };
    case 'memory-now':
      return { pixels: memoryNow(bus), source };
  }
}

/** Copies the picture `source` names into `out` (a fresh buffer when absent). */
export function renderDisplay(
  bus: C64Bus,
  out: Buffer = Buffer.alloc(DISPLAY.width * DISPLAY.height),
  source: FrameSource = 'last-frame',
): Buffer {
  displayFrame(bus, source).pixels.copy(out);
  return out;
}
