/**
 * A 1541 disk image (.d64, 35 tracks, with or without the error bytes):
 * the BAM's disk name and free blocks, the directory chain on track 18 and
 * each file's sector chain. Pure: bytes in, names and file contents out;
 * a broken chain (a loop, a track out of range) is an error naming the file.
 */
import { badRequest } from '../../core/errors.js';
import type { FileType } from './cbm-dos.js';

const SIZE = 174848;
const SIZE_WITH_ERRORS = 175531;
const TYPES: Record<number, FileType> = { 1: 'SEQ', 2: 'PRG', 3: 'USR', 4: 'REL' };

export interface D64Entry {
  /** the name as PETSCII bytes ($A0 padding removed) */
  name: number[];
  type: FileType;
  blocks: number;
  track: number;
  sector: number;
}

function sectorsOn(track: number): number {
  return track <= 17 ? 21 : track <= 24 ? 19 : track <= 30 ? 18 : 17;
}

export class D64Image {
  readonly entries: D64Entry[] = [];
  readonly diskName: number[];
  readonly freeBlocks: number;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly label = 'the .d64 image',
  ) {
    if (bytes.length !== SIZE && bytes.length !== SIZE_WITH_ERRORS)
      throw badRequest(
        `${label} is ${bytes.length} bytes; a 35-track .d64 is ${SIZE} (or ${SIZE_WITH_ERRORS} with error bytes).`,
      );
    const bam = this.sector(18, 0);
    this.diskName = unpad(bam.subarray(0x90, 0xa0));
    let free = 0;
    for (let t = 1; t <= 35; t++) if (t !== 18) free += bam[4 * t];
    this.freeBlocks = free;
    for (const block of this.chain(18, 1, 'the directory')) {
      for (let i = 0; i < 8; i++) {
        const e = block.subarray(i * 32, i * 32 + 32);
        const type = TYPES[e[2] & 0x07];
        if (!(e[2] & 0x80) || !type) continue; // deleted or not closed
        this.entries.push({
          name: unpad(e.subarray(5, 21)),
          type,
          blocks: e[30] | (e[31] << 8),
          track: e[3],
          sector: e[4],
        });
      }
    }
  }

  /** A file's contents, following its sector chain. */
  read(entry: D64Entry): Uint8Array {
    const out: number[] = [];
    for (const block of this.chain(entry.track, entry.sector, 'a file')) {
      const used = block[0] === 0 ? block[1] - 1 : 254;
      out.push(...block.subarray(2, 2 + Math.max(0, used)));
    }
    return Uint8Array.from(out);
  }

  private sector(track: number, sector: number): Uint8Array {
    if (track < 1 || track > 35 || sector >= sectorsOn(track))
      throw badRequest(`${this.label} has a link to track ${track} sector ${sector}, which a 1541 disk does not have.`);
    let offset = 0;
    for (let t = 1; t < track; t++) offset += sectorsOn(t) * 256;
    offset += sector * 256;
    return this.bytes.subarray(offset, offset + 256);
  }

  /** The blocks of a chain (byte 0: next track, 0 at the end; byte 1: next sector or the last byte used). */
  private *chain(track: number, sector: number, what: string): Generator<Uint8Array> {
    const seen = new Set<number>();
    for (let t = track, s = sector; ;) {
      const key = t * 256 + s;
      if (seen.has(key)) throw badRequest(`${this.label}: ${what}'s sector chain loops at track ${t} sector ${s}.`);
      seen.add(key);
      const block = this.sector(t, s);
      yield block;
      if (block[0] === 0) return;
      [t, s] = [block[0], block[1]];
    }
  }
}

function unpad(bytes: Uint8Array): number[] {
  const out = [...bytes];
  while (out.length && out[out.length - 1] === 0xa0) out.pop();
  return out;
}
