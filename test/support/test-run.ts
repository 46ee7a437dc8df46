/**
 * What the files of one `node test/run.mjs` run share, in the folder run.mjs names in RETRO_TEST_RUN_DIR (and
 * removes after the run): things nothing changes during a run (npm test builds before it starts), made by the first
 * file that needs them. A file run alone (no such folder) makes its own.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/** The run's `name`, made by `make(path)` if no file made it yet; undefined outside a run. */
export function oncePerRun(name: string, make: (path: string) => void): string | undefined {
  const runDir = process.env.RETRO_TEST_RUN_DIR;
  if (!runDir) return undefined;
  const shared = join(runDir, name);
  if (!existsSync(shared)) {
    const partial = join(runDir, `${process.pid}-${name}`); // renamed whole: another file never sees half of it
    make(partial);
    renameSync(partial, shared);
  }
  return shared;
}
