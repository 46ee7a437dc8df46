import { createHash } from 'node:crypto';
import { MAX_PROGRAM_BYTES, readRegularFile } from '../core/files.js';

/** Hash of the loaded program and its debug info: tells whether two replies speak of the same build. */
export async function computeBuildId(files: (string | undefined)[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    if (!file) {
      hash.update('\0none\0');
      continue;
    }
    try {
      hash.update(await readRegularFile(file, { maxBytes: 4 * MAX_PROGRAM_BYTES }));
    } catch {
      hash.update(`\0unreadable:${file}\0`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}
