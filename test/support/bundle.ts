/** The bundle in dist/ that tests start the CLI and the debug adapter from, made fresh from the sources. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { oncePerRun } from './test-run.js';
import { REPO_ROOT } from './zx-fixture.js';

function buildBundle(): void {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`bundle failed (node esbuild.mjs): ${build.stderr}`);
}

/** Builds dist/ once per test run (the first file that needs it), or every time for a file run alone. */
export function freshBundle(): void {
  const built = oncePerRun('bundle-built', (marker) => {
    buildBundle();
    writeFileSync(marker, '');
  });
  if (!built) buildBundle();
}
