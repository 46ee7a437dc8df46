/**
 * The DOS frame source's own logic with a scripted screen: a frame only when
 * the pixels or the palette changed, at most the rate asked for, one read at
 * a time however slow the reads are, nothing once the last viewer left; and
 * the wasm palette learned from the emulator's picture by majority per index,
 * looked at again for an unseen index or after REFRESH_MS only.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Rgb } from '../../src/machines/dos/palette.js';
import type { ScreenFrame } from '../../src/core/target.js';
import { DosFrames, type DecodedScreen } from '../../src/connectors/dosbox/dos-frames.js';
import { pictureAfter, REFRESH_MS, RendererPalette } from '../../src/connectors/dosbox/renderer-palette.js';
import { sleep } from '../../src/core/async.js';

const GREY: Rgb[] = Array.from({ length: 256 }, (_, i) => [i, i, i]);

function screen(fill: number, palette: readonly Rgb[] = GREY): DecodedScreen {
  return { width: 4, height: 2, indices: new Uint8Array(8).fill(fill), palette };
}

/**
 * Emulated time: the source's timers and the test's waits run on node:test's mock clock, advanced in 5 ms steps
 * with the reads' promises settled at each, so the counts do not depend on how loaded the machine is.
 */
function mockClock(t: TestContext): (ms: number) => Promise<void> {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  return async (ms) => {
    for (let left = ms; left > 0; left -= 5) {
      t.mock.timers.tick(Math.min(5, left));
      for (let i = 0; i < 10; i++) await Promise.resolve();
    }
  };
}

test('frames only when the pixels or the palette change; frame numbers grow', async (t) => {
  const advance = mockClock(t);
  let current = screen(1);
  const src = new DosFrames(
    async () => current,
    () => true,
  );
  const got: ScreenFrame[] = [];
  const off = src.subscribe({ fps: 50 }, (f) => got.push(f));
  await advance(200);
  assert.equal(got.length, 1, 'the same screen read again and again: one frame');
  assert.ok(src.reads >= 3, `it kept reading (${src.reads})`);
  current = screen(2);
  await advance(100);
  assert.equal(got.length, 2, 'new pixels: a frame');
  current = screen(
    2,
    GREY.map(([r]) => [r, 0, 0] as Rgb),
  );
  await advance(100);
  assert.equal(got.length, 3, 'the same pixels in new colours (a DAC change): a frame');
  assert.deepEqual(
    got.map((f) => f.frame),
    [1, 2, 3],
  );
  assert.equal(got[1].pixels![0], 2);
  off();
});

test('at most the rate asked for, and nothing after the last viewer left', async (t) => {
  const advance = mockClock(t);
  let n = 0;
  const src = new DosFrames(
    async () => screen(n++ & 0xff),
    () => true,
  );
  const got: ScreenFrame[] = [];
  const off = src.subscribe({ fps: 10 }, (f) => got.push(f));
  await advance(1000);
  // a read at once, then one each 100 ms: the one at 1000 ms is the eleventh
  assert.ok(got.length >= 10 && got.length <= 11, `${got.length} frames in 1 s at 10 fps`);
  off();
  const reads = src.reads;
  await advance(300);
  assert.equal(src.reads, reads, 'no reads without a viewer');
});

test('one read at a time when reads are slower than the rate', async (t) => {
  const advance = mockClock(t);
  let inFlight = 0;
  let most = 0;
  let k = 0;
  const src = new DosFrames(
    async () => {
      most = Math.max(most, ++inFlight);
      await sleep(60);
      inFlight--;
      return screen(k++ & 0xff);
    },
    () => true,
  );
  const offs = [src.subscribe({ fps: 50 }, () => undefined), src.subscribe({ fps: 50 }, () => undefined)];
  await advance(400);
  offs.forEach((off) => off());
  assert.equal(most, 1, 'never two reads at once');
  assert.ok(src.reads >= 5, `back to back, each 60 ms: ${src.reads} reads in 400 ms`);
});

