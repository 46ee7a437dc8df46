// Odd paths over the DAP wire on the emulators the suite starts for real: MAME (spectrum; the Sprinter with the
// user's own BIOS in a rompath folder) and DOSBox (native and the wasm DOSBox-X, the program's folder mounted as C:).
// One session per machine: every odd name (quotes, `$()`, backticks, `;`, Cyrillic/CJK/emoji, > 255 bytes) is a
// folder nested in one path, and the program, debug info, sources, ROM and profile lie under it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { RecordingClient } from '../dap/dap-client.js';
import { allOddFolders } from '../support/odd-names.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { buildSprinterFixture, ownBiosFolder, type SprinterFixture } from '../support/sprinter-fixture.js';
import { buildDosFixtures, writeKeyechoProfile, type DosProgramFixture } from '../support/dos-fixture.js';

let zx: ZxFixture;
let sprinter: SprinterFixture;
let keyecho: DosProgramFixture;
const base = mkdtempSync(join(tmpdir(), 'odd-dap-'));

before(async () => {
  [zx, sprinter, keyecho] = await Promise.all([
    buildZxFixture(),
    buildSprinterFixture(),
    buildDosFixtures().then((f) => f.programs.keyecho),
  ]);
});
after(() => rmSync(base, { recursive: true, force: true }));

/** A fixture folder copied under every odd name; returns the copy. */
function oddCopy(tag: string, from: string): string {
  const dir = allOddFolders(join(base, tag));
  mkdirSync(dir, { recursive: true });
  cpSync(from, dir, { recursive: true });
  assert.ok(Buffer.byteLength(dir) > 255, 'the path is longer than 255 bytes');
  return dir;
}

async function dapSession(body: (dc: RecordingClient) => Promise<void>): Promise<void> {
  const dc = new RecordingClient();
  await dc.start();
  try {
    await dc.initialize();
    await body(dc);
  } finally {
    await dc.stop();
  }
}

const stopped = (dc: RecordingClient, ms = 60_000) =>
  dc.next<DebugProtocol.StoppedEvent>('stopped', ms).then((e) => e.body.reason);

test(
  'MAME spectrum: a breakpoint in a source under the odd folders hits, the stack names it, restart stops again',
  { timeout: 240_000 },
  async () => {
    const dir = oddCopy('zx', zx.dir);
    const marker = zx.markers.plot_body;
    const source = join(dir, basename(marker.file));
    await dapSession(async (dc) => {
      await dc.launchAndConfigure(
        { machine: 'spectrum', emulator: 'mame', program: join(dir, 'spectrum.rom'), cwd: dir, stopOnEntry: true },
        async () => {
          const bps = await dc.setBreakpointsRequest({
            source: { path: source },
            breakpoints: [{ line: marker.line }],
          });
          assert.equal(bps.body.breakpoints[0].verified, true, bps.body.breakpoints[0].message);
        },
      );
      assert.equal(await stopped(dc, 120_000), 'entry');
      await dc.continueRequest({ threadId: 1 });
      assert.equal(await stopped(dc), 'breakpoint');
      const top = await dc.topFrame();
      assert.deepEqual([top.line, top.source?.path], [marker.line, source]);
      dc.drain('stopped');
      await dc.restartRequest({});
      assert.equal(await stopped(dc), 'entry');
      await dc.continueRequest({ threadId: 1 });
      assert.equal(await stopped(dc), 'breakpoint');
      assert.equal((await dc.topFrame()).source?.path, source);
    });
  },
);

test(
  "MAME Sprinter: the user's BIOS in a rompath under the odd folders boots, the program stops at main",
  { timeout: 240_000 },
  async () => {
    const dir = oddCopy('sprinter', sprinter.dir);
    const romParent = allOddFolders(join(base, 'roms'));
    mkdirSync(romParent, { recursive: true });
    const rompath = await ownBiosFolder(relative(tmpdir(), join(romParent, 'bios "мой" 🎮 $HOME `x`; ')));
    assert.ok(rompath.includes(';'), "MAME's search path cannot hold it as it is");
    await dapSession(async (dc) => {
      await dc.launchAndConfigure({
        machine: 'sprinter',
        emulator: 'mame',
        program: join(dir, 'HELLO.EXE'),
        debugInfo: join(dir, 'HELLO.cdb'),
        cwd: dir,
        rompath: [rompath],
        bridgeLoad: {},
      });
      assert.equal(await stopped(dc, 120_000), 'entry');
      const top = await dc.topFrame();
      assert.deepEqual([top.name, top.source?.path], ['main', join(dir, 'main.c')]);
    });
    // the BIOS folder holds what it held: nothing was staged beside the user's ROMs
    assert.deepEqual(readdirSync(rompath), ['sprinter']);
  },
);

for (const backend of ['native', 'wasm-dosbox-x'] as const) {
  test(
    `DOSBox (${backend}): the program's odd folder is C:, the profile under it names the variables`,
    { timeout: 180_000 },
    async () => {
      const dir = oddCopy(`dos-${backend}`, join(keyecho.com, '..'));
      const profile = join(dir, 'профиль "k" $x.dosprofile.json');
      writeKeyechoProfile(profile, keyecho);
      const before = readdirSync(dir).sort();
      await dapSession(async (dc) => {
        await dc.launchAndConfigure({
          machine: 'dos',
          program: join(dir, basename(keyecho.com)),
          cwd: dir,
          dos: { backend, profile },
        });
        const running = await dc.next<DebugProtocol.OutputEvent>('output', 90_000, (e) =>
          /DOS guest running in .*Programs: .*KEYECHO/.test(e.body.output),
        );
        assert.doesNotMatch(running.body.output, /VICE|MAME/);
        // a `"` in the folder: DOSBox's mount line cannot quote it, so C: is a link to it, and the session says so
        const said = dc.events.some(
          (e) => e.event === 'output' && /cannot mount .* by its name .*C: is .*a link to it/.test(e.body.output),
        );
        assert.ok(said, `the staging is said: ${JSON.stringify(dc.events.filter((e) => e.event === 'output'))}`);
        const { body } = await dc.scopesRequest({ frameId: 1 });
        const ref = body.scopes.find((s) => s.name === 'Profile symbols')?.variablesReference;
        assert.ok(ref, `the profile's scope among ${body.scopes.map((s) => s.name)}`);
        const vars = (await dc.variablesRequest({ variablesReference: ref })).body.variables;
        assert.deepEqual(
          vars.map((v) => v.name),
          ['count'],
        );
      });
      assert.deepEqual(readdirSync(dir).sort(), before, 'nothing was written beside the program');
    },
  );
}
