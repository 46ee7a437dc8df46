/** Encodes an RGBA ScreenImage as PNG (pngjs, synchronous: screens are small). */
import { PNG } from 'pngjs';
import type { ScreenImage } from './target.js';
import { internalError } from './errors.js';

export function encodePng(image: ScreenImage): Buffer {
  const expected = image.width * image.height * 4;
  if (image.rgba.length !== expected) {
    throw internalError(
      `Screen image is ${image.rgba.length} bytes, expected ${expected} for ${image.width}x${image.height} RGBA.`,
    );
  }
  const png = new PNG({ width: image.width, height: image.height });
  image.rgba.copy(png.data);
  return PNG.sync.write(png);
}
