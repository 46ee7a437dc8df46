/**
 * Every common BIOS video mode decoded from the VGA buffer, on Debian's DOSBox
 * 0.74 (native, isolated) and the embedded DOSBox-X: VMODES.COM (nasm) draws a
 * known picture straight into video memory in each mode; the decoded frame
 * equals the picture pixel for pixel, the start address (Mode X's CRTC start)
 * is found by the reference, and text renders through the active font,
 * including a glyph the program loaded itself.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDosFixtures, ToolDriver, until, type DosFixtures } from '../support/dos-fixture.js';
import { wasmAvailable } from '../../src/connectors/dosbox/wasm-launcher.js';
import { findRomFont } from '../../src/machines/dos/video-modes.js';
import { expectedVmode, VMODES_GLYPH } from '../support/vmodes-expected.js';

const BACKENDS = ['native', 'wasm-dosbox-x'] as const;

let fx: DosFixtures;
before(async () => {
  fx = await buildDosFixtures();
});

const CASES = [
  { letter: 'C', mode: 0x04, layout: 'cga', start: 0 },
  { letter: 'H', mode: 0x06, layout: 'cga', start: 0 },
  { letter: 'D', mode: 0x0d, layout: 'planar', start: 0 },
  { letter: 'E', mode: 0x0e, layout: 'planar', start: 0 },
  { letter: 'F', mode: 0x10, layout: 'planar', start: 0 },
  { letter: 'G', mode: 0x12, layout: 'planar', start: 0 },
  { letter: 'X', mode: 0x13, layout: 'unchained', start: 16000 },
] as const;

for (const backend of BACKENDS) {
  describe(
    `video modes from VRAM on ${backend}`,
    { skip: backend !== 'native' && !wasmAvailable() ? 'optional npm package "emulators" not installed' : false },
    () => {
      const d = new ToolDriver();
      after(() => d.close());

      it('decodes CGA, EGA/VGA planar, Mode X and text equal to the drawn picture', { timeout: 120_000 }, async () => {
        const launched = await d.call('dosbox_launch', { program: fx.programs.vmodes.com, args: 'C', backend });
        const sid = launched.session_id as string;
        for (const c of CASES) {
          if (c.letter !== 'C') await d.call('dosbox_type_keys', { session_id: sid, keys: c.letter });
          const { width, height, pixels } = expectedVmode(c.letter);
          await writeFile(join(d.outputDir, `ref-${c.letter}.bin`), pixels);
          let frame: Record<string, any> = {};
          await until(`mode ${c.mode.toString(16)} drawn`, async () => {
            const r = await d.raw('dosbox_read_framebuffer', { session_id: sid, reference: `ref-${c.letter}.bin` });
            frame = r.structuredContent as Record<string, any>;
            return !r.isError;
          });
          assert.equal(frame.mode, c.mode);
          assert.equal(frame.layout, c.layout);
          assert.equal(frame.start_address, c.start);
          assert.equal(frame.width, width);
          assert.equal(frame.height, height);
          assert.equal(frame.confirmed, true);
          assert.equal(frame.differing_pixels, 0);
          // the confirmed layout is cached: the next read needs no reference and saves what it decoded
          const again = await d.call('dosbox_read_framebuffer', { session_id: sid, stem: `frame-${c.letter}` });
          assert.equal(again.cached, true);
          assert.deepEqual(await readFile(again.indices_path), Buffer.from(pixels));
          // 256 colours need the live DAC (known for Debian's 0.74 build); CGA and 16 colours have the BIOS's
          if (c.layout !== 'unchained' || backend === 'native') assert.ok(again.png_path, `a PNG for ${c.letter}`);
        }
        // text through the active font: the ROM font plus the glyph VMODES loaded for 80h
        await d.call('dosbox_type_keys', { session_id: sid, keys: 'T' });
        const rom = Buffer.from(
          (await d.call('dosbox_read', { session_id: sid, address: 0xc0000, length: 0x8000 })).hex,
          'hex',
        );
        const at = findRomFont(rom, 16);
        assert.equal(at.length, 1);
        const font = Buffer.from(rom.subarray(at[0], at[0] + 4096));
        font.set(VMODES_GLYPH, 0x80 * 16);
        const text = expectedVmode('T', font);
        await writeFile(join(d.outputDir, 'ref-T.bin'), text.pixels);
        let tf: Record<string, any> = {};
        await until('text drawn', async () => {
          const r = await d.raw('dosbox_read_framebuffer', { session_id: sid, reference: 'ref-T.bin' });
          tf = r.structuredContent as Record<string, any>;
          return !r.isError;
        });
        assert.equal(tf.layout, 'text');
        assert.equal(tf.width, 640);
        assert.equal(tf.height, 400);
        assert.equal(tf.differing_pixels, 0);
        assert.doesNotMatch(tf.font_source, /ROM/, `the live font was found: ${tf.font_source}`);
        await d.call('dosbox_type_keys', { session_id: sid, keys: '{Esc}' });
        await d.call('stop_session', { session_id: sid }).catch(() => undefined);
      });
    },
  );
}
