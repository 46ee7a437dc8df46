/**
 * MAME's pushed frames against real MAME 0.251 running the SDCC-built ZX
 * fixture: frames come while it runs (MAME's frame callback, binary pixels),
 * a screen that stands still sends nothing, a change written into screen
 * memory arrives as a frame, a frame decodes to the same pixels as the
 * screenshot taken at the next stop, the rate asked for bounds what is sent,
 * a viewer at real time throttles MAME, and a Z80 loop's own drawing into the
 * bitmap arrives while MAME runs unthrottled, its pixels through the slot file.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync, statSync } from 'node:fs';
import type { ScreenFrame } from '../../src/core/target.js';
import { frameRgba } from '../../src/core/frames.js';
import { launchMameTarget, type MameTarget } from '../../src/connectors/mame/mame-target.js';
import { MAME_RAW_FEATURE } from '../../src/connectors/mame/mame-raw.js';
import { buildZxFixture, REPO_ROOT } from '../support/zx-fixture.js';

const WORK_DIR = join(REPO_ROOT, '.test-work', 'mame-frames');

/** Waits until `cond` holds, polling; fails with `what` after `ms`. */
async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until no frame came for `quietMs` (the fixture's screen settles once fill_screen and draw are done). */
async function settle(frames: ScreenFrame[], quietMs: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const n = frames.length;
    await new Promise((r) => setTimeout(r, quietMs));
    if (frames.length === n) return;
    if (Date.now() > deadline) assert.fail(`the screen did not stand still within ${ms} ms`);
  }
}

/** The RGBA word at pixel (x, y). */
function pixel(f: ScreenFrame, x: number, y: number): number {
  return frameRgba(f).readUInt32BE((y * f.width + x) * 4);
}

/** The inner 256x192 area of a 352x296 spectrum frame (48-pixel border), as RGBA rows. */
function inner(f: ScreenFrame): string {
  const rgba = frameRgba(f);
  const rows: string[] = [];
  for (let y = 48; y < 48 + 192; y++)
    rows.push(rgba.subarray((y * f.width + 48) * 4, (y * f.width + 304) * 4).toString('hex'));
  return rows.join('');
}

/** Waits for the target's next stop event. */
function nextStop(t: MameTarget): Promise<void> {
  return new Promise<void>((resolve) => {
    const off = t.onEvent((e) => {
      if (e.type === 'stopped') {
        off();
        resolve();
      }
    });
  });
}

// 9000 ld hl,4000h | 9003 inc (hl) | inc hl | ld a,h | cp 58h | jr nz,9003 | jr 9000: every bitmap byte counts up
const DRAW_LOOP = Buffer.from('210040' + '34' + '23' + '7c' + 'fe58' + '20f9' + '18f4', 'hex');

