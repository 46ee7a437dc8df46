/** Turns a session screenshot into a PNG data URL the webview can show. */
import { encodePng } from '../core/png.js';
import { RetroError } from '../core/errors.js';
import type { ScreenImage } from '../core/target.js';

/** Larger than any emulated screen we support; keeps one webview message bounded. */
export const MAX_SCREEN_SIDE = 4096;

export function pngDataUrl(image: ScreenImage): string {
  const { width, height } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new RetroError('internal', `The screenshot has an impossible size ${width}x${height}.`);
  }
  if (width > MAX_SCREEN_SIDE || height > MAX_SCREEN_SIDE) {
    throw new RetroError(
      'too_large',
      `The screenshot is ${width}x${height}; the panel shows at most ${MAX_SCREEN_SIDE} pixels a side.`,
    );
  }
  return `data:image/png;base64,${encodePng(image).toString('base64')}`;
}
