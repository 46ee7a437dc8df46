/**
 * The Sprinter against the Spectrum on the same MAME (the first that has the sprinter driver, 0.276 here), in one
 * run, sessions of the two machines alternating so that the load of a shared machine falls on both alike (issue
 * 24's figures): the time from starting a session to the stop at main (target <= x1.5 the Spectrum's) and a C line
 * step over in each program's endless loop (target <= x1.2): the ZX fixture's `counter++; scan_keys();` loop and
 * the Sprinter program's key loop (`c = poll_key();`, which polls the ROM's key call). Each step is one bridge round
 * trip (step_range) on both. For reference, the Spectrum also runs on the first MAME that has it (0.251 on Debian 12).
 * Run after npm run build: node --import tsx bench/sprinter.bench.ts [sessions a machine, default 4] [steps a session, default 300]
 */
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import type { LaunchConfig } from '../src/core/launch.js';
import { mameForMachine } from '../src/connectors/mame/mame-finder.js';
import { buildSprinterFixture } from '../test/support/sprinter-fixture.js';
import { buildZxFixture } from '../test/support/zx-fixture.js';

const SESSIONS = Number(process.argv[2] ?? 4);
const STEPS = Number(process.argv[3] ?? 300);
/** the first steps of a session, reported apart: the Sprinter's are slower there (see docs/sprinter.md) */
const EARLY = 100;

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];

interface Figures {
  starts: number[];
  steps: number[];
  /** the steps after the first EARLY of each session */
  later: number[];
}

/** One session: ms from start to the stop at main, and of each C line step over in the loop. */
async function session(config: LaunchConfig, loopLine: { file: string; line: number }, into: Figures) {
  const manager = new SessionManager({ connectors: CONNECTORS });
  try {
    const t0 = performance.now();
    const client = manager.start(config, { kind: 'cli', label: 'bench' });
    const st = await client.session.waitForStop(120_000);
    into.starts.push(performance.now() - t0);
    if (st.phase !== 'ready') throw new Error(`${config.machine}: ${JSON.stringify(st.error)}`);
    const bp = await client.setLineBreakpoint(loopLine.file, loopLine.line);
    await client.nextStop(30_000, () => client.resume());
    await client.clearBreakpoint(bp.id);
    for (let i = 0; i < STEPS; i++) {
      const t = performance.now();
      await client.nextStop(30_000, () => client.stepOver());
      into.steps.push(performance.now() - t);
      if (i >= EARLY) into.later.push(performance.now() - t);
    }
  } finally {
    await manager.closeAll();
  }
}

async function main(): Promise<void> {
  const [spr, zx] = await Promise.all([buildSprinterFixture(), buildZxFixture()]);
  const mame = await mameForMachine({ machine: 'sprinter' });
  const zxOwn = await mameForMachine({ machine: 'spectrum' });
  const zxConfig = { machine: 'spectrum', emulator: 'mame', program: zx.rom, debugInfo: zx.cdb, cwd: zx.dir } as const;
  const sprConfig = {
    machine: 'sprinter',
    emulator: 'mame',
    program: spr.exe,
    debugInfo: spr.cdb,
    cwd: spr.dir,
  } as const;
  const zxSame: Figures = { starts: [], steps: [], later: [] };
  const sprinter: Figures = { starts: [], steps: [], later: [] };
  const zxOnOwn: Figures = { starts: [], steps: [], later: [] };
  for (let s = 0; s < SESSIONS; s++) {
    await session({ ...zxConfig, mamePath: mame }, zx.markers.loop_body, zxSame);
    await session(sprConfig, spr.markers.key, sprinter);
    if (zxOwn !== mame) await session(zxConfig, zx.markers.loop_body, zxOnOwn);
  }
  const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
  const row = (what: string, a: number[], b: number[], q: number, target: number) => {
    const [x, y] = [quantile(a, q), quantile(b, q)];
    console.log(
      `${what.padEnd(26)} spectrum ${ms(x)}   sprinter ${ms(y)}   x${(y / x).toFixed(2)} (target <= x${target})`,
    );
  };
  console.log(`${SESSIONS} sessions a machine, alternating, ${STEPS} C line steps a session; both on ${mame}`);
  row('start to main (median)', zxSame.starts, sprinter.starts, 0.5, 1.5);
  row('C line step (median)', zxSame.steps, sprinter.steps, 0.5, 1.2);
  row('C line step (90th pct)', zxSame.steps, sprinter.steps, 0.9, 1.2);
  if (zxSame.later.length) row(`steps after the first ${EARLY}`, zxSame.later, sprinter.later, 0.5, 1.2);
  if (zxOnOwn.steps.length) {
    console.log(`for reference, the spectrum on ${zxOwn}:`);
    row('start to main (median)', zxOnOwn.starts, sprinter.starts, 0.5, 1.5);
    row('C line step (median)', zxOnOwn.steps, sprinter.steps, 0.5, 1.2);
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
