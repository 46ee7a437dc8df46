/**
 * The cycles the VIC-II takes from the CPU on one raster line (PAL 6569):
 * a badline (decided by the raster sequencer, vic-raster.ts) fetches 40
 * screen codes with the CPU held from 3 cycles before; each sprite whose DMA
 * runs on the line takes 2 cycles, and a run of them 3 more for the bus
 * hand-over. Counted per line, not per cycle: timing over frames and jiffies
 * is VICE's, the cycle inside a line is not.
 */
export const BADLINE_CYCLES = 43;
const SPRITE_CYCLES = 2;
const SPRITE_BA_CYCLES = 3;

export function stolenCycles(badline: boolean, sprites: number): number {
  const stolen = badline ? BADLINE_CYCLES : 0;
  return sprites ? stolen + SPRITE_BA_CYCLES + sprites * SPRITE_CYCLES : stolen;
}
