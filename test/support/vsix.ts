/** Packages the extension with `npm run package`'s own script and lists a VSIX's entries. */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './zx-fixture.js';

export function packageVsix(outFile: string): void {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'package-vsix.mjs'), outFile], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
    timeout: 240_000,
  });
}

/**
 * packageVsix, once per `npm test` run: test/run.mjs names a folder for the run in RETRO_TEST_RUN_DIR, and nothing
 * the VSIX is made of changes during a run (npm test builds before it starts), so the first caller packages and the
 * others copy. A file run alone packages afresh.
 */
export function packageVsixOncePerRun(outFile: string): void {
  const runDir = process.env.RETRO_TEST_RUN_DIR;
  if (!runDir) return packageVsix(outFile);
  const shared = join(runDir, 'retro-debug.vsix');
  if (!existsSync(shared)) {
    const partial = join(runDir, `packaging-${process.pid}.vsix`); // renamed whole: a reader never sees half a file
    packageVsix(partial);
    renameSync(partial, shared);
  }
  copyFileSync(shared, outFile);
}

/** Entry names of a VSIX (a zip), with Debian's unzip. */
export function vsixEntries(vsix: string): string[] {
  return execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n');
}
