// No source file over 500 lines (issue 9): small files with one job.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LIMIT = 500;
const roots = ['src', 'media'];
const long = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|lua|mjs)$/.test(name)) {
      const lines = readFileSync(path, 'utf8').split('\n').length;
      if (lines > LIMIT) long.push(`${path}: ${lines} lines`);
    }
  }
}
roots.forEach(walk);
if (long.length) {
  console.error(`Files over ${LIMIT} lines:\n  ${long.join('\n  ')}`);
  process.exit(1);
}
