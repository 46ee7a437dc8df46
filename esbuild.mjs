// Bundles the extension, the CLI, the stdio debug adapter and the webview script,
// and copies the MAME Lua bridge plugin next to them.
import { build } from 'esbuild';
import { cpSync, mkdirSync, existsSync } from 'node:fs';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  // minified (names kept: error classes and stack frames stay readable; the maps carry the source):
  // the VSIX ships these files, and its size is bounded by test/integration/vsix-package.test.ts
  minify: true,
  keepNames: true,
  logLevel: 'warning',
};
const entries = [
  { entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['src/dap/stdio-main.ts'], outfile: 'dist/debugAdapter.js' },
  // the language server runs in a process of its own (vscode-languageclient starts it with --stdio)
  { entryPoints: ['src/lsp/main.ts'], outfile: 'dist/lsp-server.js' },
  // the embedded DOSBox runs in a worker thread of its own (loaded by src/connectors/dosbox/wasm-launcher.ts)
  { entryPoints: ['src/connectors/dosbox/wasm-worker.ts'], outfile: 'dist/dos-wasm-worker.js' },
  // PNG for MCP images and files is encoded in a worker thread (src/core/png-off-thread.ts)
  { entryPoints: ['src/core/png-worker.ts'], outfile: 'dist/png-worker.js' },
];
mkdirSync('dist', { recursive: true });
await Promise.all(entries.filter((e) => existsSync(e.entryPoints[0])).map((e) => build({ ...common, ...e })));
if (existsSync('media/screen-panel.ts')) {
  await build({
    entryPoints: ['media/screen-panel.ts'],
    outfile: 'dist/media/screen-panel.js',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    minify: true,
    logLevel: 'warning',
  });
}
if (existsSync('src/connectors/mame/plugin'))
  cpSync('src/connectors/mame/plugin', 'dist/mame-plugin', { recursive: true });
