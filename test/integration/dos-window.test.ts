/**
 * `source: "window"` on Debian's DOSBox 0.74 launched on its own Xvfb display:
 * the window photographed with xwd, reduced by the emulator's integer scale,
 * equals the VRAM decode through the live DAC pixel for pixel (Mode X and
 * 640x480x16). The test process has no DISPLAY: nothing on a desktop is used.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDosFixtures, ToolDriver, until, type DosFixtures, missingXTools } from '../support/dos-fixture.js';
import { expectedVmode } from '../support/vmodes-expected.js';

delete process.env.DISPLAY;

let fx: DosFixtures;
before(async () => {
  fx = await buildDosFixtures();
});

describe('window capture on the private display', { skip: missingXTools() }, () => {
  const d = new ToolDriver();
  after(() => d.close());

  it('agrees with the VRAM decode after scaling, at the integer scale asked for', { timeout: 90_000 }, async () => {
    const launched = await d.call('dosbox_launch', {
      program: fx.programs.vmodes.com,
      args: 'X',
      backend: 'native',
      isolation: 'xvfb',
    });
    const sid = launched.session_id as string;
    for (const letter of ['X', 'G']) {
      if (letter !== 'X') await d.call('dosbox_type_keys', { session_id: sid, keys: letter });
      const { width, height, pixels } = expectedVmode(letter);
      await writeFile(join(d.outputDir, `ref-${letter}.bin`), pixels);
      await until(`${letter} drawn`, async () => {
        const r = await d.raw('dosbox_read_framebuffer', { session_id: sid, reference: `ref-${letter}.bin` });
        return !r.isError;
      });
      let shot: Record<string, any> = {};
      // the window shows the picture once the emulator has rendered the frame after the mode change
      await until(`${letter} in the window`, async () => {
        shot = await d.call('dosbox_capture_screen', { session_id: sid, source: 'window', scale: 1 });
        return shot.vram_differing_pixels === 0;
      });
      assert.equal(shot.width, width);
      assert.equal(shot.height, height);
      assert.ok(shot.emulator_scale[0] >= 1 && Number.isInteger(shot.emulator_scale[0]));
      assert.equal(shot.window.width, width * shot.emulator_scale[0]);
      assert.ok(shot.capture_ms > 0);
      const big = await d.call('dosbox_capture_screen', {
        session_id: sid,
        source: 'window',
        scale: 3,
        path: `window-${letter}.png`,
      });
      assert.equal(big.width, width * 3);
      assert.equal(big.height, height * 3);
      assert.equal(big.path, join(d.outputDir, `window-${letter}.png`));
    }
    await d.call('stop_session', { session_id: sid }).catch(() => undefined);
  });

  it('refuses a window capture without a private display', { timeout: 60_000 }, async () => {
    const launched = await d.call('dosbox_launch', { program: fx.programs.vmodes.com, args: 'G', backend: 'native' });
    const e = await d.fail('dosbox_capture_screen', { session_id: launched.session_id, source: 'window' });
    assert.equal(e.code, 'unsupported');
    assert.match(e.message, /isolation "xvfb"/);
    await d.call('stop_session', { session_id: launched.session_id }).catch(() => undefined);
  });
});
