// Runs every *.test.ts under test/ (or the files/folders given) with node's test runner.
// Node 20's runner does not discover .ts files itself, so we list them.
import { availableParallelism } from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

function collect(path, out) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (name === 'node_modules' || name === 'fixtures') continue;
      collect(join(path, name), out);
    }
  } else if (path.endsWith('.test.ts')) out.push(path);
  return out;
}

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['test'];
const files = roots.flatMap((r) => collect(r, []));

// Files that start no emulator, browser or server and wait for no clock run two at a time (their ~1 s of start-up
// each is most of their time); the rest one at a time, after them, as a file that waits for time could see another
// file's load as a slow program.
const waitsForTime = /setTimeout|setInterval|sleep\(|Date\.now\(\)|performance\.now|waitFor|until\(/;
const concurrent = (f) =>
  /^test\/(unit|lsp|fuzz)\//.test(relative(repo, resolve(f))) && !waitsForTime.test(readFileSync(f, 'utf8'));
const groups = [
  { files: files.filter(concurrent), concurrency: Math.min(2, availableParallelism()) },
  { files: files.filter((f) => !concurrent(f)), concurrency: 1 },
].filter((g) => g.files.length);

// what the test files may share within this run (the packaged VSIX, the bundle: test/support/test-run.ts)
const testWork = join(repo, '.test-work');
mkdirSync(testWork, { recursive: true });
const runDir = mkdtempSync(join(testWork, 'run-'));
let failed = false;
for (const g of groups) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${g.concurrency}`, '--test-reporter=spec', ...g.files],
    { stdio: 'inherit', env: { ...process.env, RETRO_TEST_RUN_DIR: runDir } },
  );
  if (result.status !== 0) failed = true;
}
rmSync(runDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
