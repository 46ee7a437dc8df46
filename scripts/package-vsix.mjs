// `npm run package`: the esbuild bundle, then the VSIX with @vscode/vsce (contents chosen by
// .vscodeignore; the bundle carries every npm dependency, so none is packaged).
// Run: node scripts/package-vsix.mjs [OUT.vsix]   (default dist-vsix/retro-debug.vsix)
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist-vsix', 'retro-debug.vsix'));
const vsce = join(dirname(createRequire(import.meta.url).resolve('@vscode/vsce/package.json')), 'vsce');

mkdirSync(dirname(out), { recursive: true });
execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
// the extension page shows docs/extension-readme.md: what a VSIX user installs and does, not the repo's commands
execFileSync(
  process.execPath,
  [vsce, 'package', '--no-dependencies', '--readme-path', 'docs/extension-readme.md', '--out', out],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
