/**
 * The live screen per machine: frames a second the panel gets, the machine's
 * emulated speed with the panel watching as a ratio to its speed without one
 * (measured by the machine itself, in alternating rounds of the same run; warp
 * and real time where the machine has both), and captures and reads
 * overlapping while it runs: how many are refused. Built-in C64 (cc65
 * program, its frame counter), MAME and DOS (screen-machines.ts).
 * "per CPU second" is the same ratio of emulated speed per CPU second of the
 * emulator and the viewer (this process, and the emulator's own where it is
 * one: MAME, native DOSBox): on a shared machine the CPU share a round gets
 * moves the wall-clock speed by more than the viewer costs, while this shows
 * what the viewer takes from the emulation (on one core the two are the same).
 * In real time the speed is fixed; there the CPU seconds a second say what
 * watching costs.
 * Run: node --import tsx bench/screen.bench.ts [seconds a measurement] [rounds] [c64,mame,dos,wasm]
 */
import { join } from 'node:path';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import { wasmAvailable } from '../src/connectors/dosbox/wasm-launcher.js';
import { buildCc65Program, REPO_ROOT } from '../test/support/c64-fixture.js';
import { benchDos, benchMame } from './screen-machines.js';
import { alternate, emulatedRate, frameProbe, overlapping, report } from './screen-viewer.js';

const SECONDS = Number(process.argv[2] ?? 2);
/** alone/watched pairs, alternating which goes first, so a load that drifts during the run falls on both */
const ROUNDS = Number(process.argv[3] ?? 4);
const WHICH = (process.argv[4] ?? 'c64,mame,dos,wasm').split(',');
const PAL_FPS = 50.125;

async function benchC64(): Promise<void> {
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
    const at = async (realtime: boolean) => {
      const probe = frameProbe(session, realtime);
      try {
        return await alternate(ROUNDS, (watch) =>
          emulatedRate(manager, { watch, warp: !realtime, seconds: SECONDS, hz: PAL_FPS, reading: probe.reading }),
        );
      } finally {
        probe.close();
      }
    };
    const warp = await at(false);
    const real = await at(true);
    console.log('built-in C64 (its frame counter):');
    console.log(report('speed watched / alone (warp)     ', warp, 'x'));
    console.log(report('speed watched / alone (real time)', real, 'x'));
    console.log(
      `  panel frames/s at 30 asked (posted by the controller): warp ${warp.fps.toFixed(1)}, real time ${real.fps.toFixed(1)}  (target >= 25)`,
    );
    const o = await overlapping(session, 0x0400);
    console.log(`  overlapping captures and reads while running: ${o.done} done, ${o.refused} refused  (target 0)`);
  } finally {
    await manager.closeAll();
  }
}

async function main(): Promise<void> {
  if (WHICH.includes('c64')) await benchC64();
  if (WHICH.includes('mame')) await benchMame(SECONDS, ROUNDS);
  if (WHICH.includes('dos')) await benchDos('native', SECONDS, ROUNDS);
  if (WHICH.includes('wasm')) {
    if (wasmAvailable()) await benchDos('wasm-dosbox-x', SECONDS, ROUNDS);
    else console.log('DOS wasm: not measured (the optional npm package "emulators" is not installed)');
  }
}

void main();
