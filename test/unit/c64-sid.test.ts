// The SID's voice 3 readback on the built-in (sid-voice3.ts): the sawtooth is
// the accumulator's top byte (from reSID's power-on $555555), noise changes as the LFSR is clocked and
// repeats from its reset state, the envelope attacks to 255, decays to the
// sustain level and releases to 0 at reSID's rates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SidVoice3 } from '../../src/connectors/builtin-c64/sid-voice3.js';

test('sawtooth: $D41B is the phase accumulator top byte (frequency x cycles / 65536)', () => {
  const sid = new SidVoice3();
  sid.write(0x0e, 0x00, 0);
  sid.write(0x0f, 0x10, 0); // $1000 a cycle
  sid.write(0x12, 0x20, 0);
  // from the power-on accumulator $555555 (x64sc reads $55 from a sawtooth that never ran)
  assert.equal(sid.read(0x1b, 1000), ((0x555555 + 0x1000 * 1000) >> 16) & 0xff);
  sid.write(0x12, 0x28, 1000); // test bit: held at 0
  assert.equal(sid.read(0x1b, 5000), 0);
});

test('noise: changes as it is clocked, and the same cycles give the same bytes', () => {
  const bytes = () => {
    const sid = new SidVoice3();
    sid.write(0x0e, 0xff, 0);
    sid.write(0x0f, 0xff, 0);
    sid.write(0x12, 0x80, 0);
    return Array.from({ length: 16 }, (_, i) => sid.read(0x1b, 100 + i * 37));
  };
  const first = bytes();
  assert.deepEqual(bytes(), first);
  assert.ok(new Set(first).size > 8, `noise bytes vary: ${first}`);
});

test('envelope: attack to 255, decay to sustain, release to 0', () => {
  const sid = new SidVoice3();
  sid.write(0x13, 0x22, 0); // attack 2 (63 cycles a step), decay 2
  sid.write(0x14, 0x80, 0); // sustain 8 ($88), release 0
  sid.write(0x12, 0x81, 0);
  assert.equal(sid.read(0x1c, 63 * 100), 100);
  assert.equal(sid.read(0x1c, 63 * 255), 255);
  assert.equal(sid.read(0x1c, 100_000), 0x88);
  sid.write(0x12, 0x80, 100_000);
  assert.equal(sid.read(0x1c, 200_000), 0);
});
