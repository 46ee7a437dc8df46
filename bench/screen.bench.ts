/**
 * Live screen on the built-in C64 running a cc65 program: frames a second a
 * viewer gets, and the machine's emulated speed with a viewer as a ratio to
 * its speed without one, measured in the same run (warp, and real time);
 * then captures and reads overlapping while it runs: how many are refused.
 * Run: node --import tsx bench/screen.bench.ts [seconds]
 */
import { join } from 'node:path';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import type { SessionApi } from '../src/session/types.js';
import { buildCc65Program, REPO_ROOT } from '../test/support/c64-fixture.js';

const SECONDS = Number(process.argv[2] ?? 3);
const PAL_FPS = 50.125;

/** Emulated frames a wall-clock second, over SECONDS, from the frame numbers the session's frames carry. */
async function emulatedRate(
  session: SessionApi,
  watch: boolean,
  realtime: boolean,
): Promise<{ speed: number; fps: number }> {
  const numbers: number[] = [];
  // a probe at 2 fps reads the machine's frame counter; the viewer under test asks 30 fps
  const probe = session.watchScreen({ fps: 2, realtime }, (f) => numbers.push(f.frame));
  let received = 0;
  const viewer = watch ? session.watchScreen({ fps: 30, realtime }, () => received++) : undefined;
  await new Promise((r) => setTimeout(r, 300));
  const n0 = numbers.at(-1) ?? 0;
  const r0 = received;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const seconds = (performance.now() - t0) / 1000;
  const n1 = numbers.at(-1) ?? 0;
  viewer?.();
  probe();
  return { speed: (n1 - n0) / PAL_FPS / seconds, fps: (received - r0) / seconds };
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
    const warpAlone = await emulatedRate(session, false, false);
    const warpWatched = await emulatedRate(session, true, false);
    const realAlone = await emulatedRate(session, false, true);
    const realWatched = await emulatedRate(session, true, true);
    console.log(
      `built-in C64, warp: ${warpAlone.speed.toFixed(1)}x real time alone, ${warpWatched.speed.toFixed(1)}x watched`,
    );
    console.log(
      `  speed watched / alone (warp):      ${(warpWatched.speed / warpAlone.speed).toFixed(3)}  (target >= 0.9)`,
    );
    console.log(
      `  speed watched / alone (real time): ${(realWatched.speed / realAlone.speed).toFixed(3)}  (target >= 0.9)`,
    );
    console.log(
      `  viewer frames/s at 30 asked: warp ${warpWatched.fps.toFixed(1)}, real time ${realWatched.fps.toFixed(1)}  (target >= 25)`,
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
