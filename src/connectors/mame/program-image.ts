/**
 * Turns a program file (raw .rom/.bin or Intel HEX .ihx) into the ROM image a
 * MAME driver loads, staged in our private rompath. The user's files are only read.
 */
import { extname } from 'node:path';
import { launchFailed } from '../../core/errors.js';
import { MAX_PROGRAM_BYTES, readRegularFile } from '../../core/files.js';
import { IHX_FILL, parseIntelHex } from '../../core/intel-hex.js';

/** Where a driver expects the program, as MAME's ROM set names it. */
export interface RomSlot {
  /** ROM set folder, e.g. "spectrum" */
  set: string;
  /** file name inside the set, e.g. "spectrum.rom" */
  file: string;
  size: number;
  /** the same image under these names too: the set's other ROMs, so whichever is paged in runs the program */
  copies?: string[];
}

/** Machines whose system ROM we replace with the program. */
const ROM_SLOTS: Record<string, RomSlot> = {
  spectrum: { set: 'spectrum', file: 'spectrum.rom', size: 16384 },
  // the 128K: ROM 0 at reset; bit 4 of port $7FFD pages ROM 1 in, which holds the same program
  spec128: { set: 'spec128', file: 'zx128_0.rom', size: 16384, copies: ['zx128_1.rom'] },
};

export function romSlotFor(machine: string): RomSlot | undefined {
  return ROM_SLOTS[machine];
}

export async function loadProgramImage(path: string, slot: RomSlot): Promise<Buffer> {
  let raw: Buffer;
  try {
    raw = await readRegularFile(path, { maxBytes: MAX_PROGRAM_BYTES, what: 'program file' });
  } catch (err) {
    throw launchFailed((err as Error).message, { path });
  }
  const image =
    extname(path).toLowerCase() === '.ihx' || extname(path).toLowerCase() === '.hex'
      ? ihxToImage(raw.toString('latin1'), slot.size, path)
      : raw;
  if (image.length > slot.size) {
    throw launchFailed(
      `The program ${path} is ${image.length} bytes; the ${slot.set} ROM holds at most ${slot.size}.`,
      { path },
    );
  }
  const out = Buffer.alloc(slot.size, IHX_FILL);
  image.copy(out);
  return out;
}

/** Intel HEX into a flat image starting at address 0, up to the highest address written. */
export function ihxToImage(text: string, size: number, name = 'the .ihx file'): Buffer {
  const { image, high } = parseIntelHex(text, size, name);
  return image.subarray(0, high);
}
