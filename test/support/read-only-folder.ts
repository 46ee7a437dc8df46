// A folder made read-only for the duration of a test. The suite runs as root, which a chmod refuses nothing: there
// the folder is bind-mounted read-only on itself (the file system then answers EROFS); the returned function undoes it.
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';

export function makeReadOnly(dir: string): () => void {
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o555);
    return () => chmodSync(dir, 0o755);
  }
  execFileSync('mount', ['--bind', dir, dir]);
  try {
    execFileSync('mount', ['-o', 'remount,bind,ro', dir]);
  } catch (err) {
    execFileSync('umount', [dir]);
    throw err;
  }
  return () => execFileSync('umount', [dir]);
}
