// The built-in C64's live frames: pushed from its own frame clock while a real 6502 program runs, at the
// rate asked, only when the picture changed, without stopping the machine, at real speed for a viewer.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { MonitorClient } from '../../src/connectors/vice/monitor-client.js';
import { ViceTarget } from '../../src/connectors/vice/vice-target.js';
import { launchBuiltinTarget } from '../../src/connectors/builtin-c64/launcher.js';
import type { ScreenFrame, Target, TargetEvent } from '../../src/core/target.js';

/** "10 SYS2061" and then `code` at $080D */
function prg(code: number[]): Uint8Array {
  return Uint8Array.from([0x01, 0x08, 0x0c, 0x08, 0x0a, 0x00, 0x9e, 0x32, 0x30, 0x36, 0x31, 0x00, 0x00, 0x00, ...code]);
}
/** INC $0400 ; JMP $080D — the top-left character changes all the time */
const ANIMATE = [0xee, 0x00, 0x04, 0x4c, 0x0d, 0x08];
/** SEI ; JMP $080E — nothing on the screen changes (no IRQ, so no cursor blink) */
const IDLE = [0x78, 0x4c, 0x0e, 0x08];

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function start(code: number[]): Promise<{ server: BuiltinMonitorServer; target: ViceTarget }> {
  const server = new BuiltinMonitorServer();
  const target = await ViceTarget.open(MonitorClient.over(server.connectInProcess()), {
    kind: 'builtin',
    frames: {
      info: { mode: 'push', maxFps: 50, cost: '' },
      subscribe: (r, l, running) => server.frames.subscribe(r, l, running),
      stopped: () => server.frames.stopped(),
      current: (stale) => server.frames.current(stale),
    },
  });
  server.machine.autostart(prg(code), true);
  cleanup = async () => {
    await target.close();
    await server.close();
  };
  return { server, target };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it holds; fails naming `what` after 10 s (a loaded machine is slow, so no tighter bound). */
async function until(what: string, probe: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

test('25 fps asked while a program animates: about 25 changed frames a second, the machine at real speed, never stopped', async () => {
  const { server, target } = await start(ANIMATE);
  const events: TargetEvent[] = [];
  target.events.on((e) => events.push(e));
  const frames: ScreenFrame[] = [];
  await target.run.resume();
  const unsubscribe = target.screen.frames!({ fps: 25 }, (f) => frames.push(f));
  const t0 = performance.now();
  const f0 = server.machine.frame;
  await sleep(1200);
  const seconds = (performance.now() - t0) / 1000;
  const emulated = (server.machine.frame - f0) / 50.125;
  unsubscribe();
  const fps = (frames.length - 1) / seconds;
  // Upper bounds only: how close a loaded machine gets to 25 fps and real speed is bench/screen.bench.ts's job.
  assert.ok(frames.length >= 3 && fps <= 27, `frames advance at no more than the rate asked, got ${fps.toFixed(1)}`);
  assert.ok(emulated / seconds <= 1.1, `never faster than real time while watched: ${(emulated / seconds).toFixed(2)}`);
  assert.ok(
    frames.every((f, i) => i === 0 || f.frame > frames[i - 1].frame),
    'frame numbers grow',
  );
  const f = frames.at(-1)!;
  assert.deepEqual([f.width, f.height, f.inner], [384, 272, { x: 32, y: 35, width: 320, height: 200 }]);
  assert.equal(f.palette?.length, 16);
  assert.equal(f.maybeStale, false);
  assert.equal(server.isRunning, true);
  assert.ok(!events.some((e) => e.type === 'stopped'), 'nothing stopped the machine');
  const shot = await target.screen.capture();
  assert.deepEqual([shot.width, shot.height, shot.maybeStale, shot.rgba.length], [384, 272, false, 384 * 272 * 4]);
  assert.equal(server.isRunning, true, 'a screenshot while running stops nothing either');
});

test('only changed frames are sent; a stop sends the frame once, flagged stale', async () => {
  const { server, target } = await start(IDLE);
  const frames: ScreenFrame[] = [];
  await target.run.resume();
  // Settled in emulated time, not wall time: the program is in its loop (RUN and READY. are drawn) and a frame passed.
  await until('the idle loop', () => server.machine.cpu.pc >= 0x080e && server.machine.cpu.pc <= 0x0810);
  const settled = server.machine.frame;
  await until('a frame in the loop', () => server.machine.frame > settled + 1);
  const unsubscribe = target.screen.frames!({ fps: 50 }, (f) => frames.push(f));
  const f0 = server.machine.frame;
  await until('20 emulated frames', () => server.machine.frame - f0 >= 20);
  assert.equal(frames.length, 1, 'the first frame at once, then none while 20 frames ran: the picture did not change');
  await target.run.pause();
  await until('the frame at the stop', () => frames.length >= 2);
  await sleep(50);
  assert.equal(frames.length, 2, 'the stop sends one frame');
  assert.equal(frames[1].maybeStale, true);
  unsubscribe();
});

test('without a viewer the built-in runs warp as launched; a viewer makes it real time, warp on request', async () => {
  const { server, target } = await start(IDLE);
  await target.run.resume();
  const rate = async () => {
    const f0 = server.machine.frame;
    const t0 = performance.now();
    await sleep(400);
    return (server.machine.frame - f0) / 50.125 / ((performance.now() - t0) / 1000);
  };
  // The pacer's choice is checked directly; timing is asserted only as an upper bound (a loaded machine may be slow,
  // never fast), the speeds themselves are measured by bench/screen.bench.ts.
  assert.equal(server.frames.wantsRealtime, false, 'warp with nobody watching');
  const off = target.screen.frames!({ fps: 25 }, () => undefined);
  assert.equal(server.frames.wantsRealtime, true, 'a viewer asks for real time');
  const watched = await rate();
  assert.ok(watched <= 1.1, `real time while watched, never faster: ${watched.toFixed(2)}`);
  off();
  const warp = target.screen.frames!({ fps: 25, realtime: false }, () => undefined);
  assert.equal(server.frames.wantsRealtime, false, 'warp on request');
  warp();
});

test('the launcher gives the built-in target its pushed frame source', async () => {
  const target: Target = await launchBuiltinTarget({ machine: 'c64', emulator: 'builtin' } as never);
  cleanup = () => target.close();
  assert.equal(target.screen?.frameSource?.mode, 'push');
  assert.equal(typeof target.screen?.frames, 'function');
});
