/**
 * The cc65 runtime's and libraries' labels (`pushax`, `incsp2`, `tosmulax`) for a program's .dbg: ld65 writes
 * debug info only for what was assembled with it, so the runtime's routines are named only in the label file it
 * writes beside (`-Ln`, VICE's `al 000BBE .pushax`) or in its map file's exports (`-m`). Read when one of them has
 * the .dbg's name with its own extension.
 */
import { existsSync } from 'node:fs';
import { readRegularFileSync } from '../core/files.js';

export interface NamedAddress {
  name: string;
  address: number;
}

const MAX_LABEL_FILE_BYTES = 4 * 1024 * 1024;

/** `al 000BBE .pushax` (ld65 -Ln, VICE's monitor labels; `C:` before the address in VICE's own). */
export function parseViceLabels(text: string): NamedAddress[] {
  const out: NamedAddress[] = [];
  for (const m of text.matchAll(/^al\s+(?:C:)?([0-9a-f]+)\s+\.([A-Za-z_][\w.]*)\s*$/gim))
    out.push({ name: m[2], address: parseInt(m[1], 16) });
  return out;
}

/** ld65's map file: the "Exports list by name" table, two `name address type` columns a line. */
export function parseLd65MapExports(text: string): NamedAddress[] {
  const start = text.indexOf('Exports list by name:');
  if (start < 0) return [];
  const out: NamedAddress[] = [];
  const lines = text.slice(start).split('\n').slice(2); // the title and its dashes
  for (const line of lines) {
    if (!line.trim()) break;
    for (const m of line.matchAll(/([A-Za-z_][\w.]*)\s+([0-9A-F]{6})\s+[A-Z]{2,3}/g))
      out.push({ name: m[1], address: parseInt(m[2], 16) });
  }
  return out;
}

/** The labels of the `.lbl` or `.map` beside a .dbg (same name), or none. */
export function labelsBeside(dbgPath: string): NamedAddress[] {
  const stem = dbgPath.replace(/\.dbg$/i, '');
  for (const [ext, parse] of [
    ['.lbl', parseViceLabels],
    ['.map', parseLd65MapExports],
  ] as const) {
    const path = stem + ext;
    if (!existsSync(path)) continue;
    try {
      return parse(
        readRegularFileSync(path, { maxBytes: MAX_LABEL_FILE_BYTES, what: 'label file' }).toString('latin1'),
      );
    } catch {
      return []; // a label file is a nicety: the program debugs without it
    }
  }
  return [];
}
