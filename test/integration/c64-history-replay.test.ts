// The built-in C64's history replays bit for bit: a real cc65 game loop (raster waits, keys typed at stops) runs
// 300 frames in irregular slices while recording; going back to frame k gives the same SHA-256 of RAM, registers
// and cycle count as a fresh machine run straight to frame k (other slices, the same keys at the same cycles).
// The budget is never exceeded while a small one fills, and a budget of 0 says why there is no history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CYCLES_PER_FRAME, type BuiltinC64 } from '../../src/connectors/builtin-c64/c64.js';
import { HistoryRecorder } from '../../src/connectors/builtin-c64/history/recorder.js';
import { MachineTravel } from '../../src/connectors/builtin-c64/history/travel.js';
import { REPO_ROOT, buildCc65Program } from '../support/c64-fixture.js';
import { newMachine } from '../support/c64-machine.js';

const SOURCE = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'history');
const MB = 2 ** 20;

function machineHash(m: BuiltinC64): string {
  const c = m.cpu;
  return createHash('sha256')
    .update(m.bus.ram)
    .update(m.bus.colorRam)
    .update(JSON.stringify([c.a, c.x, c.y, c.s, c.p, c.pc, c.cycles]))
    .digest('hex');
}

/** Runs to the first instruction boundary at or after `cycle` in slices of `slice()` cycles. */
function runTo(m: BuiltinC64, cycle: number, slice: () => number): void {
  while (m.cpu.cycles < cycle) {
    const stop = m.runSlice(Math.min(cycle - m.cpu.cycles, slice()));
    assert.equal(stop, undefined, `no stop expected (pc $${m.cpu.pc.toString(16)})`);
  }
}

/** A deterministic sequence of odd slice lengths (1 to 20000 cycles). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return 1 + (s % 20000);
  };
}

const KEYS: [number, string][] = [
  [40, 'd'],
  [41, 'd'],
  [90, 'a'],
  [150, 'ddd'],
  [151, 'a'],
  [220, 'd'],
];

test('history: back to frame k equals a fresh run to frame k (RAM, registers, cycles)', async () => {
  const prg = readFileSync(join(await buildCc65Program(SOURCE, ['game.c']), 'program.prg'));
  const { machine: a } = newMachine();
  a.autostart(prg, true);
  const recorder = new HistoryRecorder(a, { seconds: 60, maxBytes: 64 * MB }, CYCLES_PER_FRAME);
  assert.equal(recorder.off, undefined);
  const travel = new MachineTravel(a, recorder);
  recorder.restart();
  const typed: [number, string][] = [];
  const slices = lcg(7);
  for (const [frame, keys] of KEYS) {
    runTo(a, frame * CYCLES_PER_FRAME + 1234, slices);
    a.feedKeys(Buffer.from(keys.toUpperCase(), 'latin1'));
    recorder.changed();
    typed.push([a.cpu.cycles, keys]);
  }
  runTo(a, 300 * CYCLES_PER_FRAME, slices);
  const present = machineHash(a);
  const presentCycle = a.cpu.cycles;

  const pasts = new Map<number, string>();
  for (const k of [260, 25, 151, 100, 41]) {
    travel.goTo(k * CYCLES_PER_FRAME);
    assert.ok(travel.inPast);
    pasts.set(k, machineHash(a));
  }
  travel.goTo(presentCycle);
  assert.equal(travel.inPast, false);
  assert.equal(machineHash(a), present, 'back in the present, the machine is as it was');

  const { machine: b } = newMachine();
  b.autostart(prg, true);
  const even = () => CYCLES_PER_FRAME / 4;
  let next = 0;
  for (const k of [...pasts.keys()].sort((x, y) => x - y)) {
    const target = k * CYCLES_PER_FRAME;
    while (next < typed.length && typed[next][0] <= target) {
      runTo(b, typed[next][0], even);
      assert.equal(b.cpu.cycles, typed[next][0], 'the fresh run reaches the same instruction boundary');
      b.feedKeys(Buffer.from(typed[next][1].toUpperCase(), 'latin1'));
      next++;
    }
    runTo(b, target, even);
    assert.equal(pasts.get(k), machineHash(b), `frame ${k}: the replayed past equals the fresh run`);
  }
  assert.equal(new Set(pasts.values()).size, pasts.size, 'each frame is a different machine state');
});

test('history: the budget is never exceeded while it fills, and the oldest moments go first', async () => {
  const prg = readFileSync(join(await buildCc65Program(SOURCE, ['game.c']), 'program.prg'));
  const { machine } = newMachine();
  machine.autostart(prg, true);
  const maxBytes = 1 * MB;
  const recorder = new HistoryRecorder(machine, { seconds: 60, maxBytes }, CYCLES_PER_FRAME);
  recorder.restart();
  let most = 0;
  for (let f = 0; f < 600; f++) {
    runTo(machine, (f + 1) * CYCLES_PER_FRAME, () => CYCLES_PER_FRAME);
    most = Math.max(most, recorder.bytes);
    assert.ok(recorder.bytes <= maxBytes, `frame ${f}: ${recorder.bytes} bytes held, budget ${maxBytes}`);
  }
  assert.ok(most > maxBytes / 2, `the budget filled (${most} of ${maxBytes})`);
  assert.ok(recorder.snapshots[0].state.cycle > 100 * CYCLES_PER_FRAME, 'the oldest snapshots were dropped');
});

test('history: a budget of 0 (or too small for two snapshots) records nothing and says why', () => {
  const { machine } = newMachine();
  const zero = new HistoryRecorder(machine, { seconds: 60, maxBytes: 0 }, CYCLES_PER_FRAME);
  assert.match(zero.off ?? '', /history is off: .*history\.maxMegabytes.* to 0/);
  const noTime = new HistoryRecorder(machine, { seconds: 0, maxBytes: MB }, CYCLES_PER_FRAME);
  assert.match(noTime.off ?? '', /history\.seconds/);
  const tiny = new HistoryRecorder(machine, { seconds: 60, maxBytes: 1000 }, CYCLES_PER_FRAME);
  assert.match(tiny.off ?? '', /less than two snapshots/);
  tiny.restart();
  assert.equal(tiny.snapshots.length, 0);
});
