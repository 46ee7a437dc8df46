/** Packages the extension with `npm run package`'s own script and lists a VSIX's entries. */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { oncePerRun } from './test-run.js';
import { REPO_ROOT } from './zx-fixture.js';

export function packageVsix(outFile: string): void {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'package-vsix.mjs'), outFile], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
    timeout: 240_000,
  });
}

/** packageVsix once per test run (the e2e files each install the same VSIX); a file run alone packages afresh. */
export function packageVsixOncePerRun(outFile: string): void {
  const shared = oncePerRun('retro-debug.vsix', packageVsix);
  if (shared) copyFileSync(shared, outFile);
  else packageVsix(outFile);
}

/** Entry names of a VSIX (a zip), with Debian's unzip. */
export function vsixEntries(vsix: string): string[] {
  return execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n');
}
