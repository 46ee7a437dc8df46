/**
 * Estex DSS .EXE header (512 bytes; DSS reads the first 128): signature "EXE",
 * version, code offset, loader size, load/start/stack addresses; read and written. Pure.
 */
import { badRequest } from '../../core/errors.js';
import { WINDOW_SIZE } from './windows.js';
import { parseIntelHex } from '../../core/intel-hex.js';

export const EXE_HEADER_SIZE = 512;

export interface ExeHeader {
  version: number;
  /** file offset of the code */
  codeOffset: number;
  /** 0 = normal load; otherwise PRELOAD: only this many bytes are loaded */
  loaderSize: number;
  load: number;
  start: number;
  stack: number;
}

export function parseExeHeader(bytes: Uint8Array): ExeHeader {
  if (bytes.length < 0x16) throw badRequest(`A DSS EXE header needs at least 22 bytes; got ${bytes.length}.`);
  if (bytes[0] !== 0x45 || bytes[1] !== 0x58 || bytes[2] !== 0x45) {
    throw badRequest('Not a DSS EXE: it does not start with "EXE".');
  }
  const u16 = (o: number) => bytes[o] | (bytes[o + 1] << 8);
  const header: ExeHeader = {
    version: bytes[3],
    codeOffset: (u16(4) | (u16(6) << 16)) >>> 0,
    loaderSize: u16(8),
    load: u16(0x10),
    start: u16(0x12),
    stack: u16(0x14),
  };
  if (header.codeOffset < 0x16) throw badRequest(`The EXE code offset ${header.codeOffset} lies inside its header.`);
  if (header.load < 0x100)
    throw badRequest(`The EXE load address 0x${header.load.toString(16)} leaves no room for the 256-byte PSP.`);
  return header;
}

/** Pages DSS allocates for the image: ceil(((load & 0x3FFF) + size) / 16 KiB). */
export function pagesNeeded(header: ExeHeader, fileSize: number): number {
  const image = Math.max(0, fileSize - header.codeOffset);
  return Math.ceil(((header.load & (WINDOW_SIZE - 1)) + image) / WINDOW_SIZE);
}

/** Which windows get the block's pages 0, 1, …: from the window holding the load address upward. */
export function windowsForLoad(load: number): number[] {
  const first = load >> 14;
  return [1, 2, 3].filter((w) => w >= first);
}

/** PSP fields below the load address: command line at load−0x80 (IX), task id at IX−1, block id at IX−2. */
export function pspLayout(load: number): { commandLine: number; taskId: number; blockId: number; fileHandle: number } {
  const ix = load - 0x80;
  return { commandLine: ix, taskId: ix - 1, blockId: ix - 2, fileHandle: ix - 3 };
}

/** Stack DSS programs get when their build names none: the top of window 2, below window 3's paged memory. */
export const DEFAULT_EXE_STACK = 0xbfff;

/** A DSS .EXE (version 0, code at offset 512) from a linker's Intel HEX: load = start = its lowest address. */
export function exeFromIntelHex(text: string, name: string, stack = DEFAULT_EXE_STACK): Buffer {
  const { image, low, high } = parseIntelHex(text, 0x10000, name, 0); // gaps zeroed, as RAM
  if (high === 0) throw badRequest(`${name} holds no code.`);
  const header = Buffer.alloc(EXE_HEADER_SIZE);
  header.write('EXE', 0, 'latin1');
  header.writeUInt32LE(EXE_HEADER_SIZE, 4);
  header.writeUInt16LE(low, 0x10);
  header.writeUInt16LE(low, 0x12);
  header.writeUInt16LE(stack, 0x14);
  const exe = Buffer.concat([header, image.subarray(low, high)]);
  parseExeHeader(exe); // a load address below the PSP is refused here, as DSS would
  return exe;
}
