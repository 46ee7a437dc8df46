import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { staleBuild } from '../core/errors.js';
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

/**
 * Notices a program rebuilt under a running session: the files' size and
 * modification time are looked at on each placement (cheap), the hash only
 * when they moved, and a different hash refuses with stale_build. Files that
 * are gone (a folder renamed away) are no rebuild.
 */
export class BuildWatch {
  private signature?: Promise<string>;

  constructor(
    private readonly files: string[],
    private readonly loaded: string,
  ) {
    this.signature = this.stamp();
  }

  async assertSame(): Promise<void> {
    const [then, now] = await Promise.all([this.signature, this.stamp()]);
    if (now === then) return;
    // a file moved or deleted is no new build: what the session loaded is still what runs; checked again if it returns
    if (now.split('|').includes('gone')) return;
    const onDisk = await computeBuildId(this.files);
    if (onDisk !== this.loaded) throw staleBuild(this.loaded, onDisk, this.files);
    this.signature = Promise.resolve(now); // touched, same bytes
  }

  private async stamp(): Promise<string> {
    const parts = await Promise.all(
      this.files.map((f) =>
        stat(f).then(
          (s) => `${s.size}:${s.mtimeMs}`,
          () => 'gone',
        ),
      ),
    );
    return parts.join('|');
  }
}
