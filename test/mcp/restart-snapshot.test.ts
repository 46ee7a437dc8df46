// reset {soft|hard|reload}, save_state and load_state, live on the built-in C64 and real MAME (spectrum; sprinter
// snapshots on MAME 0.276), with three
// line breakpoints: after every reset, reload and snapshot load the emulator holds exactly one arm per listed
// breakpoint (VICE checkpoints / MAME bplist) and each fires once, naming exactly its own id. A loaded snapshot gives
// back the saved registers and the SHA-256 of all 64 KiB; slot names that could leave the output folder, a damaged
// file and another machine's snapshot are refused with nothing loaded.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildC64Fixture } from '../support/c64-fixture.js';
import { buildZxFixture } from '../support/zx-fixture.js';
import { buildSprinterFixture } from '../support/sprinter-fixture.js';
import { ToolDriver } from '../support/dos-fixture.js';

const d = new ToolDriver();
after(() => d.close());

type Marker = { file: string; line: number };

async function setBreakpoints(session_id: string, markers: Marker[]): Promise<number[]> {
  const ids: number[] = [];
  for (const { file, line } of markers)
    ids.push((await d.call('set_breakpoint', { session_id, file, line })).breakpoint.id);
  return ids;
}

/** each breakpoint fires once, in order, naming exactly its own id */
async function firesOnceEach(session_id: string, ids: number[], what: string): Promise<void> {
  for (const id of ids) {
    const r = await d.call('resume', { session_id, wait: true, timeout_ms: 20_000 });
    assert.deepEqual(r.stop?.breakpoint_ids, [id], `${what}: ${JSON.stringify(r.stop)}`);
  }
}

/** what a snapshot must give back: the registers and the SHA-256 of the whole 64 KiB CPU space */
async function machineState(session_id: string) {
  const { registers } = await d.call('read_registers', { session_id });
  const { sha256 } = await d.call('dump_memory', { session_id, start: 0, length: 0x10000, dry_run: true });
  return { registers, sha256 };
}

async function refusals(session_id: string, slot: string, foreign: string): Promise<void> {
  const before = await machineState(session_id);
  for (const slot of ['../escape', 'a/b', 'x'.repeat(65), '', '.hidden'])
    assert.equal((await d.fail('save_state', { session_id, slot })).code, 'bad_request', `slot ${slot}`);
  assert.equal((await d.fail('load_state', { session_id, slot: '../../etc/passwd' })).code, 'bad_request');
  assert.equal((await d.fail('load_state', { session_id, slot: 'never-saved' })).code, 'not_found');
  const saved = readFileSync(join(d.outputDir, 'snapshots', `${slot}.rdsnap`));
  const damaged = Buffer.from(saved);
  damaged[damaged.length - 7] ^= 0x40;
  writeFileSync(join(d.outputDir, 'snapshots', 'damaged.rdsnap'), damaged);
  const e1 = await d.fail('load_state', { session_id, slot: 'damaged' });
  assert.equal(e1.code, 'bad_request', e1.message);
  assert.match(e1.message, /damaged.*Nothing was loaded/);
  writeFileSync(join(d.outputDir, 'snapshots', 'garbage.rdsnap'), Buffer.from('not a snapshot at all\n'));
  assert.equal((await d.fail('load_state', { session_id, slot: 'garbage' })).code, 'incompatible_target');
  writeFileSync(join(d.outputDir, 'snapshots', 'foreign.rdsnap'), readFileSync(foreign));
  const e2 = await d.fail('load_state', { session_id, slot: 'foreign' });
  assert.equal(e2.code, 'incompatible_target', e2.message);
  assert.deepEqual(await machineState(session_id), before, 'nothing was loaded');
}

/** save → run → load → the same registers and memory → the next breakpoint fires once */
async function snapshotRoundTrip(session_id: string, slot: string, ids: number[], count: () => Promise<number>) {
  const saved = await machineState(session_id);
  const { generation } = await d.call('session_status', { session_id });
  const s = await d.call('save_state', { session_id, slot });
  assert.ok(s.bytes > 0 && /^[0-9a-f]{64}$/.test(s.sha256), JSON.stringify(s));
  assert.equal((await d.fail('save_state', { session_id, slot })).code, 'file_exists');
  await firesOnceEach(session_id, ids.slice(1), 'before the load');
  assert.notDeepEqual(await machineState(session_id), saved, 'the machine ran on');
  const loaded = await d.call('load_state', { session_id, slot, generation: generation as number });
  assert.equal(loaded.stop?.pc, loaded.stop?.pc);
  assert.ok((loaded.generation as number) > (generation as number), 'the load bumped the generation');
  assert.deepEqual(await machineState(session_id), saved, 'registers and RAM as saved');
  assert.equal(await count(), ids.length, 'one arm per breakpoint after the load');
  const stale = await d.fail('load_state', { session_id, slot, generation: generation as number });
  assert.equal(stale.code, 'stale_generation');
  await firesOnceEach(session_id, ids.slice(1), 'after the load');
}

