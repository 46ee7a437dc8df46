// The refresh rate of a frame source whose every frame halts the machine (VICE): the choice checked, the poll and
// screenshot bounds, the cost sentence from measured stops, the stop meter, and the screen feed keeping to the rate
// (off: no capture while running, one at a stop; a screenshot within the period given again with its age).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScreenFeed } from '../../src/session/screen-feed.js';
import {
  DEFAULT_REFRESH_FPS,
  checkRefreshFps,
  pollFps,
  refreshCost,
  screenshotReuseMs,
} from '../../src/session/screen-refresh.js';
import { StopCost } from '../../src/connectors/vice/vice-stop-cost.js';
import { VICE_FRAME_SOURCE } from '../../src/connectors/vice/vice-target.js';
import { BUILTIN_FRAME_SOURCE } from '../../src/connectors/builtin-c64/frame-source.js';
import type { ScreenFrame, ScreenImage, TargetScreen } from '../../src/core/target.js';
import { parseLaunchConfig } from '../../src/session/launch-options.js';
import { CONNECTORS } from '../../src/connectors/registry.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the choice: one of the source rates, 1 by default; refused with the choices, or unsupported for a push source', () => {
  assert.equal(DEFAULT_REFRESH_FPS, 1);
  assert.equal(checkRefreshFps(VICE_FRAME_SOURCE, undefined, 'vice session'), 1);
  assert.equal(checkRefreshFps(VICE_FRAME_SOURCE, 0, 'vice session'), 0);
  assert.equal(checkRefreshFps(VICE_FRAME_SOURCE, 5, 'vice session'), 5);
  assert.throws(
    () => checkRefreshFps(VICE_FRAME_SOURCE, 3, 'vice session'),
    (e: { code: string; message: string }) => e.code === 'bad_request' && /one of 0, 1, 2, 5/.test(e.message),
  );
  assert.throws(
    () => checkRefreshFps(BUILTIN_FRAME_SOURCE, 1, 'builtin session s-1'),
    (e: { code: string; message: string }) => e.code === 'unsupported' && /builtin session s-1/.test(e.message),
  );
});

test('bounds: polling within the rate and the source; screenshots reuse a frame for one period (1 s when off)', () => {
  assert.equal(pollFps(VICE_FRAME_SOURCE, 2, 30), 2, "the panel's 30 asked, the user's 2 given");
  assert.equal(pollFps(VICE_FRAME_SOURCE, 5, 1), 1, 'a viewer asking less gets less');
  assert.equal(pollFps(VICE_FRAME_SOURCE, 0, 30), 0);
  assert.equal(pollFps({ ...VICE_FRAME_SOURCE, maxFps: 2 }, 5, 30), 2, "never above the source's own bound");
  assert.equal(pollFps(BUILTIN_FRAME_SOURCE, 0, 30), Math.min(30, BUILTIN_FRAME_SOURCE.maxFps), 'no rate: no bound');
  assert.equal(screenshotReuseMs(VICE_FRAME_SOURCE, 2), 500);
  assert.equal(screenshotReuseMs(VICE_FRAME_SOURCE, 0), 1000);
  assert.equal(screenshotReuseMs(BUILTIN_FRAME_SOURCE, 0), 0);
});

test('the cost sentence: the rate, then the measured stop and stops a second', () => {
  assert.match(refreshCost(VICE_FRAME_SOURCE, 1), /^refresh 1 frame\/s; .*not measured yet/);
  assert.match(refreshCost(VICE_FRAME_SOURCE, 0), /^refresh off \(frames at stops\)/);
  const measured = { stopMs: 3.25, stopsPerSecond: 2, samples: 4 };
  assert.equal(
    refreshCost({ ...VICE_FRAME_SOURCE, measured }, 2),
    'refresh 2 frames/s; each frame stops the C64 ~3.3 ms; 2.0 stops/s',
  );
  assert.equal(refreshCost(BUILTIN_FRAME_SOURCE, 1), BUILTIN_FRAME_SOURCE.cost);
});

