/** VICE's composited frame and palette (DISPLAY_GET, PALETTE_GET), refusing builds whose display reply overruns. */
import { RetroError } from '../../core/errors.js';
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
    throw new RetroError(
      'incompatible_target',
      `Screen capture is refused: ${support.reason}. Use VICE r${46020} or later.`,
      {
        reason: support.reason,
      },
    );
  if (support.ok === 'probe' && seen.short) {
    throw new RetroError(
      'incompatible_target',
      `Screen capture is refused: ${support.reason}, and its display body was 4 bytes shorter than its own length field (the overrun bug before r46020).`,
    );
  }
  const raw = await client.request(Cmd.DISPLAY_GET, Uint8Array.of(1, 0), { timeoutMs: 20_000 });
  let display;
  try {
    display = decodeDisplay(raw);
  } catch (err) {
    throw new RetroError(
      'incompatible_target',
      `VICE's display reply does not have the API 2 layout: ${(err as Error).message}.`,
    );
  }
  if (display.short) {
    seen.short = true;
    throw new RetroError(
      'incompatible_target',
      `Screen capture is refused: ${info.display.reason}; its display body was shorter than its own length field (${raw.length - 21} of ${display.width * display.height} pixels), the overrun bug of builds before r46020.`,
    );
  }
  const palette = decodePalette(await client.request(Cmd.PALETTE_GET, Uint8Array.of(1)));
  return { ...display, palette };
}

/** The normally visible area of a captured frame as RGBA: 32 pixels of border left/right, 35 above and below. */
export function visibleArea(c: CaptureResult): Omit<ScreenImage, 'maybeStale'> {
  const x0 = Math.max(0, c.innerX - 32),
    y0 = Math.max(0, c.innerY - 35);
  const width = Math.min(c.width - x0, c.innerWidth + 64),
    height = Math.min(c.height - y0, c.innerHeight + 72);
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = c.palette[c.pixels[(y0 + y) * c.width + x0 + x]] ?? [0, 0, 0];
      rgba.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return { width, height, rgba };
}
