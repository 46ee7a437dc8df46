/**
 * The open Sprinter ROM image (rom/sprinter/*.s; docs/sprinter-rom.md), laid out as MAME's `sprinter` set expects
 * its 256 KiB BIOS file: stage 1 in ROM page 12 (where the CPU starts), the BIOS in page 8 with its font and the
 * parameters of the staged program, the program's code in pages 0.. for the BIOS to copy to its load address. Pure.
 */
import { badRequest, tooLarge } from '../../core/errors.js';
import { GLYPH_ROWS } from '../glyphs.js';
import type { ExeHeader } from './exe-header.js';

export const ROM_PAGE = 0x4000;
export const ROM_SIZE = 0x40000;
/** the file name of MAME 0.276's default BIOS set, which the open ROM stands in for */
export const OPEN_ROM_FILE = 'sp2k-3.04.253.rom';
const BOOT_PAGE = 12;
const BIOS_PAGE = 8;
/** in the BIOS page (bios.s: FONT, PARAMS) */
const FONT_AT = 0x3000;
const PARAMS_AT = 0x3f00;
/** the BIOS copies the code with a routine it puts at 0x4000 and builds the PSP below the load address */
export const MIN_LOAD = 0x4100;
const CMDLINE_MAX = 127;

/** 256 glyphs of 8 rows (bit 7 = left), from this project's glyph shapes; characters without one show a box. */
export function openRomFont(): Uint8Array {
  const font = new Uint8Array(256 * 8);
  const box = [0x7e, 0x42, 0x42, 0x42, 0x42, 0x42, 0x7e, 0x00];
  for (let code = 0x21; code < 0x7f; code++) {
    const rows = GLYPH_ROWS[String.fromCharCode(code)]?.split('|');
    for (let r = 0; r < 8; r++)
      font[code * 8 + r] = rows ? rows[r].split('').reduce((b, c, i) => (c === '#' ? b | (0x40 >> i) : b), 0) : box[r];
  }
  return font;
}

export interface StagedExe {
  header: ExeHeader;
  /** the code as DSS loads it: the file from the code offset, at most up to the end of the 64 KiB space */
  code: Uint8Array;
}

/** The code DSS loads from an EXE file. */
export function exeCode(file: Uint8Array, header: ExeHeader, path: string): StagedExe {
  const code = file.subarray(header.codeOffset, header.codeOffset + (0x10000 - header.load));
  if (code.length === 0) throw badRequest(`${path} has no code after its header (code offset ${header.codeOffset}).`);
  if (header.codeOffset + code.length < file.length)
    throw tooLarge(
      `${path} has ${file.length - header.codeOffset} bytes of code: more than fits from 0x${header.load.toString(16)} to 0xFFFF.`,
    );
  return { header, code };
}

/** The 256 KiB image: `boot` and `bios` are the assembled pages (16 KiB each), `exe` the program to start. */
export function openRomImage(boot: Uint8Array, bios: Uint8Array, exe?: StagedExe, commandLine = ''): Uint8Array {
  if (boot.length !== ROM_PAGE || bios.length !== ROM_PAGE)
    throw badRequest(
      `The open Sprinter ROM's pages must be ${ROM_PAGE} bytes each (got ${boot.length} and ${bios.length}).`,
    );
  const image = new Uint8Array(ROM_SIZE);
  image.set(boot, BOOT_PAGE * ROM_PAGE);
  const biosAt = BIOS_PAGE * ROM_PAGE;
  image.set(bios, biosAt);
  image.set(openRomFont(), biosAt + FONT_AT);
  if (!exe) return image;
  const { header, code } = exe;
  if (header.loaderSize !== 0)
    throw badRequest(
      `A PRELOAD EXE (loader size ${header.loaderSize}): the open Sprinter ROM loads whole programs only.`,
    );
  if (header.load < MIN_LOAD)
    throw badRequest(
      `The EXE loads at 0x${header.load.toString(16)}; the open Sprinter ROM runs programs loaded at 0x${MIN_LOAD.toString(16)} or above (window 0 holds the ROM).`,
    );
  image.set(code, 0);
  const params = new DataView(image.buffer, biosAt + PARAMS_AT, 0x100);
  'RDS'.split('').forEach((c, i) => params.setUint8(i, c.charCodeAt(0)));
  params.setUint8(3, 1);
  params.setUint16(4, header.load, true);
  params.setUint16(6, header.start, true);
  params.setUint16(8, header.stack, true);
  const pages = Math.ceil(code.length / ROM_PAGE);
  params.setUint8(10, pages);
  params.setUint16(11, code.length - (pages - 1) * ROM_PAGE, true);
  const cmd = Buffer.from(commandLine.slice(0, CMDLINE_MAX), 'latin1');
  params.setUint8(16, cmd.length);
  image.set(cmd, biosAt + PARAMS_AT + 17);
  return image;
}
