/**
 * VICE's binary monitor carries a file name in at most 255 bytes. A longer
 * program path (deep folders, non-ASCII names take 2–4 bytes a character) is
 * autostarted from a copy in a folder of this process's own, which is removed
 * when the process exits; the caller says so.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';

export const MONITOR_PATH_BYTES = 255;

let root: string | undefined;

/** The folder the copies live in (made on first use, removed at exit). */
export function stagingRoot(): string {
  if (!root) {
    const made = mkdtempSync(join(tmpdir(), 'retro-debug-prg-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    root = made;
  }
  return root;
}

export function fitsMonitor(path: string): boolean {
  return Buffer.byteLength(path, 'utf8') <= MONITOR_PATH_BYTES;
}

/** The path the monitor is given: `path` itself, or a copy under a short name, with a sentence saying why. */
export function monitorPath(path: string): { path: string; note?: string } {
  if (fitsMonitor(path)) return { path };
  const copy = join(mkdtempSync(join(stagingRoot(), 'p-')), `program${extname(path).slice(0, 8)}`);
  copyFileSync(path, copy);
  return {
    path: copy,
    note: `The program's path is ${Buffer.byteLength(path, 'utf8')} bytes, longer than the monitor's ${MONITOR_PATH_BYTES}: autostarting a copy, ${copy}.`,
  };
}
