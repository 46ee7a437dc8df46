/**
 * X Window Dump files (what Debian's `xwd` writes): a big-endian header of
 * 25 CARD32 fields and the window name, then `ncolors` 12-byte colour entries,
 * then the ZPixmap rows. TrueColor pixels are split by the channel masks;
 * DirectColor (SDL 1.2's choice) and PseudoColor go through the dumped colour map.
 */
import { RetroError, unsupported, incompatibleTarget } from '../../core/errors.js';

export interface RgbaImage {
  width: number;
  height: number;
  rgba: Buffer;
}

const ZPIXMAP = 2;
const PSEUDO_COLOR = 3;
const DIRECT_COLOR = 5;

export function parseXwd(file: Uint8Array): RgbaImage {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (buf.length < 100) throw bad('shorter than its header');
  const h = (i: number) => buf.readUInt32BE(i * 4);
  const [headerSize, version, format] = [h(0), h(1), h(2)];
  if (version !== 7 || format !== ZPIXMAP) throw bad(`version ${version}, format ${format} (want 7, ZPixmap)`);
  const width = h(4);
  const height = h(5);
  const byteOrder = h(7); // 0 LSBFirst, 1 MSBFirst
  const bpp = h(11);
  const bytesPerLine = h(12);
  const visual = h(13);
  const masks = [h(14), h(15), h(16)];
  const ncolors = h(19);
  if (bpp !== 32 && bpp !== 24 && bpp !== 16 && bpp !== 8) throw bad(`${bpp} bits per pixel`);
  const mapAt = headerSize;
  const dataAt = mapAt + ncolors * 12;
  if (buf.length < dataAt + bytesPerLine * height) throw bad('truncated');
  const entries = Array.from({ length: ncolors }, (_, i) => {
    const e = mapAt + i * 12;
    return { pixel: buf.readUInt32BE(e), rgb: [buf[e + 4], buf[e + 6], buf[e + 8]] };
  });
  const shifts = masks.map((m) => (m ? 31 - Math.clz32(m & -m) : 0));
  const channel = masks.map((m, c) => {
    if (visual !== DIRECT_COLOR || !ncolors) return undefined;
    const table = new Uint8Array(256);
    for (const e of entries) table[((e.pixel & m) >>> shifts[c]) & 255] = e.rgb[c];
    return table;
  });
  const pseudo = new Map(entries.map((e) => [e.pixel, e.rgb]));
  const rgba = Buffer.alloc(width * height * 4);
  const bytes = bpp / 8;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = dataAt + y * bytesPerLine + x * bytes;
      let p = 0;
      for (let k = 0; k < bytes; k++) p |= buf[at + (byteOrder === 0 ? k : bytes - 1 - k)] << (8 * k);
      p >>>= 0;
      const o = (y * width + x) * 4;
      if (visual === PSEUDO_COLOR || bpp === 8) {
        const c = pseudo.get(p) ?? [0, 0, 0];
        rgba.set(c, o);
      } else {
        for (let c = 0; c < 3; c++) {
          const v = (p & masks[c]) >>> shifts[c];
          const full = masks[c] >>> shifts[c];
          rgba[o + c] = channel[c] ? channel[c]![v & 255] : full === 255 ? v : Math.round((v * 255) / (full || 1));
        }
      }
      rgba[o + 3] = 255;
    }
  }
  return { width, height, rgba };
}

/**
 * Reduces a window image to `width` x `height` when it is an exact integer
 * multiple of it (the emulator's scaler): the centre pixel of each block.
 */
export function reduceToMode(img: RgbaImage, width: number, height: number): RgbaImage & { scale: [number, number] } {
  const sx = img.width / width;
  const sy = img.height / height;
  if (!Number.isInteger(sx) || !Number.isInteger(sy) || sx < 1 || sy < 1)
    throw unsupported(
      `The emulator's window is ${img.width}x${img.height}, not an integer multiple of the ${width}x${height} mode (an aspect correction or a non-integer scaler is on); set its scaler to an integer one (e.g. normal2x, aspect=false).`,
      { window: [img.width, img.height], mode: [width, height] },
    );
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const from = ((y * sy + (sy >> 1)) * img.width + x * sx + (sx >> 1)) * 4;
      img.rgba.copy(rgba, (y * width + x) * 4, from, from + 4);
    }
  return { width, height, rgba, scale: [sx, sy] };
}

/** Nearest-neighbour enlargement by an integer factor. */
export function scaleUp(img: RgbaImage, k: number): RgbaImage {
  if (k === 1) return img;
  const w = img.width * k;
  const rgba = Buffer.alloc(w * img.height * k * 4);
  for (let y = 0; y < img.height * k; y++)
    for (let x = 0; x < w; x++) {
      const from = (((y / k) | 0) * img.width + ((x / k) | 0)) * 4;
      img.rgba.copy(rgba, (y * w + x) * 4, from, from + 4);
    }
  return { width: w, height: img.height * k, rgba };
}

function bad(why: string): RetroError {
  return incompatibleTarget(`The window dump from xwd is not usable: ${why}.`);
}
