/**
 * MAME bridge latency: round trips of `status` (running and stopped), a 64 KiB
 * read while stopped, and the floor (a bare `echo` over the same socket), plus
 * MAME's CPU use while held idle. Run: node --import tsx bench/mame-bridge.bench.ts [iterations]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchMameTarget, type MameTarget } from '../src/connectors/mame/mame-target.js';
import { buildZxFixture, REPO_ROOT } from '../test/support/zx-fixture.js';

const N = Number(process.argv[2] ?? 300);

interface Figures {
  median: number;
  p95: number;
}

/** `fn` may return its own duration in ms (to leave set-up out); otherwise the call is timed. */
async function measure(fn: () => Promise<unknown>, n = N): Promise<Figures> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(); // warm up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const own = await fn();
    times.push(typeof own === 'number' ? own : performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(n / 2)], p95: times[Math.min(n - 1, Math.floor(n * 0.95))] };
}

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function idleCpuPercent(t: MameTarget, seconds: number): Promise<number> {
  const ticksPerSecond = 100; // USER_HZ on Linux
  const before = cpuTicks(t.pid!);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return ((cpuTicks(t.pid!) - before) / ticksPerSecond / seconds) * 100;
}

async function main(): Promise<void> {
  const fx = await buildZxFixture();
  const t = await launchMameTarget(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom },
    { workDir: join(REPO_ROOT, '.test-work', 'bench') },
  );
  try {
    const floor = await measure(() => t.echo());
    const stopped = await measure(() => t.status());
    const read64k = await measure(() => t.readMemory({ space: 'cpu', offset: 0 }, 65536), Math.min(N, 200));
    const idle = await idleCpuPercent(t, 2);
    const coldStopped = await measure(async () => {
      await new Promise((r) => setTimeout(r, 50)); // let the bridge go back to sleep on its doorbell
      const t0 = performance.now();
      await t.status();
      return performance.now() - t0;
    }, 20);
    await t.resume();
    const running = await measure(() => t.status());
    await t.pause();

    const row = (name: string, f: Figures, target?: string) =>
      console.log(
        `${name.padEnd(34)} median ${f.median.toFixed(3).padStart(7)} ms  p95 ${f.p95.toFixed(3).padStart(7)} ms  ` +
          `x${(f.median / floor.median).toFixed(1).padStart(5)} floor${target ? `  (target ${target})` : ''}`,
      );
    console.log(`MAME bridge benchmark, ${N} iterations, spectrum -nothrottle, doorbell idle`);
    row('echo (floor)', floor);
    row('status, stopped (hot)', stopped, '<= 2 ms');
    row('status, stopped (after 50 ms idle)', coldStopped, '<= 2 ms');
    row('read 64 KiB, stopped', read64k, '<= 5 ms');
    row('status, running', running);
    console.log(`${'MAME CPU while held, 2 s'.padEnd(34)} ${idle.toFixed(1)} %  (target ~0 %)`);
  } finally {
    await t.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
