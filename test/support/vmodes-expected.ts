/**
 * The pictures VMODES.COM (test/fixtures/dos/vmodes.asm) draws, computed from
 * the program's formulas, one pixel value per pixel.
 */

/** The glyph VMODES loads for character 80h. */
export const VMODES_GLYPH = Uint8Array.of(
  0xff,
  0x81,
  0xc3,
  0xa5,
  0x99,
  0x99,
  0xa5,
  0xc3,
  0x81,
  0xff,
  0,
  0x18,
  0x3c,
  0x7e,
  0,
  0xaa,
);

const planeByte = (p: number, y: number, b: number) => (y + 3 * b + 37 * p) & 255;

/** `font` (256 glyphs of 16 rows) is needed for 'T'. */
export function expectedVmode(
  letter: string,
  font?: Uint8Array,
): { width: number; height: number; pixels: Uint8Array } {
  const make = (width: number, height: number, f: (x: number, y: number) => number) => {
    const pixels = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = f(x, y);
    return { width, height, pixels };
  };
  const cga = (bpp: number) => (x: number, y: number) => {
    const per = 8 / bpp;
    const byte = (y + 3 * Math.floor(x / per)) & 255;
    return (byte >> (8 - bpp * ((x % per) + 1))) & ((1 << bpp) - 1);
  };
  const planar = (x: number, y: number) => {
    let v = 0;
    for (let p = 0; p < 4; p++) v |= ((planeByte(p, y, x >> 3) >> (7 - (x & 7))) & 1) << p;
    return v;
  };
  switch (letter) {
    case 'C':
      return make(320, 200, cga(2));
    case 'H':
      return make(640, 200, cga(1));
    case 'D':
      return make(320, 200, planar);
    case 'E':
      return make(640, 200, planar);
    case 'F':
      return make(640, 350, planar);
    case 'G':
      return make(640, 480, planar);
    case 'X':
      return make(320, 200, (x, y) => planeByte(x & 3, y, x >> 2));
    case 'T':
      return make(640, 400, (x, y) => {
        const k = Math.floor(y / 16) * 80 + (x >> 3);
        const attr = (13 * k) & 0x7f;
        const bits = font![((7 * k) & 255) * 16 + (y % 16)];
        return bits & (0x80 >> (x & 7)) ? attr & 15 : (attr >> 4) & 7;
      });
  }
  throw new Error(`VMODES draws no mode ${letter}`);
}
