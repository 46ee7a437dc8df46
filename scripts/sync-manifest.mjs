// Writes the generated `contributes` section (src/host/manifest.ts) into package.json.
// `--check` only compares and exits 1 when package.json is out of date.
// Run: node --import tsx scripts/sync-manifest.mjs [--check]
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { contributes } from '../src/host/manifest.ts';
import { CONNECTORS } from '../src/connectors/registry.ts';

const packagePath = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
const manifest = JSON.parse(readFileSync(packagePath, 'utf8'));
const wanted = contributes(CONNECTORS);

if (isDeepStrictEqual(manifest.contributes, wanted)) {
  console.log('package.json contributes: up to date');
} else if (process.argv.includes('--check')) {
  console.error('package.json contributes is out of date: run `node --import tsx scripts/sync-manifest.mjs`');
  process.exit(1);
} else {
  manifest.contributes = wanted;
  const tmp = `${packagePath}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, packagePath);
  console.log('package.json contributes: updated');
}
