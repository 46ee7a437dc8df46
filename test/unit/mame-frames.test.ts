/**
 * The Node side of MAME's pushed frames with a scripted bridge: one
 * subscription in MAME at the highest rate any viewer asks, real time
 * (throttle) while a viewer wants it, the launch speed back when the last one
 * leaves; each frame acked; BGRA turned into palette indices (RGBA past 256
 * colours); pixels read from the slot file (made private, named in
 * frames_start) or after the line; a malformed frame dropped; frame numbers
 * never going back; a stopped machine's picture as a still.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BridgeClient, BridgeEvent } from '../../src/connectors/mame/bridge-client.js';
import { bgraToRgba, MAME_SLOT_BYTES, MameFrames } from '../../src/connectors/mame/mame-frames.js';
import type { ScreenFrame } from '../../src/core/target.js';
import { sleep } from '../../src/core/async.js';
import { frameRgba } from '../../src/core/frames.js';
import { PaletteIndexer } from '../../src/connectors/mame/mame-pixels.js';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function fakeBridge() {
  const requests: Array<[string, unknown]> = [];
  let listener: (e: BridgeEvent, binary?: Buffer) => void = () => undefined;
  const bridge = {
    request: async (op: string, args: unknown) => {
      requests.push([op, args]);
      return { result: {} };
    },
    onEvent: (l: typeof listener) => {
      listener = l;
      return () => undefined;
    },
  } as unknown as BridgeClient;
  return { bridge, requests, send: (e: BridgeEvent, binary?: Buffer) => listener(e, binary) };
}

const frame = (seq: number, n: number, bgra: number[]) => ({
  event: { event: 'frame', seq, frame: n, width: 1, height: 1, format: 'bgra' } as BridgeEvent,
  binary: Buffer.from(bgra),
});

test('one subscription at the highest rate, throttle while a viewer wants real time, launch speed back after', async () => {
  const { bridge, requests } = fakeBridge();
  let running = true;
  const frames = new MameFrames(bridge, {
    throttle: false,
    running: () => running,
    screenshot: async () => assert.fail(),
  });
  const offA = frames.subscribe({ fps: 10, realtime: false }, () => undefined);
  await sleep(10);
  const offB = frames.subscribe({ fps: 30 }, () => undefined);
  await sleep(10);
  offB();
  await sleep(10);
  offA();
  await sleep(10);
  assert.deepEqual(requests, [
    ['frames_start', { fps: 10, throttle: false }],
    ['frames_start', { fps: 30, throttle: true }],
    ['frames_start', { fps: 10, throttle: false }],
    ['frames_stop', { throttle: false }],
  ]);
  running = false;
  // asked in a burst, MAME gets only the state that stands when its turn comes
  const again = fakeBridge();
  const burst = new MameFrames(again.bridge, {
    throttle: true,
    running: () => running,
    screenshot: async () => assert.fail(),
  });
  const offs = [5, 20, 12].map((fps) => burst.subscribe({ fps, realtime: false }, () => undefined));
  await sleep(10);
  assert.deepEqual(
    again.requests.at(-1),
    ['frames_start', { fps: 20, throttle: true }],
    'launched with throttle: real time stays',
  );
  offs.forEach((off) => off());
});

test('frames acked, BGRA to RGBA, malformed ones dropped, numbers never going back', async () => {
  const { bridge, requests, send } = fakeBridge();
  const frames = new MameFrames(bridge, { throttle: true, running: () => true, screenshot: async () => assert.fail() });
  const got: ScreenFrame[] = [];
  const off = frames.subscribe({ fps: 25 }, (f) => got.push(f));
  const a = frame(1, 40, [0x10, 0x20, 0x30, 0xff]);
  send(a.event, a.binary);
  send({ ...frame(2, 41, []).event }, Buffer.alloc(3)); // 3 bytes for a 1x1 frame
  const c = frame(3, 5, [1, 2, 3, 0xff]); // after a hard reset MAME counts from 0 again
  send(c.event, c.binary);
  await sleep(10);
  assert.deepEqual(
    got.map((f) => [f.frame, [...frameRgba(f)], f.maybeStale]),
    [
      [40, [0x30, 0x20, 0x10, 0xff], false],
      [40, [3, 2, 1, 0xff], false],
    ],
  );
  assert.ok(got[0].pixels && got[0].palette, 'a picture of few colours comes indexed');
  assert.deepEqual(
    requests.filter(([op]) => op === 'frames_ack').map(([, args]) => args),
    [{ seq: 1 }, { seq: 2 }, { seq: 3 }],
  );
  off();
});

test('pixels from the slot file: made owner-only, named in frames_start, read at the offset the event gives', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mame-slots-'));
  try {
    const { bridge, requests, send } = fakeBridge();
    const frames = new MameFrames(bridge, {
      throttle: false,
      running: () => true,
      screenshot: async () => assert.fail(),
      slotsDir: dir,
    });
    const got: ScreenFrame[] = [];
    const off = frames.subscribe({ fps: 25, realtime: false }, (f) => got.push(f));
    await sleep(10);
    const file = join(dir, 'frames.bin');
    assert.deepEqual(requests[0], ['frames_start', { fps: 25, throttle: false, file }]);
    assert.equal(statSync(file).mode & 0o777, 0o600, 'only the owner reads the pictures');
    // what MAME's frames.lua writes: slot 1 at 16 MiB, two pixels (BGRA)
    const slots = Buffer.alloc(MAME_SLOT_BYTES + 8);
    Buffer.from([0x10, 0x20, 0x30, 0xff, 1, 2, 3, 0xff]).copy(slots, MAME_SLOT_BYTES);
    writeFileSync(file, slots);
    const event = { event: 'frame', seq: 1, frame: 9, width: 2, height: 1, format: 'bgra' };
    send({ ...event, offset: MAME_SLOT_BYTES, bytes: 8 });
    send({ ...event, seq: 2, offset: 4, bytes: 8 }); // not a slot: dropped
    send({ ...event, seq: 3, offset: 0, bytes: 4 }); // not the frame's size: dropped
    await sleep(10);
    assert.deepEqual(
      got.map((f) => [...frameRgba(f)]),
      [[0x30, 0x20, 0x10, 0xff, 3, 2, 1, 0xff]],
    );
    assert.equal(requests.filter(([op]) => op === 'frames_ack').length, 3, 'every frame acked, dropped or not');
    off();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('palette indices: one palette across frames, a new array when it grows, RGBA past 256 colours', () => {
  const indexer = new PaletteIndexer();
  const bgra = (...rgbs: number[][]) => Buffer.from(rgbs.flatMap(([r, g, b]) => [b, g, r, 0xff]));
  const a = indexer.toIndexed(bgra([1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 5, 6]), 4)!;
  assert.deepEqual([...a.pixels], [0, 1, 0, 1]);
  assert.deepEqual(a.palette, [
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const b = indexer.toIndexed(bgra([4, 5, 6], [4, 5, 6], [1, 2, 3], [4, 5, 6]), 4)!;
  assert.deepEqual([...b.pixels], [1, 1, 0, 1], 'a colour keeps its index');
  assert.equal(b.palette, a.palette, 'no new colour: the same palette');
  const c = indexer.toIndexed(bgra([7, 8, 9], [1, 2, 3], [7, 8, 9], [7, 8, 9]), 4)!;
  assert.deepEqual([...c.pixels], [2, 0, 2, 2]);
  assert.equal(c.palette.length, 3);
  assert.equal(a.palette.length, 2, "an earlier frame's palette stays as it was");
  const many = Buffer.alloc(300 * 4);
  for (let i = 0; i < 300; i++) many.writeUInt32LE((0xff000000 | (i * 0x010203)) >>> 0, i * 4);
  assert.equal(indexer.toIndexed(many, 300), undefined, '300 colours: no indexed form');
  const d = indexer.toIndexed(bgra([4, 5, 6], [7, 8, 9]), 2)!;
  assert.deepEqual([...d.pixels], [0, 1], 'the palette started afresh');
  assert.deepEqual(d.palette, [
    [4, 5, 6],
    [7, 8, 9],
  ]);
});

test('a newcomer while stopped and every viewer at a stop get the picture as it stands, flagged', async () => {
  const { bridge } = fakeBridge();
  let shots = 0;
  const frames = new MameFrames(bridge, {
    throttle: false,
    running: () => false,
    screenshot: async () => ({
      width: 1,
      height: 1,
      rgba: Buffer.from([9, 9, 9, 255]),
      frame: 7 + shots++,
      maybeStale: true,
    }),
  });
  const got: ScreenFrame[] = [];
  const off = frames.subscribe({ fps: 25 }, (f) => got.push(f));
  await sleep(10);
  frames.stopped();
  await sleep(10);
  assert.deepEqual(
    got.map((f) => [f.frame, f.maybeStale]),
    [
      [7, true],
      [8, true],
    ],
  );
  off();
});

test('bgraToRgba swaps red and blue of every pixel, from any byte offset, into a new buffer', () => {
  const src = Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8]).subarray(1); // an odd offset, as a socket chunk may be
  assert.deepEqual([...bgraToRgba(src)], [3, 2, 1, 4, 7, 6, 5, 8]);
  assert.deepEqual([...src], [1, 2, 3, 4, 5, 6, 7, 8], 'the source left alone');
});
