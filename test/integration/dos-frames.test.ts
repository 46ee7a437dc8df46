/**
 * Live DOS frames from guest video memory on the real emulators (Debian's
 * DOSBox 0.74, and the embedded wasm DOSBox-X when installed), through the
 * session's screen feed: in text mode the frames carry the program's text as
 * the snapshot does; in mode 13h the frame's palette indices are the picture
 * MODE13.COM draws (byte for byte), its colours equal the screenshot's, a
 * patched guest variable arrives as a new frame, and a screen that stands
 * still brings no new frame. On wasm the 256 colours are learned from the
 * emulator's own picture, so the screenshot is the 320x200 decode.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { frameRgba } from '../../src/core/frames.js';
import type { ScreenFrame } from '../../src/core/target.js';
import { DOS_FEATURE } from '../../src/connectors/dosbox/dosbox-target.js';
import { reduceToMode } from '../../src/connectors/dosbox/xwd.js';
import { wasmAvailable } from '../../src/connectors/dosbox/wasm-launcher.js';
import { buildDosFixtures, expectedMode13, ToolDriver, until, type DosFixtures } from '../support/dos-fixture.js';

const BACKENDS = ['native', 'wasm-dosbox-x'] as const;

let fx: DosFixtures;
before(async () => {
  fx = await buildDosFixtures();
});

for (const backend of BACKENDS) {
  describe(
    `DOS frames from video memory on ${backend}`,
    { skip: backend !== 'native' && !wasmAvailable() ? 'optional npm package "emulators" not installed' : false },
    () => {
      const d = new ToolDriver();
      after(() => d.close());

      it(
        'text mode: frames with the text on screen, the same pixels as the screenshot',
        { timeout: 90_000 },
        async () => {
          const launched = await d.call('dosbox_launch', { program: fx.programs.keyecho.com, backend });
          const session = d.manager.get(launched.session_id as string);
          assert.equal(session.frameSource().mode, 'push');
          const frames: ScreenFrame[] = [];
          const off = session.watchScreen({ fps: 25 }, (f) => frames.push(f));
          try {
            await d.call('dosbox_type_keys', { session_id: session.id, keys: 'r' });
            const text = async () =>
              ((await d.call('dosbox_read_screen', { session_id: session.id })).lines as string[]).join('\n');
            await until('the echo of r', async () => /got r scan=13/.test(await text()));
            // the pushed frames catch up with the screen as the snapshot reads it
            await until('the last frame equal to the screenshot', async () => {
              const last = frames.at(-1);
              return !!last && frameRgba(last).equals((await session.screenshot()).rgba);
            });
            const last = frames.at(-1)!;
            assert.ok(last.pixels && last.palette, 'palette indices and the 16 text colours');
            assert.equal(last.width, 640); // 80 columns x 8 pixels, 25 rows x 16
            assert.equal(last.height, 400);
            // the screen stands still: no new frame
            const still = frames.length;
            await new Promise((r) => setTimeout(r, 800));
            assert.equal(frames.length, still, 'no frame while the screen does not change');
          } finally {
            off();
            await d.call('stop_session', { session_id: session.id }).catch(() => undefined);
          }
        },
      );

      it('mode 13h: the decoded indices, its colours, a patch as a new frame', { timeout: 90_000 }, async () => {
        const m = fx.programs.mode13;
        const launched = await d.call('dosbox_launch', { program: m.com, backend });
        const session = d.manager.get(launched.session_id as string);
        const psp = parseInt(
          (launched.programs as { name: string; psp: string }[]).find((p) => p.name === 'MODE13')!.psp,
          16,
        );
        const at = (offset: number) => ({ segment: psp, offset });
        const frames: ScreenFrame[] = [];
        const off = session.watchScreen({ fps: 25 }, (f) => frames.push(f));
        try {
          const shows = (box: number) => () =>
            Promise.resolve(
              frames.some((f) => f.width === 320 && Buffer.compare(f.pixels!, expectedMode13(box)) === 0),
            );
          await until('the mode 13h picture as a frame', shows(0x0f), 15_000);
          await d.call('dosbox_write', {
            session_id: session.id,
            address: at(m.labels.boxcolor),
            hex: '28',
          });
          await until('the patched box as a new frame', shows(0x28), 5000);
          const own = session.feature(DOS_FEATURE).backend.emulatorScreenshot;
          if (own) {
            // The emulator draws its own picture on its own clock, behind video memory: MODE13 counts its loops
            // (a box drawn, then HLT until the next timer tick), so two more of them mean that picture was drawn
            // again from the patched memory.
            const loops = async () => {
              const read = await d.call('dosbox_read', {
                session_id: session.id,
                address: at(m.labels.frames),
                length: 2,
              });
              return Buffer.from(read.hex as string, 'hex').readUInt16LE(0);
            };
            const from = await loops();
            await until('two more loops of MODE13', async () => ((await loops()) - from + 0x10000) % 0x10000 >= 2);
          }
          const shot = await session.screenshot();
          assert.equal(shot.width, 320, 'the screenshot is the decoded frame, not the emulator picture');
          if (own) {
            const picture = reduceToMode(await own(), 320, 200);
            assert.ok(shot.rgba.equals(picture.rgba), "the decoded picture = the emulator's own picture, reduced");
          }
          // the pushed frames carry the same pixels and (once a palette the screenshot learned reaches them) colours
          await until('a frame coloured as the screenshot', async () => frameRgba(frames.at(-1)!).equals(shot.rgba));
          const last = frames.at(-1)!;
          assert.equal(Buffer.compare(last.pixels!, expectedMode13(0x28)), 0);
          // the guest's default palette: index 1 is blue
          assert.deepEqual(last.palette![1], [0, 0, 0xaa]);
          const still = frames.length;
          await new Promise((r) => setTimeout(r, 800));
          assert.equal(frames.length, still, 'no frame while the picture stands still');
        } finally {
          off();
          await d.call('dosbox_type_keys', { session_id: session.id, keys: '{Esc}' }).catch(() => undefined);
          await d.call('stop_session', { session_id: session.id }).catch(() => undefined);
        }
      });
    },
  );
}
