/**
 * Turns a program file (raw .rom/.bin or Intel HEX .ihx) into the ROM image a
 * MAME driver loads, staged in our private rompath. The user's files are only read.
 */
import { extname } from 'node:path';
import { launchFailed } from '../../core/errors.js';
import { MAX_PROGRAM_BYTES, readRegularFile } from '../../core/files.js';

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

/** Erased-EPROM fill, as makebin pads. */
const FILL = 0xff;

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
  const out = Buffer.alloc(slot.size, FILL);
  image.copy(out);
  return out;
}

/** Intel HEX (record types 00 data, 01 end) into a flat image starting at address 0. */
export function ihxToImage(text: string, size: number, name = 'the .ihx file'): Buffer {
  const out = Buffer.alloc(size, FILL);
  let used = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const bad = (why: string) => launchFailed(`${name} line ${i + 1}: ${why}`);
    if (!/^:([0-9a-fA-F]{2})+$/.test(line)) throw bad('not an Intel HEX record');
    const rec = Buffer.from(line.slice(1), 'hex');
    const count = rec[0];
    if (rec.length !== count + 5) throw bad('record length does not match its byte count');
    const sum = rec.reduce((a, b) => (a + b) & 0xff, 0);
    if (sum !== 0) throw bad('checksum mismatch');
    const type = rec[3];
    if (type === 1) break;
    if (type !== 0) continue; // extended address records do not occur for 64 KiB Z80 images
    const addr = rec.readUInt16BE(1);
    if (addr + count > size) throw bad(`data at 0x${addr.toString(16)} lies beyond the ${size}-byte ROM`);
    rec.copy(out, addr, 4, 4 + count);
    used = Math.max(used, addr + count);
  }
  return out.subarray(0, used);
}
