/**
 * A DOS guest driven through the `dos` MCP tools on real emulators: Debian's
 * DOSBox 0.74 (native, SDL dummy video) and the embedded wasm DOSBox-X, both
 * running nasm programs built at test time.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildDosFixtures,
  expectedMode13,
  mouseProfile,
  ToolDriver,
  until,
  type DosFixtures,
} from '../support/dos-fixture.js';
import { wasmAvailable } from '../../src/connectors/dosbox/wasm-launcher.js';

const BACKENDS = ['native', 'wasm-dosbox-x'] as const;

async function screenText(d: ToolDriver, sid: string): Promise<string> {
  return ((await d.call('dosbox_read_screen', { session_id: sid })).lines as string[]).join('\n');
}

let fx: DosFixtures;
before(async () => {
  fx = await buildDosFixtures();
});

for (const backend of BACKENDS) {
  describe(
    `DOS guest on ${backend}`,
    { skip: backend !== 'native' && !wasmAvailable() ? 'optional npm package "emulators" not installed' : false },
    () => {
      const d = new ToolDriver();
      after(() => d.close());

      it(
        'finds KEYECHO, reads the screen, types, patches a variable through a profile, traces a CALL, watches a value',
        { timeout: 90_000 },
        async () => {
          const ke = fx.programs.keyecho;
          const launched = await d.call('dosbox_launch', { program: ke.com, backend });
          const sid = launched.session_id as string;
          const names = (launched.programs as { name: string }[]).map((p) => p.name);
          assert.ok(names.includes('KEYECHO'), `programs: ${names}`);
          assert.equal(launched.int21_live, true);
          assert.equal(launched.state, 'running');
          const psp = parseInt(
            (launched.programs as { name: string; psp: string }[]).find((p) => p.name === 'KEYECHO')!.psp,
            16,
          );

          await until('the prompt', async () => (await screenText(d, sid)).includes('[A] key?'));
          assert.match(await screenText(d, sid), /KEYECHO test program \(nasm \.COM\)/);

          // type a line and see each key echoed
          const typed = await d.call('dosbox_type_keys', { session_id: sid, keys: 'dir' });
          assert.equal(typed.typed, 3);
          await until('the echo of r', async () => /got r scan=13 ascii=72/.test(await screenText(d, sid)));
          assert.match(await screenText(d, sid), /got d scan=20 ascii=64/);

          // profile: marker bytes inline, checks, symbols; symbols then work as addresses
          const profile = {
            name: 'keyecho',
            marker: { bytes: Buffer.from('KEYECHOVARS').toString('hex'), offset: '0x' + ke.labels.marker.toString(16) },
            checks: [
              { kind: 'max', offset: ke.labels.count, size: 2, max: 1000 },
              { kind: 'max_range', offset: ke.labels.tag, size: 1, min: 0x20, max: 0x7e },
            ],
            symbols: {
              tag: { offset: ke.labels.tag, type: 'u8' },
              lastkey: { offset: ke.labels.lastkey, type: 'u16' },
              count: { offset: ke.labels.count, type: 'u16' },
            },
            watch_sets: { input: ['lastkey', 'count'] },
          };
          const loaded = await d.call('dosbox_load_profile', { session_id: sid, profile });
          assert.equal(parseInt(loaded.ds, 16), psp);
          assert.equal((await d.call('dosbox_read', { session_id: sid, address: 'count' })).value, '3');
          const w = await d.call('dosbox_write', { session_id: sid, address: 'tag', value: 'Z'.charCodeAt(0) });
          assert.equal(w.verified, true);
          await d.call('dosbox_type_keys', { session_id: sid, keys: 'x' });
          await until('the patched prompt', async () => (await screenText(d, sid)).includes('[Z] key?'));

          // trace the CALL at `tracecall` through the zero-filled cave
          const tr = await d.call('dosbox_trace', {
            session_id: sid,
            action: 'install',
            call: `${psp.toString(16)}:${ke.labels.tracecall.toString(16)}`,
            cave: ke.labels.cave,
            captures: [
              { name: 'lastkey', address: 'lastkey', length: 2 },
              { name: 'count', address: 'count', length: 2 },
            ],
          });
          await d.call('dosbox_type_keys', { session_id: sid, keys: 'q' });
          await until('the q echo', async () => /got q scan=10/.test(await screenText(d, sid)));
          const readout = await d.call('dosbox_trace', { session_id: sid, action: 'read', id: tr.id });
          assert.equal(readout.hits, 1);
          assert.equal(parseInt(readout.ds, 16), psp);
          assert.deepEqual(readout.captures[0].bytes, [0x71, 0x10]);
          assert.deepEqual(readout.captures[1].bytes, [5, 0]);
          await d.call('dosbox_trace', { session_id: sid, action: 'remove', id: tr.id });
          const callBytes = await d.call('dosbox_read', {
            session_id: sid,
            address: `${psp.toString(16)}:${ke.labels.tracecall.toString(16)}`,
            length: 3,
          });
          assert.equal(callBytes.hex.slice(0, 2), 'E8');
          assert.equal(
            (ke.labels.tracecall + 3 + parseInt(callBytes.hex.slice(4, 6) + callBytes.hex.slice(2, 4), 16)) & 0xffff,
            ke.labels.putc,
          );

          // watch a value change over time while keys arrive
          const watching = d.call('dosbox_watch', {
            session_id: sid,
            watch_set: 'input',
            interval_ms: 5,
            duration_ms: 800,
          });
          await new Promise((r) => setTimeout(r, 150));
          await d.call('dosbox_type_keys', { session_id: sid, keys: 'a' });
          await new Promise((r) => setTimeout(r, 150));
          await d.call('dosbox_type_keys', { session_id: sid, keys: 'b' });
          const watched = await watching;
          const counts = watched.series
            .find((s: { name: string }) => s.name === 'count')
            .changes.map((c: { value: string }) => Number(c.value));
          assert.deepEqual(counts, [5, 6, 7]);

          // bad input: past guest memory, a wrong marker, search, dump
          assert.equal(
            (await d.fail('dosbox_read', { session_id: sid, address: 0x10fff0, length: 16 })).code,
            'bad_address',
          );
          const wrong = await d.fail('dosbox_load_profile', {
            session_id: sid,
            profile: { ...profile, marker: { bytes: '00112233445566', offset: 0 } },
          });
          assert.equal(wrong.code, 'not_found');
          const hits = await d.call('dosbox_search_memory', { session_id: sid, text: 'KEYECHOVARS' });
          assert.ok(
            hits.hits.some(
              (h: { address: string; program?: string }) =>
                h.program === 'KEYECHO' &&
                h.address ===
                  `${psp.toString(16).toUpperCase().padStart(4, '0')}:${ke.labels.marker.toString(16).toUpperCase().padStart(4, '0')}`,
            ),
          );
          const dump = await d.call('dosbox_dump_segment', { session_id: sid, segment: 'ds', path: 'keyecho.bin' });
          assert.equal(dump.path, join(d.outputDir, 'keyecho.bin'));
          assert.equal(
            (await d.fail('dosbox_dump_segment', { session_id: sid, segment: 'ds', path: 'keyecho.bin' })).code,
            'file_exists',
          );
          await d.call('dosbox_type_keys', { session_id: sid, keys: '{Esc}' });
          await d.call('stop_session', { session_id: sid }).catch(() => undefined);
        },
      );

      it(
        'decodes a mode-13h frame equal to the reference, caches the page, and sees a patch and a key',
        { timeout: 90_000 },
        async () => {
          const m = fx.programs.mode13;
          const launched = await d.call('dosbox_launch', { program: m.com, backend });
          const sid = launched.session_id as string;
          const psp = parseInt(
            (launched.programs as { name: string; psp: string }[]).find((p) => p.name === 'MODE13')!.psp,
            16,
          );
          await writeFile(join(d.outputDir, 'ref.bin'), expectedMode13(0x0f));
          assert.equal((await d.fail('dosbox_read_framebuffer', { session_id: sid })).code, 'bad_request');
          let frame: Record<string, any> = {};
          await until(
            'mode 13h drawn',
            async () => {
              const r = await d.raw('dosbox_read_framebuffer', { session_id: sid, reference: 'ref.bin' });
              frame = r.structuredContent as Record<string, any>;
              return !r.isError;
            },
            10_000,
          );
          assert.equal(frame.confirmed, true);
          assert.equal(frame.differing_pixels, 0);
          assert.equal(frame.page_offset, 0);
          // patch boxcolor, press 'a': the cached page shows both
          await d.call('dosbox_write', {
            session_id: sid,
            address: { segment: psp, offset: m.labels.boxcolor },
            hex: '28',
          });
          await d.call('dosbox_type_keys', { session_id: sid, keys: 'a' });
          await writeFile(join(d.outputDir, 'ref2.bin'), expectedMode13(0x28, 0x61));
          await until('box and strip', async () => {
            const r = await d.call('dosbox_read_framebuffer', { session_id: sid, stem: `f-${Date.now()}` });
            return (
              r.cached &&
              r.confirmed &&
              (await import('node:fs/promises'))
                .readFile(r.indices_path)
                .then((b) => Buffer.compare(b, expectedMode13(0x28, 0x61)) === 0)
            );
          });
          const cap = await d.call('dosbox_capture_screen', {
            session_id: sid,
            path: 'mode13.png',
            source: backend === 'native' ? 'vram' : 'emulator',
          });
          assert.equal(cap.width % 320, 0);
          assert.ok(cap.png_bytes > 1000);
          assert.equal(cap.path, join(d.outputDir, 'mode13.png'));
          const frames = await d.call('dosbox_watch_frames', { session_id: sid, duration_ms: 300, interval_ms: 50 });
          assert.ok(frames.frames.length >= 1);
          await d.call('stop_session', { session_id: sid }).catch(() => undefined);
        },
      );

      it(
        'clicks through the INT 33h words; refuses a full ring and names the port-60h reader',
        { timeout: 90_000 },
        async () => {
          const mo = fx.programs.mouse;
          const launched = await d.call('dosbox_launch', { program: mo.com, backend });
          const sid = launched.session_id as string;
          await until('mouse banner', async () => (await screenText(d, sid)).includes('click me'));
          await d.call('dosbox_load_profile', {
            session_id: sid,
            profile: mouseProfile(mo),
          });
          const c = await d.call('dosbox_click', { session_id: sid, x: 160, y: 100 });
          assert.ok(c.writes > 3);
          await until('click line', async () => /click 0001 at 00A0,0064/.test(await screenText(d, sid)));
          assert.equal((await d.call('dosbox_read', { session_id: sid, address: 'clicks' })).value, '1');
          await d.call('stop_session', { session_id: sid }).catch(() => undefined);

          const nk = await d.call('dosbox_launch', { program: fx.programs.nokeys.com, backend });
          const nsid = nk.session_id as string;
          await until('nokeys banner', async () => (await screenText(d, nsid)).includes('NOKEYS'));
          const full = await d.fail('dosbox_type_keys', {
            session_id: nsid,
            keys: 'abcdefghijklmnopqrst',
            timeout_ms: 200,
          });
          assert.equal(full.code, 'timeout_may_have_mutated');
          assert.match(full.message, /ring stayed full .* after 15 of 20 keys/);
          assert.match(full.message, /INT 9 is hooked .* by NOKEYS.*port 60h/);
          await d.call('stop_session', { session_id: nsid }).catch(() => undefined);
        },
      );

      if (backend === 'native')
        it('reports a vanished emulator as target_lost', { timeout: 60_000 }, async () => {
          const l = await d.call('dosbox_launch', { program: fx.programs.keyecho.com, backend });
          process.kill(l.pid as number, 'SIGKILL');
          await until(
            'the session to notice',
            async () =>
              (await d.raw('dosbox_read', { session_id: l.session_id, address: 0x400, length: 2 })).isError === true,
          );
          const gone = await d.fail('dosbox_read', { session_id: l.session_id, address: 0x400, length: 2 });
          assert.equal(gone.code, 'target_lost', gone.message);
        });
    },
  );
}
