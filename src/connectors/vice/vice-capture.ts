/** VICE's composited frame and palette (DISPLAY_GET, PALETTE_GET), refusing builds whose display reply overruns. */
import { incompatibleTarget } from '../../core/errors.js';
import { cropIndexed, indexedToRgba, type Rect } from '../../core/frames.js';
import type { ScreenImage } from '../../core/target.js';
import type { ViceInfo } from './handshake.js';
import type { MonitorClient } from './monitor-client.js';
import { Cmd, decodeDisplay, decodePalette } from './protocol.js';
import type { CaptureResult } from './vice-feature.js';

/** `seen.short` remembers a reply shorter than its own length field (a probed build with the overrun bug). */
export async function captureDisplay(
  client: MonitorClient,
  info: ViceInfo,
  seen: { short?: boolean },
): Promise<CaptureResult> {
  const support = info.display;
  if (support.ok === false)
    throw incompatibleTarget(`Screen capture is refused: ${support.reason}. Use VICE r${46020} or later.`, {
      reason: support.reason,
    });
  if (support.ok === 'probe' && seen.short) {
    throw incompatibleTarget(
      `Screen capture is refused: ${support.reason}, and its display body was 4 bytes shorter than its own length field (the overrun bug before r46020).`,
    );
  }
  const raw = await client.request(Cmd.DISPLAY_GET, Uint8Array.of(1, 0), { timeoutMs: 20_000 });
  let display;
  try {
    display = decodeDisplay(raw);
  } catch (err) {
    throw incompatibleTarget(`VICE's display reply does not have the API 2 layout: ${(err as Error).message}.`);
  }
  if (display.short) {
    seen.short = true;
    throw incompatibleTarget(
      `Screen capture is refused: ${info.display.reason}; its display body was shorter than its own length field (${raw.length - 21} of ${display.width * display.height} pixels), the overrun bug of builds before r46020.`,
    );
  }
  const palette = decodePalette(await client.request(Cmd.PALETTE_GET, Uint8Array.of(1)));
  return { ...display, palette };
}

/** PAL VIC-II borders inside VICE's 384x272 visible window: 32 left and right, 35 above, 37 below. */
const BORDER = { side: 32, top: 35, bottom: 37 } as const;

export interface DrawnGeometry {
  inner: Rect;
  visible: Rect;
  /** 'buffer': found from the border pixels; 'report': the border is black, so VICE's report, corrected */
  from: 'buffer' | 'report';
}

/**
 * Where the picture really is in a captured frame. VICE (r46200) reports a Y
 * offset one row below the picture it holds (it centres the 272 visible lines
 * 36/36 while the borders are 35/37), so the rows are found from the buffer:
 * the visible window is the run of rows whose left border is one non-zero
 * colour. A black border cannot be told from the 0 outside; then the report
 * is taken, one row up as every VICE that reports it draws it.
 */
export function drawnGeometry(c: CaptureResult): DrawnGeometry {
  const x = Math.max(0, c.innerX - BORDER.side);
  const width = Math.min(c.width - x, c.innerWidth + 2 * BORDER.side);
  const height = c.innerHeight + BORDER.top + BORDER.bottom;
  const borderRow = (y: number): boolean => {
    const at = y * c.width + x;
    const colour = c.pixels[at];
    if (colour === 0) return false;
    for (let i = 1; i < BORDER.side; i++) if (c.pixels[at + i] !== colour) return false;
    return true;
  };
  let top = 0;
  while (top < c.height && !borderRow(top)) top++;
  let bottom = c.height - 1;
  while (bottom > top && !borderRow(bottom)) bottom--;
  const found = top < c.height && bottom - top + 1 === height;
  const innerY = found ? top + BORDER.top : Math.max(0, c.innerY - 1);
  return {
    inner: { x: c.innerX, y: innerY, width: c.innerWidth, height: c.innerHeight },
    visible: {
      x,
      y: Math.max(0, innerY - BORDER.top),
      width,
      height: Math.min(height, c.height - innerY + BORDER.top),
    },
    from: found ? 'buffer' : 'report',
  };
}

/** The normally visible area of a captured frame as palette indices (border included). */
export function visibleFrame(c: CaptureResult): { width: number; height: number; pixels: Uint8Array; inner: Rect } {
  const g = drawnGeometry(c);
  return {
    width: g.visible.width,
    height: g.visible.height,
    pixels: cropIndexed(c.pixels, c.width, g.visible),
    inner: { ...g.inner, x: g.inner.x - g.visible.x, y: g.inner.y - g.visible.y },
  };
}

/** The normally visible area of a captured frame as RGBA. */
export function visibleArea(c: CaptureResult): Omit<ScreenImage, 'maybeStale'> {
  const v = visibleFrame(c);
  return { width: v.width, height: v.height, rgba: indexedToRgba(v.pixels, c.palette) };
}