test('built-in C64: reset hard and reload keep 3 breakpoints armed once; a snapshot gives the machine back', async () => {
  const c64 = await buildC64Fixture();
  const started = await d.call('start_session', { machine: 'c64', emulator: 'builtin', program: c64.prg, wait: true });
  const session_id = started.session_id as string;
  try {
    const ids = await setBreakpoints(
      session_id,
      ['banner', 'prompt', 'wait_key'].map((n) => c64.markers[n]),
    );
    const checkpoints = async () => (await d.call('vice_checkpoint_list', { session_id })).checkpoints.length as number;
    assert.equal(await checkpoints(), 3);

    const hard = await d.call('reset', { session_id, kind: 'hard' });
    assert.equal(hard.state, 'running');
    assert.ok(hard.generation > started.generation);
    await d.call('pause', { session_id });
    assert.equal(await checkpoints(), 3, 'after a hard reset');
    const soft = await d.call('reset', { session_id, kind: 'soft' });
    assert.equal(soft.state, 'running');
    await d.call('pause', { session_id });
    assert.equal(await checkpoints(), 3, 'after a soft reset');

    const reload = await d.call('reset', { session_id, kind: 'reload' });
    assert.equal(reload.stop?.reason, 'entry', JSON.stringify(reload.stop));
    assert.equal(reload.location?.function, 'main');
    assert.equal(await checkpoints(), 3, 'after the reload');
    await firesOnceEach(session_id, ids.slice(0, 1), 'after the reload');

    await snapshotRoundTrip(session_id, 'c64', ids, checkpoints);
    // the same file, said to be a spectrum's: the header is checked before a byte is loaded
    const own = readFileSync(join(d.outputDir, 'snapshots', 'c64.rdsnap'));
    const relabelled = join(d.outputDir, 'relabelled.rdsnap');
    writeFileSync(
      relabelled,
      Buffer.from(own.toString('latin1').replace('"machine":"c64"', '"machine":"spectrum"'), 'latin1'),
    );
    await refusals(session_id, 'c64', relabelled);
  } finally {
    await d.call('stop_session', { session_id });
  }
});

test('spectrum (MAME): reset soft/hard/reload keep 3 breakpoints armed once; a snapshot gives the machine back', async () => {
  const zx = await buildZxFixture();
  const started = await d.call('start_session', { machine: 'spectrum', emulator: 'mame', program: zx.rom, wait: true });
  const session_id = started.session_id as string;
  try {
    const ids = await setBreakpoints(
      session_id,
      ['loop_body', 'call_draw', 'call_shade'].map((n) => zx.markers[n]),
    );
    const bplist = async () => {
      const { lines } = await d.call<{ lines: string[] }>('debugger_command', { session_id, command: 'bplist' });
      return lines.filter((l) => /^\s*[0-9A-Fa-f]+\s*D?\s*@/.test(l)).length;
    };
    assert.equal(await bplistUnderLease(session_id, bplist), 3);
    for (const kind of ['soft', 'hard'] as const) {
      const r = await d.call('reset', { session_id, kind });
      assert.equal(r.state, 'running', kind);
      // the program starts again from the ROM's first instruction and reaches its loop: each fires once
      const first = await d.call('wait_for_stop', { session_id, timeout_ms: 20_000 });
      assert.deepEqual(first.stop?.breakpoint_ids, [ids[0]], `${kind}: ${JSON.stringify(first.stop)}`);
      assert.equal(await bplistUnderLease(session_id, bplist), 3, `after a ${kind} reset`);
      await firesOnceEach(session_id, ids.slice(1), `after a ${kind} reset`);
    }
    const reload = await d.call('reset', { session_id, kind: 'reload' });
    assert.equal(reload.stop?.reason, 'entry', JSON.stringify(reload.stop));
    assert.equal(reload.location?.function, 'main');
    assert.equal(await bplistUnderLease(session_id, bplist), 3, 'after the reload');
    await firesOnceEach(session_id, ids, 'after the reload');
    await firesOnceEach(session_id, ids.slice(0, 1), 'the next turn');

    await snapshotRoundTrip(session_id, 'zx', ids, () => bplistUnderLease(session_id, bplist));
    await refusals(session_id, 'zx', join(d.outputDir, 'snapshots', 'c64.rdsnap'));
  } finally {
    await d.call('stop_session', { session_id });
  }
});

test('sprinter (MAME 0.276, open ROM): a snapshot gives the banked machine back, breakpoints armed once', async () => {
  const fx = await buildSprinterFixture();
  const started = await d.call('start_session', {
    machine: 'sprinter',
    program: fx.exe,
    debugInfo: fx.cdb,
    wait: true,
  });
  const session_id = started.session_id as string;
  try {
    const ids = await setBreakpoints(session_id, [fx.markers.loop, fx.markers.square]);
    await firesOnceEach(session_id, ids.slice(0, 1), 'the first turn');
    const bplist = async () => {
      const { lines } = await d.call<{ lines: string[] }>('debugger_command', { session_id, command: 'bplist' });
      return lines.filter((l) => /^\s*[0-9A-Fa-f]+\s*D?\s*@/.test(l)).length;
    };
    await snapshotRoundTrip(session_id, 'spr', ids, () => bplistUnderLease(session_id, bplist));
    // the square the program computes after the load is the one it computed before it
    assert.equal((await d.call('evaluate', { session_id, expression: 'n' })).result.value, '1');
    await refusals(session_id, 'spr', join(d.outputDir, 'snapshots', 'zx.rdsnap'));
  } finally {
    await d.call('stop_session', { session_id });
  }
});

async function bplistUnderLease(session_id: string, bplist: () => Promise<number>): Promise<number> {
  await d.call('claim_raw_lease', { session_id });
  try {
    return await bplist();
  } finally {
    await d.call('release_raw_lease', { session_id });
  }
}
