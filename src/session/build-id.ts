import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** Hash of the loaded program and its debug info: tells whether two replies speak of the same build. */
export async function computeBuildId(files: (string | undefined)[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    if (!file) {
      hash.update('\0none\0');
      continue;
    }
    try {
      hash.update(await readFile(file));
    } catch {
      hash.update(`\0missing:${file}\0`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}
