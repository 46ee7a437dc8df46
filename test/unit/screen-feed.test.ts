// The session's screen feed for a connector without a push source: a screenshot per frame while running (at most
// the source's rate, one at a time however slow), only changed pictures passed on, one frame at a stop, none after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScreenFeed } from '../../src/session/screen-feed.js';
import type { ScreenFrame, ScreenImage, TargetScreen } from '../../src/core/target.js';

function fakeScreen(opts: { captureMs: number; changeEvery: number }) {
  let captures = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const screen: TargetScreen = {
    frameSource: { mode: 'stop', maxFps: 20, cost: 'a test capture' },
    capture: async (): Promise<ScreenImage> => {
      const stale = !running; // as a real VICE: whether it ran when the capture began
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, opts.captureMs));
      inFlight--;
      const value = Math.floor(captures++ / opts.changeEvery);
      return { width: 2, height: 1, rgba: Buffer.alloc(8, value & 0xff), maybeStale: stale };
    },
  };
  let running = true;
  return {
    screen,
    setRunning: (r: boolean) => (running = r),
    isRunning: () => running,
    stats: () => ({ captures, maxInFlight }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('polled: at most the source rate, single flight, only changed frames, numbered upwards', async () => {
  const fake = fakeScreen({ captureMs: 2, changeEvery: 2 });
  const feed = new ScreenFeed(() => fake.screen, fake.isRunning);
  const frames: ScreenFrame[] = [];
  const off = feed.watch({ fps: 100 }, (f) => frames.push(f));
  await sleep(1000);
  off();
  const { captures, maxInFlight } = fake.stats();
  assert.ok(captures >= 12 && captures <= 22, `about 20 captures a second (the source's max), got ${captures}`);
  assert.equal(maxInFlight, 1);
  assert.ok(
    Math.abs(frames.length - captures / 2) <= 1,
    `every other capture changed: ${frames.length} of ${captures}`,
  );
  assert.ok(frames.every((f, i) => i === 0 || f.frame > frames[i - 1].frame));
  assert.equal(feed.info.cost, 'a test capture');
  feed.close();
});

test('a slow capture is never overlapped; a stop takes one frame, then polling rests until running again', async () => {
  const fake = fakeScreen({ captureMs: 120, changeEvery: 1 });
  const feed = new ScreenFeed(() => fake.screen, fake.isRunning);
  const frames: ScreenFrame[] = [];
  feed.watch({ fps: 50 }, (f) => frames.push(f));
  await sleep(500);
  assert.equal(fake.stats().maxInFlight, 1);
  fake.setRunning(false);
  await sleep(150); // the capture under way ends
  const before = fake.stats().captures;
  feed.stopped();
  await sleep(400);
  assert.equal(fake.stats().captures, before + 1, 'one capture at the stop, none while stopped');
  assert.equal(frames.at(-1)?.maybeStale, true);
  fake.setRunning(true);
  feed.resumed();
  await sleep(400);
  assert.ok(fake.stats().captures >= before + 3, 'polling again');
  feed.close();
});

test('collect: the kept frames after since_frame, else those arriving in time, bounded', async () => {
  const fake = fakeScreen({ captureMs: 1, changeEvery: 1 });
  const feed = new ScreenFeed(() => fake.screen, fake.isRunning);
  const got = await feed.collect(0, 3, 2000);
  assert.equal(got.length, 3);
  const later = await feed.collect(got[2].frame, 2, 2000);
  assert.equal(later.length, 2);
  assert.ok(later[0].frame > got[2].frame);
  assert.deepEqual(await feed.collect(0, 2, 0), feed.since(0, 2), 'wait 0: only what is kept');
  feed.close();
});

test('a stop met by a capture begun while running takes its own picture once that capture ends', async () => {
  const fake = fakeScreen({ captureMs: 150, changeEvery: 1 });
  const feed = new ScreenFeed(() => fake.screen, fake.isRunning);
  const frames: ScreenFrame[] = [];
  feed.watch({ fps: 5 }, (f) => frames.push(f));
  await sleep(20); // the first capture is under way, taken as running
  fake.setRunning(false);
  feed.stopped();
  await sleep(400);
  assert.equal(fake.stats().captures, 2, "the running capture, then the stop's");
  assert.equal(fake.stats().maxInFlight, 1);
  assert.deepEqual(
    frames.map((f) => f.maybeStale),
    [false, true],
    'the last picture is the stopped machine',
  );
  feed.close();
});

test('pushed: a stop is passed on even when its picture equals the last (a move in time to a same-looking moment)', () => {
  let push: ((f: ScreenFrame) => void) | undefined;
  const screen: TargetScreen = {
    frameSource: { mode: 'push', maxFps: 50, cost: 'a test source' },
    capture: () => Promise.reject(new Error('not used')),
    frames: (_request, listener) => {
      push = listener;
      return () => (push = undefined);
    },
  };
  const feed = new ScreenFeed(
    () => screen,
    () => false,
  );
  const frames: number[] = [];
  feed.watch({ fps: 50 }, (f) => frames.push(f.frame));
  const picture = (frame: number, maybeStale: boolean): ScreenFrame => ({
    width: 2,
    height: 1,
    frame,
    rgba: Buffer.alloc(8, 7),
    maybeStale,
  });
  push!(picture(10, false));
  push!(picture(11, false)); // running, unchanged: not passed on
  push!(picture(12, true)); // the stop
  push!(picture(13, true)); // a move back in time to a moment that looks the same
  assert.deepEqual(frames, [10, 12, 13]);
  feed.close();
});
