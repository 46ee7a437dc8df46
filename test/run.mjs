// Runs every *.test.ts under test/ (or the files/folders given) with node's test runner.
// Node 20's runner does not discover .ts files itself, so we list them.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
