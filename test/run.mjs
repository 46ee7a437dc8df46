// Runs every *.test.ts under test/ (or the files/folders given) with node's test runner.
// Node 20's runner does not discover .ts files itself, so we list them.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['test'];
const files = roots.flatMap((r) => collect(r, []));
// what the test files may share within this run (the packaged VSIX: test/support/vsix.ts)
const testWork = join(dirname(fileURLToPath(import.meta.url)), '..', '.test-work');
mkdirSync(testWork, { recursive: true });
const runDir = mkdtempSync(join(testWork, 'run-'));
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, RETRO_TEST_RUN_DIR: runDir } },
);
rmSync(runDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
