// The built-in's VIC-II raster on a plain memory: badlines and sprite DMA
// (the cycles it steals), raster compare, frames and the pictures it draws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BADLINE_CYCLES } from '../../src/connectors/builtin-c64/vic-timing.js';
import { LINES, VicRaster, memoryNow, type RasterMemory } from '../../src/connectors/builtin-c64/vic-raster.js';
import { BUFFER_WIDTH, INNER_X } from '../../src/connectors/builtin-c64/vic-line.js';

function memory(d011: number, sprites: { n: number; y: number; tall?: boolean }[] = []): RasterMemory {
  const ram = new Uint8Array(0x4000);
  const vic = new Uint8Array(0x40);
  vic[0x11] = d011;
  vic[0x16] = 0xc8;
  vic[0x18] = 0x14;
  for (const s of sprites) {
    vic[0x15] |= 1 << s.n;
    vic[1 + s.n * 2] = s.y;
    if (s.tall) vic[0x17] |= 1 << s.n;
  }
  return { vic, colorRam: new Uint8Array(0x400), vicRead: (offset) => ram[offset & 0x3fff] };
}

/** The cycles the raster takes on each line of one frame. */
function stolen(mem: RasterMemory): number[] {
  const raster = new VicRaster(mem);
  const out: number[] = [];
  for (let line = 0; line < LINES; line++) {
    out.push(raster.startLine(line));
    raster.endLine(line);
  }
  return out;
}

test('badlines: display on at line $30, lines $30-$F7 whose low bits equal YSCROLL; 25 a frame', () => {
  const text = stolen(memory(0x1b));
  assert.equal(text[0x33], BADLINE_CYCLES);
  assert.equal(text[0x34], 0);
  assert.equal(text[0x2b], 0, 'above the display window');
  assert.equal(
    stolen(memory(0x0b)).reduce((a, b) => a + b),
    0,
    'display off: no badlines',
  );
  assert.equal(
    text.reduce((a, b) => a + b),
    25 * BADLINE_CYCLES,
  );
});

test('sprite DMA: 2 cycles a sprite on its 21 (or 42) lines from Y+1, plus the bus hand-over', () => {
  const v = stolen(
    memory(0x0b, [
      { n: 0, y: 100 },
      { n: 3, y: 100, tall: true },
    ]),
  );
  assert.equal(v[100], 0);
  assert.equal(v[101], 3 + 2 * 2);
  assert.equal(v[121], 3 + 2 * 2);
  assert.equal(v[122], 3 + 2, 'the expanded one runs on');
  assert.equal(v[143], 0);
});

test('raster compare: $D012 and bit 7 of $D011 latch bit 0 of $D019 at the start of that line', () => {
  const mem = memory(0x9b);
  mem.vic[0x12] = 0x05; // line $105
  const raster = new VicRaster(mem);
  let fired = -1;
  for (let line = 0; line < LINES; line++) {
    raster.startLine(line);
    if (mem.vic[0x19] & 1 && fired < 0) fired = line;
    raster.endLine(line);
  }
  assert.equal(fired, 0x105);
});

test('frames: last-frame is the completed frame; a change after it shows in memory-now only', () => {
  const mem = memory(0x1b);
  mem.vic[0x20] = 2;
  mem.vic[0x21] = 6;
  const raster = new VicRaster(mem);
  assert.equal(raster.lastFrame().source, 'memory-now', 'before the first frame');
  const seen: number[] = [];
  raster.onFrame((f) => seen.push(f.frame!));
  for (let line = 0; line < LINES; line++) {
    raster.startLine(line);
    raster.endLine(line);
  }
  assert.deepEqual(seen, [1]);
  const inner = 100 * BUFFER_WIDTH + INNER_X + 10;
  const border = 100 * BUFFER_WIDTH + INNER_X - 10;
  const last = raster.lastFrame();
  assert.equal(last.source, 'last-frame');
  assert.equal(last.pixels[inner], 6);
  assert.equal(last.pixels[border], 2);
  mem.vic[0x21] = 1;
  assert.equal(raster.lastFrame().pixels[inner], 6, 'the completed frame keeps what the raster drew');
  assert.equal(memoryNow(mem)[inner], 1);
});
