// Paths that change under a running session: the program's folder renamed away or deleted, the output folder
// deleted or read-only. The session keeps what it loaded (program, debug info), keeps debugging, and a reload or a
// write that cannot be done names the path; nothing outside the output folder is written. On the built-in C64, MAME
// and native DOSBox, one session each.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { buildDosFixtures, ToolDriver, writeKeyechoProfile, type DosProgramFixture } from '../support/dos-fixture.js';
import { makeReadOnly } from '../support/read-only-folder.js';

let fx: C64Fixture;
let zx: ZxFixture;
let keyecho: DosProgramFixture;
// the output folder inside a folder of its own: what lies beside it must stay as it was
const parent = mkdtempSync(join(tmpdir(), 'vanishing-'));
const d = new ToolDriver(join(parent, 'out'));
mkdirSync(d.outputDir);

before(async () => {
  [fx, zx, keyecho] = await Promise.all([
    buildC64Fixture(),
    buildZxFixture(),
    buildDosFixtures().then((f) => f.programs.keyecho),
  ]);
});
after(async () => {
  await d.close();
  rmSync(parent, { recursive: true, force: true });
});

/** Runs `body` with the output folder read-only, then checks nothing was written in or beside it. */
async function whileOutputReadOnly(body: () => Promise<void>): Promise<void> {
  const inside = readdirSync(d.outputDir, { recursive: true }).sort();
  const undo = makeReadOnly(d.outputDir);
  try {
    await body();
  } finally {
    undo();
  }
  assert.deepEqual(readdirSync(d.outputDir, { recursive: true }).sort(), inside, 'nothing new in the output folder');
  assert.deepEqual(readdirSync(parent), ['out'], 'nothing beside it');
}

/** A write refused by a read-only folder: names the file and the folder, and no emulator. */
function assertReadOnlyRefusal(e: { code: string; message: string }, file: string): void {
  assert.equal(e.code, 'not_allowed', e.message);
  assert.ok(e.message.includes(`Cannot write ${join(d.outputDir, file)}`), e.message);
  assert.match(e.message, /read-only/);
  assert.doesNotMatch(e.message, /VICE|MAME|DOSBox/);
}

/** Each write into the read-only output folder is refused naming its file, `meanwhile` still works; once the folder
 *  is writable again each write lands where it said. */
async function writesRefusedWhileReadOnly(
  writes: { tool: string; args: Record<string, unknown>; file: string }[],
  meanwhile: () => Promise<void> = async () => undefined,
): Promise<void> {
  await whileOutputReadOnly(async () => {
    for (const w of writes) assertReadOnlyRefusal(await d.fail(w.tool, w.args), w.file);
    await meanwhile();
  });
  for (const w of writes) {
    const done = await d.call(w.tool, w.args);
    const written = String(done.file ?? done.path);
    assert.equal(written, join(d.outputDir, w.file), JSON.stringify(done));
    assert.ok(existsSync(written));
  }
}

test('the program folder renamed mid-session: breakpoints, steps, variables and screenshots go on', async () => {
  const dir = join(d.outputDir, 'project');
  cpSync(fx.dir, dir, { recursive: true });
  const s = await d.call('start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: join(dir, 'program.prg'),
    wait: true,
  });
  const id = s.session_id as string;
  try {
    renameSync(dir, join(d.outputDir, 'project-moved'));
    // a reload needs the file again: refused naming it, before the machine is touched
    const reload = await d.fail('reset', { session_id: id, kind: 'reload' });
    assert.equal(reload.code, 'not_found');
    assert.ok(
      reload.message.startsWith(`Cannot reload: the program ${join(dir, 'program.prg')} is gone`),
      reload.message,
    );
    assert.doesNotMatch(reload.message, /VICE/);
    const bp = await d.call('set_breakpoint', { session_id: id, file: 'util.c', line: fx.markers.scaled.line });
    assert.equal(bp.breakpoint.verified, true, JSON.stringify(bp));
    const hit = await d.call('resume', { session_id: id, wait: true });
    assert.equal(hit.location?.line, fx.markers.scaled.line, JSON.stringify(hit));
    await d.call('step', { session_id: id, kind: 'over', wait: true });
    const v = await d.call('evaluate', { session_id: id, expression: 'scaled' });
    assert.match(JSON.stringify(v), /"value":"?\d+/, JSON.stringify(v));
    const shot = await d.call('screenshot', { session_id: id, output_path: 'after-rename.png' });
    assert.ok(existsSync(shot.path));
  } finally {
    await d.call('stop_session', { session_id: id });
  }
});

