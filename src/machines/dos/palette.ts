/**
 * VGA palettes: the DAC keeps 6-bit components; 8-bit = (v << 2) | (v >> 4).
 * The 16 text colours are the standard CGA/EGA set.
 */

export type Rgb = [number, number, number];

export function dacTo8(v: number): number {
  return ((v & 63) << 2) | ((v & 63) >> 4);
}

/** 768 six-bit DAC bytes → 256 RGB triples. */
export function paletteFromDac(dac: Uint8Array): Rgb[] {
  return Array.from(
    { length: 256 },
    (_, i) => [dacTo8(dac[i * 3]), dacTo8(dac[i * 3 + 1]), dacTo8(dac[i * 3 + 2])] as Rgb,
  );
}

/** The first 9 DAC entries of the VGA's default 256-colour palette: finds the live DAC in emulator memory. */
export const DEFAULT_DAC_PREFIX = Uint8Array.of(
  0,
  0,
  0,
  0,
  0,
  0x2a,
  0,
  0x2a,
  0,
  0,
  0x2a,
  0x2a,
  0x2a,
  0,
  0,
  0x2a,
  0,
  0x2a,
  0x2a,
  0x15,
  0,
  0x2a,
  0x2a,
  0x2a,
  0x15,
  0x15,
  0x15,
);

export const TEXT_COLOURS: Rgb[] = [
  [0, 0, 0],
  [0, 0, 170],
  [0, 170, 0],
  [0, 170, 170],
  [170, 0, 0],
  [170, 0, 170],
  [170, 85, 0],
  [170, 170, 170],
  [85, 85, 85],
  [85, 85, 255],
  [85, 255, 85],
  [85, 255, 255],
  [255, 85, 85],
  [255, 85, 255],
  [255, 255, 85],
  [255, 255, 255],
];

/** Palette given as hex "RRGGBB" strings (8-bit) or as 6-bit DAC triples. */
export function parsePalette(entries: (string | number[])[]): Rgb[] {
  return entries.map((e) => {
    if (typeof e === 'string') {
      const v = parseInt(e.replace(/^#/, ''), 16);
      return [(v >> 16) & 255, (v >> 8) & 255, v & 255] as Rgb;
    }
    return [dacTo8(e[0]), dacTo8(e[1]), dacTo8(e[2])] as Rgb;
  });
}

/** Palette indices → RGBA. */
export function indicesToRgba(indices: Uint8Array, palette: Rgb[]): Buffer {
  const out = Buffer.alloc(indices.length * 4);
  for (let i = 0; i < indices.length; i++) {
    const c = palette[indices[i]] ?? [0, 0, 0];
    out[i * 4] = c[0];
    out[i * 4 + 1] = c[1];
    out[i * 4 + 2] = c[2];
    out[i * 4 + 3] = 255;
  }
  return out;
}
