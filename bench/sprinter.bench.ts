/**
 * The Sprinter against the Spectrum, both on MAME in one run (issue 24's figures): the time from starting a
 * session to the stop at main (target <= x1.5 the Spectrum's), and a C line step (target <= x1.2). The Sprinter runs
 * the SDCC test program on the open ROM (MAME 0.276); the Spectrum the SDCC ZX fixture (the system's MAME).
 * Run after npm run build: node --import tsx bench/sprinter.bench.ts [sessions, default 5] [steps, default 40]
 */
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import type { LaunchConfig } from '../src/core/launch.js';
import { mameForMachine } from '../src/connectors/mame/mame-finder.js';
import { buildSprinterFixture } from '../test/support/sprinter-fixture.js';
import { buildZxFixture } from '../test/support/zx-fixture.js';

const SESSIONS = Number(process.argv[2] ?? 5);
const STEPS = Number(process.argv[3] ?? 40);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median ms from start to the stop at main, and of a C line step over (stepping main's loop, restarted per session). */
async function figures(config: LaunchConfig, loopLine: { file: string; line: number }) {
  const starts: number[] = [];
  const steps: number[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const manager = new SessionManager({ connectors: CONNECTORS });
    try {
      const t0 = performance.now();
      const client = manager.start(config, { kind: 'cli', label: 'bench' });
      const st = await client.session.waitForStop(120_000);
      starts.push(performance.now() - t0);
      if (st.phase !== 'ready') throw new Error(`${config.machine}: ${JSON.stringify(st.error)}`);
      const bp = await client.setLineBreakpoint(loopLine.file, loopLine.line);
      await client.nextStop(30_000, () => client.resume());
      await client.clearBreakpoint(bp.id);
      for (let i = 0; i < STEPS / SESSIONS; i++) {
        const t = performance.now();
        await client.nextStop(30_000, () => client.stepOver());
        steps.push(performance.now() - t);
      }
    } finally {
      await manager.closeAll();
    }
  }
  return { start: median(starts), step: median(steps) };
}

async function main(): Promise<void> {
  const [spr, zx] = await Promise.all([buildSprinterFixture(), buildZxFixture()]);
  const zxRun = await figures(
    { machine: 'spectrum', emulator: 'mame', program: zx.rom, debugInfo: zx.cdb, cwd: zx.dir },
    zx.markers.loop_body,
  );
  const sprRun = await figures(
    { machine: 'sprinter', emulator: 'mame', program: spr.exe, debugInfo: spr.cdb, cwd: spr.dir },
    spr.markers.loop,
  );
  // the same MAME for both: where the system's has no sprinter driver (Debian 12), 0.276 starts slower by itself
  const mame = await mameForMachine({ machine: 'sprinter' });
  const zxSame = await figures(
    { machine: 'spectrum', emulator: 'mame', mamePath: mame, program: zx.rom, debugInfo: zx.cdb, cwd: zx.dir },
    zx.markers.loop_body,
  );
  const row = (what: string, a: number, b: number, target: number) =>
    console.log(
      `${what.padEnd(22)} spectrum ${a.toFixed(1).padStart(8)} ms   sprinter ${b.toFixed(1).padStart(8)} ms   x${(b / a).toFixed(2)} (target <= x${target})`,
    );
  console.log(`${SESSIONS} sessions a machine, ${STEPS} line steps (medians); sprinter on ${mame}`);
  console.log('spectrum on the first MAME that has it:');
  row('start to main', zxRun.start, sprRun.start, 1.5);
  row('C line step', zxRun.step, sprRun.step, 1.2);
  console.log(`spectrum on the sprinter's MAME (${mame}):`);
  row('start to main', zxSame.start, sprRun.start, 1.5);
  row('C line step', zxSame.step, sprRun.step, 1.2);
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
