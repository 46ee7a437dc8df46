// Paths a user can type: shell metacharacters and both quotes, non-ASCII (Cyrillic, CJK, emoji) and a path longer
// than VICE's 255-byte monitor field, for the program, its debug info, a .d64 disk image and an output file, through the MCP tools on
// every emulator the suite can run (the built-in C64, MAME, native DOSBox, the wasm DOSBox-X). Where an emulator
// cannot take a name as it is, the session stages a stand-in and says so; nothing names a component that is not there.
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildC64Fixture, buildCc65Program, REPO_ROOT, type C64Fixture } from '../support/c64-fixture.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { buildDosFixtures, ToolDriver, type DosFixtures } from '../support/dos-fixture.js';
import { wasmAvailable } from '../../src/connectors/dosbox/wasm-launcher.js';
import { dosNameFor, isDosName } from '../../src/connectors/dosbox/dos-name.js';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { RecordingClient } from '../dap/dap-client.js';
import { allOddFolders, ODD_NAMES } from '../support/odd-names.js';

const D64_SOURCE = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'd64');
const D64_IMAGE = join(D64_SOURCE, 'disk.d64');

let c64: C64Fixture;
let d64Program: string;
let zx: ZxFixture;
let dos: DosFixtures;
const d = new ToolDriver();

before(async () => {
  [c64, zx, dos, d64Program] = await Promise.all([
    buildC64Fixture(),
    buildZxFixture(),
    buildDosFixtures(),
    buildCc65Program(D64_SOURCE, ['d64.c']),
  ]);
});
after(() => d.close());

/** The fixture files copied into an odd folder under odd names (inside the output folder: the MCP roots). */
function place(tag: string, name: (typeof ODD_NAMES)[number], files: [from: string, ext: string][]): string[] {
  const dir = join(d.outputDir, tag, name.folder);
  mkdirSync(dir, { recursive: true });
  return files.map(([from, ext]) => {
    const to = join(dir, `${name.stem}.${ext}`);
    copyFileSync(from, to);
    return to;
  });
}

async function endSession(id: string): Promise<void> {
  await d.call('stop_session', { session_id: id });
}

function noForeignComponent(progress: string[], wrong: RegExp): void {
  for (const line of progress) assert.doesNotMatch(line, wrong, `a message names a component not running: ${line}`);
}

