/**
 * The emulator's own recorders: Debian's DOSBox 0.74 on its private Xvfb
 * display, its hotkeys pressed through XTEST (xdotool); the screenshot, the
 * ZMBV video and the WAV it writes are collected into the output folder,
 * playable (their headers parse) and as long as the recording ran. The test
 * process has no DISPLAY.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildDosFixtures, ToolDriver, type DosFixtures, missingXTools } from '../support/dos-fixture.js';
import { wasmAvailable } from '../../src/connectors/dosbox/wasm-launcher.js';

delete process.env.DISPLAY;

let fx: DosFixtures;
before(async () => {
  fx = await buildDosFixtures();
});

describe("native DOSBox's recorders on the private display", { skip: missingXTools() }, () => {
  const d = new ToolDriver();
  after(() => d.close());

  it('records a screenshot, a video and audio of the expected length', { timeout: 120_000 }, async () => {
    const launched = await d.call('dosbox_launch', {
      program: fx.programs.vmodes.com,
      args: 'X',
      backend: 'native',
      isolation: 'xvfb',
    });
    const sid = launched.session_id as string;
    const caps = await d.call('dosbox_capabilities', { session_id: sid });
    assert.deepEqual(caps.session_recorders, ['screenshot', 'video', 'audio']);

    const shot = await d.call('dosbox_record', { session_id: sid, recorder: 'screenshot', path: 'shot.png' });
    assert.equal(shot.path, join(d.outputDir, 'shot.png'));
    assert.equal(shot.format, 'png');
    assert.equal(shot.playable, true);
    assert.equal(shot.width, 320);
    assert.equal(shot.height, 200);
    assert.equal(
      (await d.fail('dosbox_record', { session_id: sid, recorder: 'screenshot', path: 'shot.png' })).code,
      'file_exists',
    );

    for (const recorder of ['video', 'audio'] as const) {
      const r = await d.call('dosbox_record', { session_id: sid, recorder, duration_ms: 1500 });
      assert.equal(r.playable, true, `${recorder}: ${JSON.stringify(r)}`);
      assert.equal(r.format, recorder === 'video' ? 'avi' : 'wav');
      assert.ok(r.path.startsWith(join(d.outputDir, 'recordings')), r.path);
      // the emulator records in its own time: as long as the keys were apart, less what a loaded host drops
      assert.ok(
        r.duration_ms >= r.elapsed_ms * 0.5 && r.duration_ms <= r.elapsed_ms * 1.2 + 100,
        `${recorder} lasts ${r.duration_ms} ms for ${r.elapsed_ms} ms between the keys`,
      );
      if (recorder === 'video') {
        assert.equal(r.width, 320);
        assert.equal(r.height, 200);
        assert.ok(r.frames > 10);
      } else assert.ok(r.sample_rate > 0);
    }
    await d.call('stop_session', { session_id: sid }).catch(() => undefined);
  });

  it('refuses recorders without a private display, saying why', { timeout: 60_000 }, async () => {
    const launched = await d.call('dosbox_launch', { program: fx.programs.vmodes.com, args: 'X', backend: 'native' });
    const e = await d.fail('dosbox_record', { session_id: launched.session_id, recorder: 'screenshot' });
    assert.equal(e.code, 'unsupported');
    assert.match(e.message, /isolation "xvfb"/);
    await d.call('stop_session', { session_id: launched.session_id }).catch(() => undefined);
  });
});

describe(
  "the embedded DOSBox-X's recorders",
  { skip: wasmAvailable() ? false : 'optional npm package "emulators" not installed' },
  () => {
    const d = new ToolDriver();
    after(() => d.close());

    it("records a screenshot and audio through the library's calls; has no video", { timeout: 120_000 }, async () => {
      const launched = await d.call('dosbox_launch', {
        program: fx.programs.vmodes.com,
        args: 'X',
        backend: 'wasm-dosbox-x',
      });
      const sid = launched.session_id as string;
      assert.deepEqual((await d.call('dosbox_capabilities', { session_id: sid })).session_recorders, [
        'screenshot',
        'audio',
      ]);
      const shot = await d.call('dosbox_record', { session_id: sid, recorder: 'screenshot' });
      assert.equal(shot.playable, true);
      assert.equal(shot.width % 320, 0);
      const audio = await d.call('dosbox_record', { session_id: sid, recorder: 'audio', duration_ms: 2000 });
      assert.equal(audio.playable, true);
      assert.equal(audio.format, 'wav');
      // the wasm emulator runs slower than real time on a loaded host: at least half of the time recorded
      assert.ok(
        audio.duration_ms >= audio.elapsed_ms * 0.4 && audio.duration_ms <= audio.elapsed_ms * 1.2 + 100,
        `audio lasts ${audio.duration_ms} ms for ${audio.elapsed_ms} ms`,
      );
      const e = await d.fail('dosbox_record', { session_id: sid, recorder: 'video' });
      assert.equal(e.code, 'unsupported');
      await d.call('stop_session', { session_id: sid }).catch(() => undefined);
    });
  },
);