describe('MAME pushed frames on the ZX fixture', { timeout: 240_000 }, () => {
  let t: MameTarget;

  before(async () => {
    const fx = await buildZxFixture();
    t = await launchMameTarget({ machine: 'spectrum', emulator: 'mame', program: fx.rom }, { workDir: WORK_DIR });
  });
  after(() => t?.close());

  test('frames while running, only changed ones, the same pixels as the stop-time screenshot', async () => {
    const frames: ScreenFrame[] = [];
    const off = t.screen.frames!({ fps: 25, realtime: false }, (f) => frames.push(f));
    try {
      await until(() => frames.length > 0, 10_000, 'a frame for the newcomer while stopped');
      assert.equal(frames[0].maybeStale, true, 'stopped: the frame as it stands, flagged');
      await t.resume();
      await until(() => frames.some((f) => !f.maybeStale), 10_000, 'a frame from the running machine');
      await settle(frames, 700, 30_000);

      // the picture stands still: MAME sends nothing
      const before = frames.length;
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(frames.length, before, 'no frame while the screen does not change');

      // a change in screen memory (bitmap row 0, column 0: 8 pixels at the inner area's top left) arrives as a frame
      const old = frames.at(-1)!;
      await t.writeMemory({ space: 'cpu', offset: 0x4000 }, Uint8Array.of(0x0f));
      await until(() => frames.length > before, 5000, 'a frame after the screen changed');
      const changed = frames.at(-1)!;
      assert.equal(changed.maybeStale, false);
      assert.ok(changed.frame > old.frame, 'frame numbers grow');
      assert.equal(changed.width, old.width);
      assert.notDeepEqual(frameRgba(changed), frameRgba(old));
      // spectrum: 352x296 with a 48-pixel border; 0x0F = 4 paper (white) then 4 ink (black) pixels
      const [paper, ink] = [pixel(old, 48, 48), pixel(old, 49, 48)]; // 0x55 from fill_screen
      assert.notEqual(paper, ink);
      assert.deepEqual(
        [49, 51, 52, 55].map((x) => pixel(changed, x, 48)),
        [paper, paper, ink, ink],
        'the new byte 0x0F: four paper pixels, then four ink',
      );
      await settle(frames, 700, 10_000);

      // a stop: the screenshot then equals the last pushed frame, pixel for pixel
      const lastRunning = frames.at(-1)!;
      const stopped = nextStop(t);
      await t.pause();
      await stopped;
      const shot = await t.screenshot();
      assert.equal(shot.width, lastRunning.width);
      assert.equal(shot.height, lastRunning.height);
      assert.ok(Buffer.from(shot.rgba).equals(frameRgba(lastRunning)), 'frame pixels = screenshot pixels');
      await until(() => frames.at(-1)!.maybeStale, 5000, 'the frame at the stop');
    } finally {
      off();
    }
  });

  test('the rate asked for bounds the frames sent while the screen changes every frame', async () => {
    const frames: ScreenFrame[] = [];
    await t.resume();
    const off = t.screen.frames!({ fps: 8, realtime: false }, (f) => frames.push(f));
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await t.writeMemory({ space: 'cpu', offset: 0x4020 + (i % 32) }, Uint8Array.of(i & 0xff));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    try {
      await new Promise((r) => setTimeout(r, 500));
      const n0 = frames.length;
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, 3000));
      const seconds = (performance.now() - t0) / 1000;
      const sent = frames.length - n0;
      assert.ok(sent <= 8 * seconds + 2, `at most 8 a second (+ a burst): ${sent} in ${seconds.toFixed(1)} s`);
      assert.ok(sent >= 3, `frames keep coming while the screen changes: ${sent}`);
    } finally {
      writing = false;
      await writer;
      off();
    }
  });

  test('a viewer at real time throttles MAME (launched unthrottled)', async () => {
    const off = t.screen.frames!({ fps: 25 }, () => undefined);
    try {
      await new Promise((r) => setTimeout(r, 500));
      const a = await t.status();
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, 2000));
      const b = await t.status();
      const speed = (b.time! - a.time!) / ((performance.now() - t0) / 1000);
      assert.ok(speed < 1.15, `real time while watched: ${speed.toFixed(2)}x`);
    } finally {
      off();
    }
  });

  test("the program's own drawing arrives while MAME runs unthrottled, its pixels through the slot file", async () => {
    const stopped = nextStop(t);
    await t.pause();
    await stopped;
    // black ink on white paper everywhere, so every bitmap byte the loop changes shows
    await t.writeMemory({ space: 'cpu', offset: 0x5800 }, new Uint8Array(768).fill(0x38));
    await t.writeMemory({ space: 'cpu', offset: 0x9000 }, DRAW_LOOP);
    await t.features.get(MAME_RAW_FEATURE)!.console('do pc=9000');
    const frames: ScreenFrame[] = [];
    await t.resume();
    const off = t.screen.frames!({ fps: 25, realtime: false }, (f) => frames.push(f));
    try {
      await until(() => frames.filter((f) => !f.maybeStale).length >= 12, 20_000, '12 frames of the drawing loop');
      const running = frames.filter((f) => !f.maybeStale);
      const pictures = new Set(running.map(inner));
      assert.ok(pictures.size >= 10, `the drawing changes the picture frame after frame: ${pictures.size} distinct`);
      assert.equal(new Set(running.map((f) => pixel(f, 0, 0))).size, 1, 'the border stays as it was: the bitmap moved');
      assert.ok(
        running.every((f) => f.pixels && f.palette),
        'a 16-colour picture comes palette-indexed',
      );
      const runDirs = readdirSync(WORK_DIR).filter((d) => d.startsWith(`mame-run-${process.pid}-`));
      const slotFiles = runDirs
        .map((d) => join(WORK_DIR, d, 'frames.bin'))
        .filter((f) => statSync(f, { throwIfNoEntry: false }));
      assert.ok(
        slotFiles.some((f) => statSync(f).size > 0),
        'MAME wrote the pixels into the slot file',
      );
    } finally {
      off();
    }
  });
});
