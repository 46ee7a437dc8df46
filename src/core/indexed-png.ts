/**
 * Palette-indexed PNG (colour type 3, 8 bits per pixel) from an IndexedImage.
 * PLTE holds the given palette, extended with black up to the highest index
 * used; indices the caller's palette did not cover are reported.
 */
import { deflateSync } from 'node:zlib';
import { internalError, badRequest } from './errors.js';

/** One palette entry. */
export type Rgb = readonly [number, number, number];

/** A picture of palette indices, one byte a pixel, row-major. */
export interface IndexedImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export interface IndexedPng {
  png: Buffer;
  /** distinct indices used, ascending */
  used_indices: number[];
  /** used indices past the caller's palette (drawn black) */
  unmapped_indices: number[];
  plte_entries: number;
}

export function encodeIndexedPng(img: IndexedImage, palette: readonly Rgb[]): IndexedPng {
  if (img.pixels.length !== img.width * img.height)
    throw internalError('Indexed image size does not match its pixels.');
  const seen = new Uint8Array(256);
  for (const p of img.pixels) seen[p] = 1;
  const used = [...seen.keys()].filter((i) => seen[i]);
  const entries = Math.max(1, Math.min(256, palette.length), (used.at(-1) ?? 0) + 1);
  const plte = Buffer.alloc(entries * 3);
  for (let i = 0; i < Math.min(entries, palette.length); i++) plte.set(palette[i], i * 3);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr[8] = 8;
  ihdr[9] = 3; // 8-bit palette indices
  const raw = Buffer.alloc((img.width + 1) * img.height);
  for (let y = 0; y < img.height; y++)
    raw.set(img.pixels.subarray(y * img.width, (y + 1) * img.width), y * (img.width + 1) + 1);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
  return { png, used_indices: used, unmapped_indices: used.filter((i) => i >= palette.length), plte_entries: entries };
}

/** A caller palette: "#rrggbb" strings or [r, g, b] triples, 1-256 entries. */
export function parsePalette(entries: readonly unknown[]): Rgb[] {
  if (entries.length < 1 || entries.length > 256)
    throw badRequest(`A palette has 1-256 colours (got ${entries.length}).`);
  return entries.map((entry, i) => {
    if (typeof entry === 'string') {
      const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(entry);
      if (m) return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)] as const;
    } else if (
      Array.isArray(entry) &&
      entry.length === 3 &&
      entry.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)
    ) {
      return [entry[0], entry[1], entry[2]] as const;
    }
    throw badRequest(
      `Palette entry ${i} (${JSON.stringify(entry)?.slice(0, 40)}) is not a colour: use "#rrggbb" or [r, g, b] with 0-255.`,
      { index: i },
    );
  });
}