test('the output folder deleted or made a file mid-session: a write names the path, the session stays usable', async () => {
  const s = await d.call('start_session', { machine: 'c64', emulator: 'builtin', program: fx.prg, wait: true });
  const id = s.session_id as string;
  try {
    rmSync(join(d.outputDir, 'shots'), { recursive: true, force: true });
    writeFileSync(join(d.outputDir, 'shots'), 'a file where a folder was');
    const e = await d.fail('screenshot', { session_id: id, output_path: 'shots/one.png' });
    assert.match(e.message, /shots.*(not a folder|exists|file)/i, e.message);
    assert.doesNotMatch(e.message, /VICE|MAME|DOSBox/);
    const st = await d.call('session_status', { session_id: id });
    assert.equal(st.state, 'stopped');
    rmSync(d.outputDir, { recursive: true, force: true });
    const shot = await d.call('screenshot', { session_id: id, output_path: 'again.png' });
    assert.ok(existsSync(shot.path), 'the output folder is made again');
  } finally {
    await d.call('stop_session', { session_id: id });
  }
});

test(
  'MAME spectrum: the program folder deleted, the output folder read-only: reload, snapshot and screenshot',
  { timeout: 180_000 },
  async () => {
    const dir = join(d.outputDir, 'zx project');
    cpSync(zx.dir, dir, { recursive: true });
    const s = await d.call('start_session', {
      machine: 'spectrum',
      emulator: 'mame',
      program: join(dir, 'spectrum.rom'),
      wait: true,
    });
    const id = s.session_id as string;
    try {
      assert.equal(s.phase, 'ready', JSON.stringify(s.progress));
      rmSync(dir, { recursive: true });
      // MAME runs the ROM image staged in the session's own folder at launch: a reload boots that one again
      const again = await d.call('reset', { session_id: id, kind: 'reload' });
      assert.equal(again.location?.function, 'main', JSON.stringify(again));
      await writesRefusedWhileReadOnly(
        [
          { tool: 'save_state', args: { session_id: id, slot: 'one' }, file: 'snapshots/one.rdsnap' },
          { tool: 'screenshot', args: { session_id: id, output_path: 'shot.png' }, file: 'shot.png' },
        ],
        async () => {
          const stepped = await d.call('step', { session_id: id, kind: 'over', wait: true });
          assert.equal(stepped.state, 'stopped', JSON.stringify(stepped));
        },
      );
    } finally {
      await d.call('stop_session', { session_id: id });
    }
  },
);

test(
  "native DOSBox: the profile's folder deleted, the output folder read-only: each names the path",
  { timeout: 120_000 },
  async () => {
    const dir = join(d.outputDir, 'dos project');
    mkdirSync(dir);
    const com = join(dir, 'KEYECHO.COM');
    cpSync(keyecho.com, com);
    const profile = join(dir, 'keyecho.dosprofile.json');
    writeKeyechoProfile(profile, keyecho);
    const launched = await d.call('dosbox_launch', { program: com, backend: 'native' });
    const id = launched.session_id as string;
    try {
      rmSync(dir, { recursive: true });
      const gone = await d.fail('dosbox_load_profile', { session_id: id, path: profile });
      assert.equal(gone.code, 'not_found', gone.message);
      assert.ok(gone.message.includes(profile), gone.message);
      await writesRefusedWhileReadOnly([
        { tool: 'dosbox_capture_screen', args: { session_id: id, path: 'dos.png' }, file: 'dos.png' },
      ]);
      const screen = await d.call('dosbox_read_screen', { session_id: id });
      assert.match(JSON.stringify(screen), /KEYECHO/);
    } finally {
      await d.call('stop_session', { session_id: id });
    }
  },
);
