// The built-in C64's instruction observer (a profiler's) is wiring, not machine state: a time-travel move or a
// snapshot restore keeps it, replays of the history do not feed it (it sees the program run, not its replays), and
// the snapshot layout is the same whether an observer or the history's frame clock is set or not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BuiltinC64, CYCLES_PER_FRAME } from '../../src/connectors/builtin-c64/c64.js';
import { captureMachine, restoreMachine } from '../../src/connectors/builtin-c64/machine-state.js';
import { HistoryRecorder } from '../../src/connectors/builtin-c64/history/recorder.js';
import { MachineTravel } from '../../src/connectors/builtin-c64/history/travel.js';
import { builtinStateFormat, decodeMachine, encodeMachine } from '../../src/connectors/builtin-c64/snapshot.js';
import type { InstructionObserver } from '../../src/cpu/6502/cpu6502.js';
import { newMachine } from '../support/c64-machine.js';

function run(m: BuiltinC64, frames: number) {
  for (let i = 0; i < frames; i++) m.runSlice(CYCLES_PER_FRAME);
}

/** An observer counting what it is shown, and the cycles it was shown. */
function counter() {
  const seen = { n: 0, cycles: [] as number[] };
  const observe: InstructionObserver = (_pc, cycle) => {
    seen.n++;
    seen.cycles.push(cycle);
  };
  return { seen, observe };
}

test('a restore of a state captured without an observer keeps the one set since', () => {
  const { machine: m } = newMachine();
  run(m, 3);
  const state = captureMachine(m);
  const { seen, observe } = counter();
  m.cpu.onInstruction = observe;
  run(m, 1);
  const before = seen.n;
  assert.ok(before > 0);
  restoreMachine(m, state);
  assert.equal(m.cpu.onInstruction, observe, 'the observer stays set');
  run(m, 1);
  assert.ok(seen.n > before, 'and is fed as the machine runs on');
});

test('time travel keeps the observer; its replays do not feed it', () => {
  const { machine: m } = newMachine();
  const recorder = new HistoryRecorder(m, { seconds: 60, maxBytes: 64 * 2 ** 20 }, CYCLES_PER_FRAME);
  const travel = new MachineTravel(m, recorder);
  recorder.restart();
  run(m, 20);
  const { seen, observe } = counter();
  m.cpu.onInstruction = observe;
  run(m, 2);
  const present = m.cpu.cycles;
  const fed = seen.n;
  travel.goTo(present - 7 * CYCLES_PER_FRAME);
  assert.equal(m.cpu.onInstruction, observe, 'kept in the past');
  travel.trace(m.cpu.cycles);
  travel.recent(50);
  travel.lastWrite(0xd020, 1, m.cpu.cycles);
  travel.goTo(present);
  assert.equal(m.cpu.onInstruction, observe, 'kept back in the present');
  assert.equal(m.cpu.cycles, present);
  assert.equal(seen.n, fed, 'no replayed instruction was shown to it');
  run(m, 1);
  assert.ok(seen.n > fed, 'fed again as the machine runs on');
  assert.ok(
    seen.cycles.every((c, i) => i === 0 || c > seen.cycles[i - 1]),
    'it saw each moment once, in order',
  );
});

test('the snapshot layout does not depend on an observer or the history being set', () => {
  const { machine: bare } = newMachine();
  const format = builtinStateFormat(bare);
  const { machine: wired } = newMachine();
  wired.cpu.onInstruction = counter().observe;
  new HistoryRecorder(wired, { seconds: 60, maxBytes: 64 * 2 ** 20 }, CYCLES_PER_FRAME);
  assert.ok(wired.onHistoryFrame, 'the history set its frame clock');
  assert.equal(builtinStateFormat(wired), format);
  run(wired, 2);
  decodeMachine(bare, encodeMachine(wired)); // refused if the layouts differed
  assert.equal(bare.cpu.cycles, wired.cpu.cycles);
});
