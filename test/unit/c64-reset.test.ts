// A machine reset (VICE's RESET command, soft or power) reaches the chips the
// C64's RESET line reaches: both CIAs (timers stopped, interrupts off, TOD
// stopped at 1:00:00.0) and the SID (registers 0, voice 3 silent); the
// KERNAL's initialisation then starts CIA 1's jiffy timer again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CYCLES_PER_FRAME } from '../../src/connectors/builtin-c64/c64.js';
import { newMachine } from '../support/c64-machine.js';

test('reset: CIA timers, interrupt masks and TOD, and the SID return to their reset state', () => {
  const { machine } = newMachine();
  const bus = machine.bus;
  const poke = (address: number, value: number) => bus.poke(address, value, true);
  const peek = (address: number) => bus.peek(address, true);
  // CIA 1 timer B running with its interrupt; CIA 2 timer A running with the NMI; TOD set and running
  poke(0xdc06, 0x00);
  poke(0xdc07, 0x10);
  poke(0xdc0f, 0x11);
  poke(0xdc0d, 0x82);
  poke(0xdd04, 0x00);
  poke(0xdd05, 0x20);
  poke(0xdd0e, 0x11);
  poke(0xdd0d, 0x81);
  poke(0xdd0b, 0x05);
  poke(0xdd08, 0x00);
  // SID voice 3: sawtooth, fast attack, gate on
  poke(0xd40f, 0x40);
  poke(0xd413, 0x00);
  poke(0xd414, 0xf0);
  poke(0xd412, 0x21);
  machine.runSlice(CYCLES_PER_FRAME);
  assert.notEqual(peek(0xd41c), 0, 'the envelope rose before the reset');
  assert.equal(peek(0xdd0b), 0x05);

  machine.reset();
  assert.equal(peek(0xdc0f) & 1, 0, 'CIA 1 timer B stopped');
  assert.equal(peek(0xdc06) | (peek(0xdc07) << 8), 0xffff, 'CIA 1 timer B at its reset latch');
  assert.equal(peek(0xdd0e) & 1, 0, 'CIA 2 timer A stopped');
  assert.equal(peek(0xdd04) | (peek(0xdd05) << 8), 0xffff, 'CIA 2 timer A at its reset latch');
  assert.equal(peek(0xdc0e) & 1, 1, "CIA 1 timer A runs again: the KERNAL's jiffy timer");
  assert.deepEqual([0xdd0b, 0xdd0a, 0xdd09, 0xdd08].map(peek), [0x01, 0, 0, 0], 'TOD back at 1:00:00.0');
  assert.equal(peek(0xd41c), 0, 'SID envelope 0');
  assert.equal(peek(0xd41b), 0, 'SID oscillator 0');

  machine.runSlice(CYCLES_PER_FRAME * 3);
  assert.equal(peek(0xdc06) | (peek(0xdc07) << 8), 0xffff, 'timer B does not count after the reset');
  assert.equal(peek(0xdc0d) & 0x02, 0, 'no timer B interrupt pending');
  assert.equal(peek(0xdd0d), 0, 'CIA 2: nothing pending, no NMI source');
  assert.deepEqual([0xdd0b, 0xdd0a, 0xdd09, 0xdd08].map(peek), [0x01, 0, 0, 0], 'TOD stays stopped');
  assert.equal(peek(0xd41c), 0, 'the SID stays silent (gate off)');
});
