/**
 * The C64 character ROM's 128 glyphs per set, indexed by screen code, as
 * Unicode code points. Source: Commodore 64 Programmer's Reference Guide,
 * Appendix B "Screen display codes" (set 1 = upper case/graphics, set 2 =
 * lower/upper case). Graphics glyphs use the nearest Unicode character,
 * preferring "Symbols for Legacy Computing" (U+1FB00) where Unicode 13 encoded
 * the C64's own shapes. Codes $80-$FF are the same glyphs in reverse video.
 */

export type CharSet = 'upper_graphics' | 'lower_upper';

/** Screen codes $40-$7F of set 1 (PRG Appendix B, "SET 1" column, codes 64-127). */
const SET1_GRAPHICS: readonly number[] = [
  0x2500,
  0x2660,
  0x1fb72,
  0x1fb78,
  0x1fb77,
  0x1fb76,
  0x1fb7a,
  0x1fb71, // $40-$47
  0x1fb74,
  0x256e,
  0x2570,
  0x256f,
  0x1fb7c,
  0x2572,
  0x2571,
  0x1fb7d, // $48-$4F
  0x1fb7e,
  0x25cf,
  0x1fb7b,
  0x2665,
  0x1fb70,
  0x256d,
  0x2573,
  0x25cb, // $50-$57
  0x2663,
  0x1fb75,
  0x2666,
  0x253c,
  0x1fb8c,
  0x2502,
  0x03c0,
  0x25e5, // $58-$5F
  0x00a0,
  0x258c,
  0x2584,
  0x2594,
  0x2581,
  0x258f,
  0x2592,
  0x2595, // $60-$67
  0x1fb8f,
  0x25e4,
  0x1fb87,
  0x251c,
  0x2597,
  0x2514,
  0x2510,
  0x2582, // $68-$6F
  0x250c,
  0x2534,
  0x252c,
  0x2524,
  0x258e,
  0x258d,
  0x1fb88,
  0x1fb82, // $70-$77
  0x1fb83,
  0x2583,
  0x1fb7f,
  0x2596,
  0x259d,
  0x2518,
  0x2598,
  0x259a, // $78-$7F
];

/** Where set 2 differs from set 1 in $40-$7F besides the letters $41-$5A. */
const SET2_GRAPHICS_OVERRIDES: ReadonlyMap<number, number> = new Map([
  [0x5e, 0x1fb96], // checkerboard
  [0x5f, 0x1fb98], // diagonal fill, upper left to lower right
  [0x69, 0x1fb99], // diagonal fill, upper right to lower left
  [0x7a, 0x2713], // check mark
]);

function glyphsOf(set: CharSet): readonly number[] {
  const glyphs: number[] = [];
  for (let code = 0; code < 0x80; code++) {
    let cp: number;
    if (code === 0x00)
      cp = 0x40; // @
    else if (code <= 0x1a)
      cp = (set === 'upper_graphics' ? 0x40 : 0x60) + code; // A-Z / a-z
    else if (code === 0x1c)
      cp = 0xa3; // £
    else if (code === 0x1e)
      cp = 0x2191; // ↑
    else if (code === 0x1f)
      cp = 0x2190; // ←
    else if (code < 0x20)
      cp = code + 0x40; // [ ]
    else if (code < 0x40)
      cp = code; // $20-$3F match ASCII
    else if (set === 'lower_upper' && code >= 0x41 && code <= 0x5a)
      cp = code; // A-Z
    else cp = (set === 'lower_upper' ? SET2_GRAPHICS_OVERRIDES.get(code) : undefined) ?? SET1_GRAPHICS[code - 0x40];
    glyphs.push(cp);
  }
  return Object.freeze(glyphs);
}

/** Code point of each screen code $00-$7F per character set (immutable). */
export const GLYPHS: Readonly<Record<CharSet, readonly number[]>> = Object.freeze({
  upper_graphics: glyphsOf('upper_graphics'),
  lower_upper: glyphsOf('lower_upper'),
});
