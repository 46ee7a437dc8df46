/**
 * Reads an assembly source a listing names, relative to the folder the assembler ran in: the workspace (the launch's
 * cwd), the listing's folder, or its parent (a listing written into build/).
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { readRegularFileSync } from '../core/files.js';

/** Sources larger than this are not read to place listing rows. */
const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

export function readSourceBeside(listingPath: string, workspace?: string): (file: string) => string | undefined {
  const folders = [...(workspace ? [workspace] : []), dirname(listingPath), dirname(dirname(listingPath))];
  return (file) => {
    for (const path of isAbsolute(file) ? [file] : folders.map((f) => resolve(f, file))) {
      try {
        return readRegularFileSync(path, { maxBytes: MAX_SOURCE_BYTES, what: 'assembly source' }).toString('latin1');
      } catch {
        /* not there: the next folder */
      }
    }
    return undefined;
  };
}
