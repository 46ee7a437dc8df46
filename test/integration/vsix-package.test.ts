/**
 * The VSIX `npm run package` builds: the bundle without source maps, the schemas,
 * the machine data, the grammars and the icon; no sources, tests or node_modules;
 * and the gallery fields VS Code's marketplace shows.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { packageVsix, vsixEntries } from '../support/vsix.js';
import { REPO_ROOT } from '../support/zx-fixture.js';

test(
  'npm run package: the VSIX holds what the extension loads and nothing of the sources',
  { timeout: 300_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-vsix-'));
    try {
      const vsix = join(dir, 'retro-debug.vsix');
      packageVsix(vsix);
      const entries = vsixEntries(vsix);
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
      const wanted = [
        'extension/package.json',
        'extension/dist/extension.js',
        'extension/dist/lsp-server.js',
        'extension/dist/debugAdapter.js',
        'extension/dist/cli.js',
        'extension/dist/media/screen-panel.js',
        'extension/dist/mame-plugin/mamebridge/init.lua',
        'extension/schemas/dos-profile.schema.json',
        'extension/data/c64-symbol-profile.json',
        'extension/data/retro_test.h',
        'extension/media/icon.png',
        'extension/media/walkthrough/first-f5.png',
        'extension/readme.md',
        ...manifest.contributes.grammars.map((g: { path: string }) => join('extension', g.path)),
        ...manifest.contributes.jsonValidation.map((v: { url: string }) => join('extension', v.url)),
      ];
      for (const name of wanted) assert.ok(entries.includes(name), `${name} is in the VSIX`);
      const unwanted = entries.filter((e) =>
        /\.map$|^extension\/(src|test|node_modules|scripts|bench|examples)\//.test(e),
      );
      assert.deepEqual(unwanted, []);
      // the extension page: what a VSIX user installs and does, none of the repository's commands
      const readme = execFileSync('unzip', ['-p', vsix, 'extension/readme.md'], { encoding: 'utf8' });
      assert.match(readme, /Get Started with Retro Debug/);
      assert.doesNotMatch(readme, /scripts\/setup\.sh|npm (test|run)|node dist\/cli/);
      assert.ok(statSync(vsix).size < 2_000_000, `VSIX is ${statSync(vsix).size} bytes`);
      assert.match(manifest.repository.url, /^https:\/\//);
      assert.equal(manifest.icon, 'media/icon.png');
      assert.ok(manifest.galleryBanner.color && manifest.keywords.length >= 5);
      assert.ok(manifest.categories.includes('Debuggers') && manifest.categories.includes('Programming Languages'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
