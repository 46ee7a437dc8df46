/** Packages the extension with `npm run package`'s own script and lists a VSIX's entries. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './zx-fixture.js';

export function packageVsix(outFile: string): void {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'package-vsix.mjs'), outFile], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
    timeout: 240_000,
  });
}

/** Entry names of a VSIX (a zip), with Debian's unzip. */
export function vsixEntries(vsix: string): string[] {
  return execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).trim().split('\n');
}
