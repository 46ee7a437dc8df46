/**
 * Live screen on the built-in C64 running a cc65 program: frames a second a
 * viewer gets, and the machine's emulated speed with a viewer as a ratio to
 * its speed without one, measured in the same run (warp, and real time);
 * then captures and reads overlapping while it runs: how many are refused.
 * Run: node --import tsx bench/screen.bench.ts [seconds a measurement] [rounds]
 */
import { join } from 'node:path';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import type { SessionApi } from '../src/session/types.js';
import { ScreenController } from '../src/ui/screen-controller.js';
import { buildCc65Program, REPO_ROOT } from '../test/support/c64-fixture.js';

const SECONDS = Number(process.argv[2] ?? 2);
/** alone/watched pairs, alternating which goes first, so a load that drifts during the run falls on both */
const ROUNDS = Number(process.argv[3] ?? 4);
const PAL_FPS = 50.125;

/**
 * The panel as VS Code runs it: the screen controller on the session, its
 * post() a structured clone of each message (what the extension host's
 * postMessage costs on its thread: the copy), acknowledged on the next turn.
 */
function panelViewer(manager: SessionManager, warp: boolean): { frames: () => number; close: () => void } {
  let posted = 0;
  const controller = new ScreenController({
    sessions: manager,
    fps: 30,
    post: (message) => {
      structuredClone(message);
      if (message.type === 'raw') posted++;
      return new Promise((r) => setImmediate(r));
    },
  });
  void controller.handleMessage({ type: 'warp', on: warp });
  void controller.handleMessage({ type: 'ready' });
  return { frames: () => posted, close: () => controller.dispose() };
}

/** Emulated frames a wall-clock second, over SECONDS, from the frame numbers the session's frames carry. */
async function emulatedRate(
  manager: SessionManager,
  session: SessionApi,
  watch: boolean,
  realtime: boolean,
): Promise<{ speed: number; fps: number }> {
  const numbers: number[] = [];
  // a probe at 2 fps reads the machine's frame counter; the viewer under test is the panel at 30 fps
  const probe = session.watchScreen({ fps: 2, realtime }, (f) => numbers.push(f.frame));
  const viewer = watch ? panelViewer(manager, !realtime) : undefined;
  await new Promise((r) => setTimeout(r, 300));
  const n0 = numbers.at(-1) ?? 0;
  const r0 = viewer?.frames() ?? 0;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const seconds = (performance.now() - t0) / 1000;
  const n1 = numbers.at(-1) ?? 0;
  const fps = ((viewer?.frames() ?? 0) - r0) / seconds;
  viewer?.close();
  probe();
  return { speed: (n1 - n0) / PAL_FPS / seconds, fps };
}

/** ROUNDS pairs; the ratio of the summed speeds, and the viewer's frames/s. */
async function ratio(
  manager: SessionManager,
  session: SessionApi,
  realtime: boolean,
): Promise<{ alone: number; watched: number; ratio: number; fps: number; each: string }> {
  let alone = 0;
  let watched = 0;
  let fps = 0;
  const each: string[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const pair: number[] = [];
    for (const watch of i % 2 ? [true, false] : [false, true]) {
      const r = await emulatedRate(manager, session, watch, realtime);
      pair[watch ? 1 : 0] = r.speed;
      if (watch) fps += r.fps / ROUNDS;
    }
    alone += pair[0] / ROUNDS;
    watched += pair[1] / ROUNDS;
    each.push((pair[1] / pair[0]).toFixed(2));
  }
  return { alone, watched, ratio: watched / alone, fps, each: each.join(' ') };
}

async function main(): Promise<void> {
  const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'live-screen'), ['live.c']);
  const manager = new SessionManager({ connectors: CONNECTORS });
  const client = manager.start(
    { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), cwd: dir },
    { kind: 'cli', label: 'bench' },
  );
  const { session } = client;
  try {
    await session.waitForStop(60_000).catch(() => undefined);
    if ((await session.status()).state === 'stopped') await client.resume();
    const warp = await ratio(manager, session, false);
    const real = await ratio(manager, session, true);
    console.log(`built-in C64, warp: ${warp.alone.toFixed(1)}x real time alone, ${warp.watched.toFixed(1)}x watched`);
    console.log(`  speed watched / alone (warp):      ${warp.ratio.toFixed(3)}  (target >= 0.9; rounds ${warp.each})`);
    console.log(`  speed watched / alone (real time): ${real.ratio.toFixed(3)}  (target >= 0.9; rounds ${real.each})`);
    console.log(
      `  panel frames/s at 30 asked (posted by the controller): warp ${warp.fps.toFixed(1)}, real time ${real.fps.toFixed(1)}  (target >= 25)`,
    );
    // overlapping reads and captures while running, with a viewer on
    const viewer = session.watchScreen({ fps: 30 }, () => undefined);
    let refused = 0;
    let done = 0;
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i++) {
      work.push(
        session.screenshot().then(
          () => done++,
          () => refused++,
        ),
      );
      work.push(
        session.readMemory({ space: 'cpu', offset: 0x0400 }, 256).then(
          () => done++,
          () => refused++,
        ),
      );
      await new Promise((r) => (i % 2 ? setImmediate(r) : setTimeout(r, 1)));
    }
    await Promise.all(work);
    viewer();
    console.log(`  overlapping captures and reads while running: ${done} done, ${refused} refused  (target 0)`);
    console.log('MAME and DOS: not measured here (their frames come from the session feed polling captures).');
  } finally {
    await manager.closeAll();
  }
}

void main();