test('a failing read is a missed frame; a gone machine is not read', async (t) => {
  const advance = mockClock(t);
  let fail = true;
  let alive = true;
  const src = new DosFrames(
    async () => {
      if (fail) throw new Error('mode change');
      return screen(7);
    },
    () => alive,
  );
  const got: ScreenFrame[] = [];
  const off = src.subscribe({ fps: 50 }, (f) => got.push(f));
  await advance(100);
  assert.equal(got.length, 0);
  fail = false;
  await advance(100);
  assert.equal(got.length, 1);
  alive = false;
  const reads = src.reads;
  await advance(100);
  assert.ok(src.reads <= reads + 1, 'reading stops once the machine is gone');
  off();
});

/** A 2x-scaled picture of `indices` (w x h) in `palette`, as the wasm emulator's screenshot is. */
function picture(indices: Uint8Array, w: number, h: number, palette: readonly Rgb[]) {
  const rgba = Buffer.alloc(w * 2 * h * 2 * 4);
  for (let y = 0; y < h * 2; y++)
    for (let x = 0; x < w * 2; x++) {
      const [r, g, b] = palette[indices[(y >> 1) * w + (x >> 1)]];
      rgba.set([r, g, b, 255], (y * w * 2 + x) * 4);
    }
  return { width: w * 2, height: h * 2, rgba };
}

test("the learned palette: an index's colour once its pixels agree, refreshed only when needed", async () => {
  const real: Rgb[] = Array.from({ length: 256 }, (_, i) => [i, 255 - i, (i * 7) & 255]);
  let clock = 0;
  let shots = 0;
  let shown = Uint8Array.from([1, 1, 1, 2, 2, 2, 3, 3]);
  /** pixel 0 (index 1) as the emulator draws it: behind video memory while set */
  let behind: Rgb | undefined = [9, 9, 9];
  const learned = new RendererPalette(
    async () => {
      shots++;
      const p = picture(shown, 4, 2, real);
      if (behind) p.rgba.set([...behind, 255], (1 * 8 + 1) * 4); // the centre of its 2x2 block, what a reduction samples
      return p;
    },
    () => clock,
  );
  let pal = await learned.palette(shown, 4, 2);
  assert.deepEqual([pal[2], pal[3]], [real[2], real[3]]);
  assert.deepEqual(pal[1], [0, 0, 0], 'its pixels disagree (the picture is behind): not learned, black');
  assert.deepEqual(pal[4], [0, 0, 0], 'unseen: black');
  behind = undefined;
  pal = await learned.palette(shown, 4, 2);
  assert.deepEqual(pal[1], real[1], 'looked at again with the next frame: learned once it agrees');
  assert.equal(shots, 2);
  clock += REFRESH_MS / 2;
  await learned.palette(shown, 4, 2);
  assert.equal(shots, 2, 'known indices within the refresh time: no new screenshot');
  shown = Uint8Array.from([4, 4, 4, 4, 1, 1, 1, 1]);
  assert.deepEqual((await learned.palette(shown, 4, 2))[4], real[4], 'an unseen index: learned at once');
  assert.equal(shots, 3);
  clock += REFRESH_MS + 1;
  behind = [9, 9, 9];
  shown = Uint8Array.from([1, 4, 4, 4, 1, 1, 1, 1]);
  assert.deepEqual((await learned.palette(shown, 4, 2))[1], real[1], 'a refresh that disagrees keeps the colour');
  assert.equal(shots, 4, 'after the refresh time: looked at again (the DAC may have changed)');
  clock += REFRESH_MS + 1;
  assert.deepEqual(
    (await learned.palette(shown, 4, 2))[1],
    real[1],
    'pixels that have disagreed for the refresh time: the colour most of them show',
  );
  assert.equal(shots, 5);
});

test("the palette's picture is taken once the guest's timer ticked twice after the call (across a wrap)", async () => {
  const counts = [0xffffffff, 0xffffffff, 0, 1, 2];
  let reads = 0;
  let takenAfter = -1;
  const take = pictureAfter(
    async () => counts[Math.min(reads++, counts.length - 1)],
    async () => {
      takenAfter = reads;
      return { width: 1, height: 1, rgba: Buffer.alloc(4) };
    },
  );
  await take();
  assert.equal(takenAfter, 4, 'the start, then polls until the count read 1 (two ticks on from 0xffffffff)');
});
