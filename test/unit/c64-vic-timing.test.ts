import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BADLINE_CYCLES, stolenCycles } from '../../src/connectors/builtin-c64/vic-timing.js';

function vic(d011: number, sprites: { n: number; y: number; tall?: boolean }[] = []): Uint8Array {
  const v = new Uint8Array(0x40);
  v[0x11] = d011;
  for (const s of sprites) {
    v[0x15] |= 1 << s.n;
    v[1 + s.n * 2] = s.y;
    if (s.tall) v[0x17] |= 1 << s.n;
  }
  return v;
}

test('badlines: display on, lines $30-$F7 whose low bits equal YSCROLL; 25 a frame', () => {
  const text = vic(0x1b);
  assert.equal(stolenCycles(text, 0x33), BADLINE_CYCLES);
  assert.equal(stolenCycles(text, 0x34), 0);
  assert.equal(stolenCycles(text, 0x2b), 0, 'above the display window');
  assert.equal(stolenCycles(vic(0x0b), 0x33), 0, 'display off: no badlines');
  let frame = 0;
  for (let line = 0; line < 312; line++) frame += stolenCycles(text, line);
  assert.equal(frame, 25 * BADLINE_CYCLES);
});

test('sprite DMA: 2 cycles a sprite on its 21 (or 42) lines from Y+1, plus the bus hand-over', () => {
  const v = vic(0x0b, [
    { n: 0, y: 100 },
    { n: 3, y: 100, tall: true },
  ]);
  assert.equal(stolenCycles(v, 100), 0);
  assert.equal(stolenCycles(v, 101), 3 + 2 * 2);
  assert.equal(stolenCycles(v, 121), 3 + 2 * 2);
  assert.equal(stolenCycles(v, 122), 3 + 2, 'the expanded one runs on');
  assert.equal(stolenCycles(v, 143), 0);
});
