/**
 * A C program built at test time with Debian's bcc (-Md: a DOS .COM whose
 * data has its own segment) on native DOSBox and the embedded DOSBox-X: a
 * profile finds the data segment by its marker, a counter is watched moving,
 * and a string plus a flag written from outside make the program print them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bccAvailable, buildDosFixtures, ToolDriver, until, type DosFixtures } from '../support/dos-fixture.js';
import { wasmAvailable } from '../../src/connectors/dosbox/wasm-launcher.js';

const BACKENDS = ['native', 'wasm-dosbox-x'] as const;

let fx: DosFixtures;
before(async () => {
  if (bccAvailable()) fx = await buildDosFixtures();
});

for (const backend of BACKENDS) {
  const skip = !bccAvailable()
    ? 'bcc (with bin86 and elks-libc) is not installed'
    : backend !== 'native' && !wasmAvailable()
      ? 'optional npm package "emulators" not installed'
      : false;
  describe(`bcc C program on ${backend}`, { skip }, () => {
    const d = new ToolDriver();
    after(() => d.close());

    it(
      'finds the C data segment by marker, watches the counter, sets word+flag and sees them printed',
      { timeout: 90_000 },
      async () => {
        const c = fx.programs.cflag;
        for (const name of ['marker', 'counter', 'flag', 'word'])
          assert.equal(typeof c.labels[name], 'number', `ld86 map has _${name}`);
        const launched = await d.call('dosbox_launch', { program: c.com, backend });
        const sid = launched.session_id as string;
        const psp = parseInt(
          (launched.programs as { name: string; psp: string }[]).find((p) => p.name === 'CFLAG')!.psp,
          16,
        );
        const screen = async () =>
          ((await d.call('dosbox_read_screen', { session_id: sid })).lines as string[]).join('\n');
        await until('the banner', async () => (await screen()).includes('CFLAG C program (bcc .COM)'));

        const loaded = await d.call('dosbox_load_profile', {
          session_id: sid,
          profile: {
            name: 'cflag',
            marker: { bytes: Buffer.from('CFLAGVARS').toString('hex'), offset: c.labels.marker },
            symbols: {
              counter: { offset: c.labels.counter, type: 'u16' },
              flag: { offset: c.labels.flag, type: 'u8' },
              word: { offset: c.labels.word, type: 'cstring', size: 8 },
            },
          },
        });
        const ds = parseInt(loaded.ds, 16);
        assert.ok(ds > psp, `bcc's data segment ${ds.toString(16)} lies above the PSP ${psp.toString(16)}`);
        assert.equal((await d.call('dosbox_read', { session_id: sid, address: 'word' })).value, '"none"');

        const watched = await d.call('dosbox_watch', {
          session_id: sid,
          addresses: ['counter'],
          interval_ms: 20,
          duration_ms: 400,
        });
        assert.ok(
          watched.series[0].changes.length >= 3,
          `the counter moves: ${JSON.stringify(watched.series[0].changes.slice(0, 4))}`,
        );

        await d.call('dosbox_write', { session_id: sid, address: 'word', hex: Buffer.from('bcc!\0').toString('hex') });
        await d.call('dosbox_write', { session_id: sid, address: 'flag', value: 7 });
        await until('the printed flag', async () => (await screen()).includes('flag 7 word bcc!'));
        assert.equal(
          (await d.call('dosbox_read', { session_id: sid, address: 'flag' })).value,
          '0',
          'the program cleared the flag',
        );
        await d.call('stop_session', { session_id: sid }).catch(() => undefined);
      },
    );
  });
}
