/**
 * Immutable 256-entry tables for PETSCII (CHR$ codes) and C64 screen codes in
 * both character sets. Source: Commodore 64 Programmer's Reference Guide,
 * Appendix C "ASCII and CHR$ codes" (PETSCII) and Appendix B "Screen display
 * codes"; the printable PETSCII codes show the screen-code glyph named below.
 */
import { GLYPHS, type CharSet } from './screen-codes.js';

export type { CharSet } from './screen-codes.js';
export type Encoding = 'petscii' | 'screen';

export type CodeEntry =
  | { kind: 'char'; codePoint: number; screenCode: number; reverse: boolean }
  | { kind: 'control'; name: string }
  | { kind: 'undefined' };

/** Control codes PRG Appendix C lists (the same in both character sets). */
export const CONTROL_NAMES: ReadonlyMap<number, string> = new Map([
  [0x05, 'WHT'],
  [0x08, 'LOCK'],
  [0x09, 'UNLOCK'],
  [0x0d, 'RETURN'],
  [0x0e, 'LOWER'],
  [0x11, 'DOWN'],
  [0x12, 'RVS ON'],
  [0x13, 'HOME'],
  [0x14, 'DEL'],
  [0x1c, 'RED'],
  [0x1d, 'RIGHT'],
  [0x1e, 'GRN'],
  [0x1f, 'BLU'],
  [0x81, 'ORNG'],
  [0x85, 'F1'],
  [0x86, 'F3'],
  [0x87, 'F5'],
  [0x88, 'F7'],
  [0x89, 'F2'],
  [0x8a, 'F4'],
  [0x8b, 'F6'],
  [0x8c, 'F8'],
  [0x8d, 'SHIFT RETURN'],
  [0x8e, 'UPPER'],
  [0x90, 'BLK'],
  [0x91, 'UP'],
  [0x92, 'RVS OFF'],
  [0x93, 'CLR'],
  [0x94, 'INST'],
  [0x95, 'BRN'],
  [0x96, 'LT RED'],
  [0x97, 'GRY1'],
  [0x98, 'GRY2'],
  [0x99, 'LT GRN'],
  [0x9a, 'LT BLU'],
  [0x9b, 'GRY3'],
  [0x9c, 'PUR'],
  [0x9d, 'LEFT'],
  [0x9e, 'YEL'],
  [0x9f, 'CYN'],
]);

/** The screen code a printable PETSCII code displays as; undefined for control codes. */
export function petsciiToScreenCode(code: number): number | undefined {
  if (code >= 0x20 && code <= 0x3f) return code;
  if (code >= 0x40 && code <= 0x5f) return code - 0x40;
  if (code >= 0x60 && code <= 0x7f) return code - 0x20;
  if (code >= 0xa0 && code <= 0xbf) return code - 0x40;
  if (code >= 0xc0 && code <= 0xdf) return code - 0x80;
  if (code >= 0xe0 && code <= 0xfe) return code - 0x80;
  if (code === 0xff) return 0x5e; // CHR$(255) is π, shown as screen code 94
  return undefined;
}

function charEntry(set: CharSet, screenCode: number): CodeEntry {
  return Object.freeze({
    kind: 'char',
    codePoint: GLYPHS[set][screenCode & 0x7f],
    screenCode,
    reverse: screenCode >= 0x80,
  });
}

function buildTable(encoding: Encoding, set: CharSet): readonly CodeEntry[] {
  const table: CodeEntry[] = [];
  for (let code = 0; code < 256; code++) {
    if (encoding === 'screen') {
      table.push(charEntry(set, code));
      continue;
    }
    const screen = petsciiToScreenCode(code);
    if (screen !== undefined) table.push(charEntry(set, screen));
    else {
      const name = CONTROL_NAMES.get(code);
      table.push(Object.freeze(name ? ({ kind: 'control', name } as const) : ({ kind: 'undefined' } as const)));
    }
  }
  return Object.freeze(table);
}

/** TABLES[encoding][charset][byte] */
export const TABLES: Readonly<Record<Encoding, Readonly<Record<CharSet, readonly CodeEntry[]>>>> = Object.freeze({
  petscii: Object.freeze({
    upper_graphics: buildTable('petscii', 'upper_graphics'),
    lower_upper: buildTable('petscii', 'lower_upper'),
  }),
  screen: Object.freeze({
    upper_graphics: buildTable('screen', 'upper_graphics'),
    lower_upper: buildTable('screen', 'lower_upper'),
  }),
});

/** Where the tables come from, recorded in results. */
export const TABLE_SOURCE =
  "Commodore 64 Programmer's Reference Guide (Commodore Business Machines / Howard W. Sams, 1982), " +
  'Appendix B "Screen display codes" and Appendix C "ASCII and CHR$ codes"';
