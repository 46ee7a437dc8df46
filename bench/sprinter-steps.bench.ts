/**
 * Where a Sprinter session's slow early C line steps go (docs/sprinter.md, Figures): per step over in the key loop,
 * this process's CPU time, and MAME's main thread's time on a CPU and waiting for one (its runqueue wait, from
 * /proc/<pid>/task/<pid>/schedstat; Linux only) — for a session's first 100 steps and the 100 after, stepping at once
 * after the stop in the loop and after a pause of PAUSE_MS (default 3000) in a second session.
 * Run after npm run build: node --import tsx bench/sprinter-steps.bench.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import { buildSprinterFixture } from '../test/support/sprinter-fixture.js';

const STEPS = 200;
const PAUSE_MS = Number(process.env.PAUSE_MS ?? 3000);

/** MAME started by this process (sh and the wrapper exec it: the child's own pid). */
function mamePid(): number {
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      // the wrapper of an unpacked MAME runs it through its own loader: look for the name in the command line
      if (ppid === process.pid && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('mame')) return Number(p);
    } catch {
      /* gone */
    }
  }
  throw new Error('no MAME child found');
}

/** ms on a CPU and ms runnable but waiting, of the main thread. */
function sched(pid: number): [number, number] {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  return [run / 1e6, wait / 1e6];
}

interface Step {
  wall: number;
  nodeCpu: number;
  run: number;
  wait: number;
}

async function session(pauseMs: number): Promise<Step[]> {
  const spr = await buildSprinterFixture();
  const manager = new SessionManager({ connectors: CONNECTORS });
  const steps: Step[] = [];
  try {
    const client = manager.start(
      { machine: 'sprinter', emulator: 'mame', program: spr.exe, debugInfo: spr.cdb, cwd: spr.dir },
      { kind: 'cli', label: 'bench' },
    );
    await client.session.waitForStop(120_000);
    const pid = mamePid();
    const bp = await client.setLineBreakpoint(spr.markers.key.file, spr.markers.key.line);
    await client.nextStop(30_000, () => client.resume());
    await client.clearBreakpoint(bp.id);
    await new Promise((r) => setTimeout(r, pauseMs));
    for (let i = 0; i < STEPS; i++) {
      const [c0, s0, t0] = [process.cpuUsage(), sched(pid), performance.now()];
      await client.nextStop(30_000, () => client.stepOver());
      const [c, s1] = [process.cpuUsage(c0), sched(pid)];
      steps.push({
        wall: performance.now() - t0,
        nodeCpu: (c.user + c.system) / 1000,
        run: s1[0] - s0[0],
        wait: s1[1] - s0[1],
      });
    }
  } finally {
    await manager.closeAll();
  }
  return steps;
}

function report(what: string, steps: Step[]): void {
  const mean = (k: keyof Step) => (steps.reduce((a, s) => a + s[k], 0) / steps.length).toFixed(2).padStart(6);
  const slow = steps.filter((s) => s.wall > 4).length;
  console.log(
    `${what.padEnd(34)} wall ${mean('wall')}  node cpu ${mean('nodeCpu')}  mame run ${mean('run')}  ` +
      `mame runqueue wait ${mean('wait')}  (ms a step; ${slow} steps over 4 ms)`,
  );
}

async function main(): Promise<void> {
  const [now, later] = [await session(0), await session(PAUSE_MS)];
  report('at once: steps 1-100', now.slice(0, 100));
  report('at once: steps 101-200', now.slice(100));
  report(`after ${PAUSE_MS} ms: steps 1-100`, later.slice(0, 100));
  report(`after ${PAUSE_MS} ms: steps 101-200`, later.slice(100));
  console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