test('the stop meter: median of the last 16, stops a second over the last 5 s (never under 1 s)', async () => {
  let now = 0;
  const meter = new StopCost(() => now);
  assert.equal(meter.measured(), undefined);
  for (let i = 0; i < 10; i++) meter.record(i * 500, i === 9 ? 100 : 4);
  now = 4600;
  assert.deepEqual(
    meter.measured(),
    { stopMs: 4, stopsPerSecond: (10 * 1000) / 4600, samples: 10 },
    'a slow one is no median',
  );
  now = 9400;
  const late = meter.measured()!;
  assert.equal(late.stopsPerSecond, 1 / 5, 'one stop (at 4.5 s) in the last 5 s');
  const timed = await meter.time(async () => {
    now += 7;
    return 'shot';
  });
  assert.equal(timed, 'shot');
  assert.equal(meter.measured()!.samples, 11);
});

/** A stop source with VICE's rates whose picture changes at every capture. */
function stopScreen() {
  let captures = 0;
  let running = true;
  const screen: TargetScreen = {
    frameSource: VICE_FRAME_SOURCE,
    capture: async (): Promise<ScreenImage> => {
      captures++;
      await sleep(1);
      return { width: 1, height: 1, rgba: Buffer.alloc(4, captures & 0xff), maybeStale: !running };
    },
  };
  return {
    screen,
    setRunning: (r: boolean) => (running = r),
    isRunning: () => running,
    captures: () => captures,
  };
}

test('the feed keeps to the rate: 1 frame/s by default, 5 when chosen, none while running when off', async () => {
  const fake = stopScreen();
  const feed = new ScreenFeed(() => fake.screen, fake.isRunning);
  assert.equal(feed.info.refreshFps, 1);
  assert.match(feed.info.cost, /^refresh 1 frame\/s/);
  const frames: ScreenFrame[] = [];
  const off = feed.watch({ fps: 30 }, (f) => frames.push(f));
  await sleep(1500);
  assert.ok(fake.captures() >= 1 && fake.captures() <= 2, `1 frame/s: the first and one more, got ${fake.captures()}`);
  feed.setRefresh(5, 'test');
  const at5 = fake.captures();
  await sleep(1000);
  assert.ok(fake.captures() - at5 <= 6, `5 frames/s at most, got ${fake.captures() - at5}`);
  assert.ok(fake.captures() - at5 >= 2, `more than at 1 frame/s, got ${fake.captures() - at5}`);
  feed.setRefresh(0, 'test');
  await sleep(300); // a capture under way ends
  const atOff = fake.captures();
  await sleep(700);
  assert.equal(fake.captures(), atOff, 'off: no capture while running');
  fake.setRunning(false);
  feed.stopped();
  await sleep(100);
  assert.equal(fake.captures(), atOff + 1, 'one frame at the stop');
  assert.equal(frames.at(-1)?.maybeStale, true);
  assert.throws(() => feed.setRefresh(4, 'test'), /one of 0, 1, 2, 5/);
  off();
  feed.close();
});

test('off: a viewer that comes while running takes no capture; a screenshot within the period is given again', async () => {
  const fake = stopScreen();
  const feed = new ScreenFeed(() => fake.screen, fake.isRunning, { screenRefreshFps: 0 });
  const off = feed.watch({ fps: 30 }, () => undefined);
  await sleep(200);
  assert.equal(fake.captures(), 0, 'off and running: nothing taken for the viewer');
  const first = await feed.screenshot();
  assert.equal(first.ageMs, undefined);
  const again = await feed.screenshot();
  assert.equal(fake.captures(), 1, 'the second within 1 s stops nothing');
  assert.ok(again.ageMs !== undefined && again.ageMs < 1000);
  assert.deepEqual(again.rgba, first.rgba);
  fake.setRunning(false);
  feed.stopped();
  await sleep(50);
  const stopped = await feed.screenshot();
  assert.equal(stopped.ageMs, undefined, 'stopped: a capture costs no stop, so a fresh one');
  off();
  feed.close();
});

test('screenRefreshFps: a VICE launch option of 0, 1, 2 or 5; the built-in, a push source, does not take it', () => {
  const vice = parseLaunchConfig(CONNECTORS, { machine: 'c64', emulator: 'vice', screenRefreshFps: 2 });
  assert.equal(vice.config.screenRefreshFps, 2);
  assert.throws(
    () => parseLaunchConfig(CONNECTORS, { machine: 'c64', emulator: 'vice', screenRefreshFps: 3 }),
    /"screenRefreshFps" must be one of 0, 1, 2, 5, not 3/,
  );
  assert.throws(
    () => parseLaunchConfig(CONNECTORS, { machine: 'c64', emulator: 'builtin', screenRefreshFps: 2 }),
    /"screenRefreshFps" is an option of emulator "vice", not of "builtin"/,
  );
});
