/** Reads a source file named in debug info, relative to the debug-info file's folder (bounded size). */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

export function readSourceNear(debugInfoPath: string, name: string): string | undefined {
  const full = isAbsolute(name) ? name : resolve(dirname(debugInfoPath), name);
  try {
    if (statSync(full).size > MAX_SOURCE_BYTES) return undefined;
    return readFileSync(full, 'latin1');
  } catch {
    return undefined;
  }
}
