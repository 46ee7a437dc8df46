// The built-in C64's snapshot format (the monitor's DUMP/UNDUMP): a machine put back from its snapshot runs on
// exactly as the original does (same cycles, registers, RAM, colour RAM, CIA); the layout is the same in every state
// (a snapshot never refuses its own build); another version, another layout, or a damaged byte is refused with
// nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { BuiltinC64, CYCLES_PER_FRAME } from '../../src/connectors/builtin-c64/c64.js';
import { builtinStateFormat, decodeMachine, encodeMachine } from '../../src/connectors/builtin-c64/snapshot.js';
import { newMachine } from '../support/c64-machine.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function fingerprint(m: BuiltinC64) {
  const { a, x, y, s, p, pc, cycles } = m.cpu;
  return { a, x, y, s, p, pc, cycles, ram: sha(m.bus.ram), colour: sha(m.bus.colorRam), cia: sha(m.bus.cia1.regs) };
}

function run(m: BuiltinC64, frames: number) {
  for (let i = 0; i < frames; i++) m.runSlice(CYCLES_PER_FRAME);
}

test('a machine restored from its snapshot runs on exactly as the original', () => {
  const { machine: a } = newMachine();
  run(a, 30);
  a.feedKeys(Buffer.from('HELLO'));
  run(a, 7);
  const format = builtinStateFormat(a);
  const snap = encodeMachine(a);
  const { machine: b } = newMachine();
  assert.equal(builtinStateFormat(b), format, 'the layout does not depend on the state');
  decodeMachine(b, snap);
  assert.deepEqual(fingerprint(b), fingerprint(a));
  run(a, 20);
  run(b, 20);
  assert.deepEqual(fingerprint(b), fingerprint(a), 'after 20 more frames');
  assert.match(format, /^builtin-c64\/2\/[0-9a-f]{16}$/);
});

test('another version, another layout or a damaged snapshot is refused, nothing changed', () => {
  const { machine: a } = newMachine();
  run(a, 5);
  const snap = encodeMachine(a);
  const { machine: b } = newMachine();
  run(b, 9);
  const before = fingerprint(b);
  const refused = (bytes: Buffer, why: RegExp) => {
    assert.throws(() => decodeMachine(b, bytes), why);
    assert.deepEqual(fingerprint(b), before);
  };
  const older = Buffer.from(snap);
  older.writeUInt16LE(0, 9);
  refused(older, /format 0; this build reads format 2/);
  const damaged = Buffer.from(snap);
  damaged[damaged.length - 40] ^= 1;
  refused(damaged, /damaged/);
  // another build's machine: its layout hash differs, its SHA-256 is right
  const otherLayout = Buffer.from(snap);
  otherLayout[11] ^= 1;
  createHash('sha256')
    .update(otherLayout.subarray(0, -32))
    .digest()
    .copy(otherLayout, otherLayout.length - 32);
  refused(otherLayout, /another build of Retro Debug/);
  refused(
    Buffer.from('VICE Snapshot File\x1a........................................................'),
    /not a built-in/,
  );
  refused(snap.subarray(0, 100), /damaged|not a built-in/);
});
