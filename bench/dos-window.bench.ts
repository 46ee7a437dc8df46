/**
 * What `source: "window"` costs against `source: "vram"`, on Debian's DOSBox
 * 0.74 on its private Xvfb display showing VMODES.COM's Mode X picture:
 *  - one window capture (xwd + parse + reduction + VRAM comparison)  vs  the floor,
 *    one confirmed VRAM frame read of the same screen;
 *  - the guest's clock (BIOS ticks per wall second) while captures run back to
 *    back  vs  the floor, the same span with no capture: the stretch of
 *    guest-visible phases (1.0 = no cost; the seed measured ~1.6 on its host).
 * Run: node --import tsx bench/dos-window.bench.ts [iterations]
 */
import { join } from 'node:path';
import { launchDosboxTarget } from '../src/connectors/dosbox/launcher.js';
import { captureWindow } from '../src/connectors/dosbox/window-capture.js';
import { buildDosFixtures } from '../test/support/dos-fixture.js';
import { expectedVmode } from '../test/support/vmodes-expected.js';
import { REPO_ROOT } from '../test/support/zx-fixture.js';
import { measure } from './measure.js';

const N = Number(process.argv[2] ?? 20);
const SPAN_MS = 3000;

async function ticksPerSecond(
  t: { machine: { guest: { bda(): Promise<{ ticks: number }> } } },
  busy?: () => Promise<unknown>,
) {
  const t0 = performance.now();
  const k0 = (await t.machine.guest.bda()).ticks;
  while (performance.now() - t0 < SPAN_MS) await (busy ? busy() : new Promise((r) => setTimeout(r, 50)));
  const k1 = (await t.machine.guest.bda()).ticks;
  return ((k1 - k0) * 1000) / (performance.now() - t0);
}

async function main(): Promise<void> {
  delete process.env.DISPLAY;
  const fx = await buildDosFixtures();
  const t = await launchDosboxTarget(
    {
      machine: 'dos',
      emulator: 'dosbox',
      program: fx.programs.vmodes.com,
      dos: { backend: 'native', isolation: 'xvfb', args: 'X' },
    },
    { workDir: join(REPO_ROOT, '.test-work', 'bench-dos-window') },
  );
  try {
    const screen = await t.machine.screen();
    const ref = expectedVmode('X').pixels;
    for (let i = 0; ; i++) {
      try {
        await screen.frame({ reference: ref });
        break;
      } catch (err) {
        if (i > 100) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const vram = await measure(() => screen.frame(), N);
    const win = await measure(() => captureWindow(t.machine, 1), N);
    console.log('native DOSBox 0.74, Mode X 320x200 on its private Xvfb display');
    console.log(`  vram frame (floor)     median ${vram.median.toFixed(2)} ms  p95 ${vram.p95.toFixed(2)} ms`);
    console.log(
      `  window capture         median ${win.median.toFixed(2)} ms  p95 ${win.p95.toFixed(2)} ms  x${(win.median / vram.median).toFixed(1)} floor`,
    );
    const idle = await ticksPerSecond(t);
    const capturing = await ticksPerSecond(t, () => captureWindow(t.machine, 1));
    console.log(
      `  guest ticks/s, idle (floor) ${idle.toFixed(2)}, capturing ${capturing.toFixed(2)}: guest phases stretched x${(idle / capturing).toFixed(2)}`,
    );
  } finally {
    await t.close();
  }
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
