/**
 * The cycles the VIC-II takes from the CPU on one raster line (PAL 6569):
 * a badline (display enabled, lines $30-$F7, the line's low 3 bits equal to
 * YSCROLL) fetches 40 screen codes with the CPU held from 3 cycles before;
 * each sprite whose DMA runs on the line takes 2 cycles, and a run of them
 * 3 more for the bus hand-over. Counted per line, not per cycle: timing over
 * frames and jiffies is VICE's, the cycle inside a line is not.
 */
export const BADLINE_CYCLES = 43;
const SPRITE_CYCLES = 2;
const SPRITE_BA_CYCLES = 3;

export function stolenCycles(vic: Uint8Array, line: number): number {
  let stolen = 0;
  if (vic[0x11] & 0x10 && line >= 0x30 && line <= 0xf7 && (line & 7) === (vic[0x11] & 7)) stolen += BADLINE_CYCLES;
  const enabled = vic[0x15];
  if (!enabled) return stolen;
  let sprites = 0;
  for (let s = 0; s < 8; s++) {
    if (!(enabled & (1 << s))) continue;
    const height = vic[0x17] & (1 << s) ? 42 : 21;
    if (((line & 0xff) - ((vic[1 + s * 2] + 1) & 0xff) + 256) % 256 < height) sprites++;
  }
  return sprites ? stolen + SPRITE_BA_CYCLES + sprites * SPRITE_CYCLES : stolen;
}
