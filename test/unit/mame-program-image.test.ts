/** Program staging: our .ihx conversion must equal makebin's ROM for the same build. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { ihxToImage, loadProgramImage, romSlotFor } from '../../src/connectors/mame/program-image.js';
import { RetroError } from '../../src/core/errors.js';
import { buildZxFixture } from '../support/zx-fixture.js';

test('an .ihx program becomes the same 16 KiB image makebin produced', async () => {
  const fx = await buildZxFixture();
  const slot = romSlotFor('spectrum')!;
  const image = await loadProgramImage(join(fx.dir, 'spectrum.ihx'), slot);
  assert.equal(Buffer.compare(image, await readFile(fx.rom)), 0);
  assert.equal(Buffer.compare(await loadProgramImage(fx.rom, slot), await readFile(fx.rom)), 0);
});

test('bad Intel HEX and oversized programs are launch_failed with the line', () => {
  assert.throws(
    () => ihxToImage(':0300000000FF\n', 16),
    (e: RetroError) => e.code === 'launch_failed' && /line 1/.test(e.message),
  );
  assert.throws(
    () => ihxToImage(':02000000AABB98\n', 16),
    (e: RetroError) => /checksum/.test(e.message),
  );
  assert.throws(
    () => ihxToImage(':020010000102EB\n', 16),
    (e: RetroError) => /beyond/.test(e.message),
  );
  assert.deepEqual([...ihxToImage(':020001000102FA\n:00000001FF\n', 16)], [0xff, 1, 2]);
});

test('the 128K takes the program as both its ROMs (bit 4 of $7FFD pages the same code)', () => {
  assert.deepEqual(romSlotFor('spec128'), {
    set: 'spec128',
    file: 'zx128_0.rom',
    size: 16384,
    copies: ['zx128_1.rom'],
  });
});
