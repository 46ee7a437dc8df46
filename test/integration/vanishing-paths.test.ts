// Paths that change under a running session: the program's folder renamed away, the output folder deleted. The
// session keeps what it loaded (program, debug info), keeps debugging, and a write that cannot land names the path.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { ToolDriver } from '../support/dos-fixture.js';

let fx: C64Fixture;
const d = new ToolDriver();

before(async () => {
  fx = await buildC64Fixture();
});
after(() => d.close());

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
