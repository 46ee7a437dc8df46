/**
 * The embedded DOSBox-X's wasm is compiled once per process (wasm-module.ts) and every emulator's worker
 * instantiates that module: two emulators in a row boot from it, and a package without its wasm is a clear
 * launch error naming the file, not cached (the next call compiles again).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledDosbox } from '../../src/connectors/dosbox/wasm-module.js';
import { launchWasm } from '../../src/connectors/dosbox/wasm-launcher.js';
import { RetroError } from '../../src/core/errors.js';

describe('embedded DOSBox-X: one compiled module', () => {
  it('is compiled once and boots one emulator after another', async () => {
    const entry = require.resolve('emulators');
    const module = await compiledDosbox(entry, 'dosbox-x');
    assert.equal(await compiledDosbox(entry, 'dosbox-x'), module, 'the second launch compiles again');
    assert.ok(WebAssembly.Module.exports(module).length > 0);
    for (let i = 0; i < 2; i++) {
      const em = await launchWasm({ flavour: 'dosbox-x' });
      try {
        const [heap] = await em.memory.regions();
        assert.ok(heap && heap.end > 16 * 2 ** 20, `emulator ${i + 1}: a wasm heap of ${heap?.end} bytes`);
        assert.equal((await em.memory.read(0, 4)).length, 4);
      } finally {
        await em.exit();
      }
      assert.equal(em.memory.alive(), false);
    }
  });

  it('names a missing wasm file and tries again once it is there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wasm-module-'));
    try {
      const entry = join(dir, 'emulators.js');
      await assert.rejects(
        compiledDosbox(entry, 'dosbox-x'),
        (err: RetroError) => err.code === 'launch_failed' && err.message.includes(join(dir, 'wdosbox-x.wasm')),
      );
      writeFileSync(join(dir, 'wdosbox-x.wasm'), Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0)); // an empty module
      assert.equal(WebAssembly.Module.exports(await compiledDosbox(entry, 'dosbox-x')).length, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