for (const name of ODD_NAMES) {
  describe(`a program under ${name.label}`, () => {
    it('runs to main on the built-in C64, with its .dbg, and a screenshot saves beside it', async () => {
      const [prg] = place('c64', name, [
        [c64.prg, 'prg'],
        [c64.dbg, 'dbg'],
      ]);
      const s = await d.call('start_session', { machine: 'c64', emulator: 'builtin', program: prg, wait: true });
      const id = s.session_id as string;
      try {
        assert.equal(s.phase, 'ready', JSON.stringify(s.progress));
        noForeignComponent(s.progress, /VICE/);
        const st = await d.call('session_status', { session_id: id });
        assert.equal(st.location?.function, 'main', JSON.stringify(st));
        if (Buffer.byteLength(prg) > 255) assert.ok(s.progress.some((l: string) => /autostarting a copy/.test(l)));
        const out = join('c64', name.folder, `${name.stem}.png`);
        const shot = await d.call('screenshot', { session_id: id, output_path: out });
        assert.equal(shot.path, join(d.outputDir, out));
        assert.ok(existsSync(shot.path));
      } finally {
        await endSession(id);
      }
    });

    it('drive 8 from a .d64 image under that name on the built-in C64: cbm_load reads a file from it', async () => {
      const [prg, , image] = place('d64', name, [
        [join(d64Program, 'program.prg'), 'prg'],
        [join(d64Program, 'program.dbg'), 'dbg'],
        [D64_IMAGE, 'd64'],
      ]);
      const s = await d.call('start_session', {
        machine: 'c64',
        emulator: 'builtin',
        program: prg,
        drive8: image,
        wait: true,
      });
      const id = s.session_id as string;
      try {
        assert.equal(s.phase, 'ready', JSON.stringify(s.progress));
        const line = readFileSync(join(D64_SOURCE, 'd64.c'), 'utf8').split('\n').indexOf('    d = opendir(".");') + 1;
        const bp = await d.call('set_breakpoint', { session_id: id, file: 'd64.c', line });
        assert.equal(bp.breakpoint.verified, true, JSON.stringify(bp));
        const hit = await d.call('resume', { session_id: id, wait: true });
        assert.equal(hit.location?.line, line, JSON.stringify(hit));
        // the image's "data" PRG holds 11 22 33 44, loaded at $C000
        const mem = await d.call('read_memory', { session_id: id, address: '0xC000', length: 4 });
        assert.equal(mem.hex.replace(/\s/g, '').toLowerCase(), '0b16212c');
      } finally {
        await endSession(id);
      }
    });

    it('over DAP on the built-in C64: a breakpoint in a source under that folder hits, and the stack names it', async () => {
      const dir = join(d.outputDir, 'dap', name.folder);
      cpSync(c64.dir, dir, { recursive: true });
      const utilC = join(dir, 'util.c');
      const dc = new RecordingClient();
      await dc.start();
      try {
        await dc.initialize();
        await dc.launchAndConfigure(
          { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), cwd: dir, stopOnEntry: true },
          async () => {
            const bps = await dc.setBreakpointsRequest({
              source: { path: utilC },
              breakpoints: [{ line: c64.markers.scaled.line }],
            });
            assert.equal(bps.body.breakpoints[0].verified, true, bps.body.breakpoints[0].message);
          },
        );
        assert.equal((await dc.next<DebugProtocol.StoppedEvent>('stopped', 60_000)).body.reason, 'entry');
        dc.drain('stopped');
        await dc.continueRequest({ threadId: 1 });
        assert.equal((await dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000)).body.reason, 'breakpoint');
        const top = await dc.topFrame();
        assert.deepEqual([top.name, top.line, top.source?.path], ['add_scaled', c64.markers.scaled.line, utilC]);
      } finally {
        await dc.stop();
      }
    });

    it('runs to main on MAME spectrum, with its .cdb', { timeout: 60_000 }, async () => {
      const [rom] = place('zx', name, [
        [zx.rom, 'rom'],
        [zx.cdb, 'cdb'],
      ]);
      const s = await d.call('start_session', { machine: 'spectrum', emulator: 'mame', program: rom, wait: true });
      const id = s.session_id as string;
      try {
        assert.equal(s.phase, 'ready', JSON.stringify(s.progress));
        const st = await d.call('session_status', { session_id: id });
        assert.equal(st.location?.function, 'main', JSON.stringify(st));
      } finally {
        await endSession(id);
      }
    });

    for (const backend of ['native', 'wasm-dosbox-x'] as const) {
      it(
        `starts on DOSBox (${backend}) under its DOS name, saying when it staged one`,
        {
          timeout: 90_000,
          skip: backend !== 'native' && !wasmAvailable() ? 'optional npm package "emulators" not installed' : false,
        },
        async () => {
          const [com] = place(`dos-${backend}`, name, [[dos.programs.keyecho.com, 'com']]);
          const launched = await d.call('dosbox_launch', { program: com, backend });
          const id = launched.session_id as string;
          try {
            const file = `${name.stem}.com`;
            const dosName = (isDosName(file) ? file : dosNameFor(file)).replace(/\.COM$/i, '').toUpperCase();
            const names = (launched.programs as { name: string }[]).map((p) => p.name);
            assert.ok(names.includes(dosName), `${dosName} among ${names}`);
            const st = await d.call('session_status', { session_id: id });
            assert.ok(
              st.progress.some((l: string) => l.includes(`C:\\${dosName}.COM`)),
              `the staging is said: ${st.progress.join(' | ')}`,
            );
            // the user's folder holds only what the test put there: the stand-in is in the session's own folder
            assert.deepEqual(readdirSync(join(d.outputDir, `dos-${backend}`, name.folder)), [file]);
          } finally {
            await endSession(id);
          }
        },
      );
    }
  });
}

test('an output folder under every odd name: a snapshot saved and loaded again, a screenshot, on the built-in C64', async () => {
  const base = mkdtempSync(join(tmpdir(), 'odd-out-'));
  const out = allOddFolders(base);
  mkdirSync(out, { recursive: true });
  const od = new ToolDriver(out);
  try {
    const s = await od.call('start_session', { machine: 'c64', emulator: 'builtin', program: c64.prg, wait: true });
    const id = s.session_id as string;
    const saved = await od.call('save_state', { session_id: id, slot: 'one' });
    assert.equal(saved.file, join(out, 'snapshots', 'one.rdsnap'));
    await od.call('step', { session_id: id, kind: 'over', wait: true });
    const loaded = await od.call('load_state', { session_id: id, slot: 'one' });
    assert.equal(loaded.location?.function, 'main', JSON.stringify(loaded));
    const shot = await od.call('screenshot', { session_id: id, output_path: 'shot 🎮.png' });
    assert.equal(shot.path, join(out, 'shot 🎮.png'));
    assert.deepEqual(readdirSync(out).sort(), ['shot 🎮.png', 'snapshots']);
    await od.call('stop_session', { session_id: id });
  } finally {
    await od.close();
    rmSync(base, { recursive: true, force: true });
  }
});
