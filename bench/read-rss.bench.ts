/**
 * Server memory over many big reads (issue 30's figure): one `retro-debug serve` process (its RSS read from /proc, so
 * the bench's own client stays out of it), one agent over HTTP reading 64 KiB with read_memory on the built-in C64.
 * RSS swings with the server's garbage collections, so each window of 200 reads is summed up by its lowest sample
 * (one every 10 reads). The floor is the window after the first 200 reads (warmed up), in the same run; the figure is
 * the last window's growth over it: target <= 20 MB after 2,000. Run after npm run build:
 *   node --import tsx bench/read-rss.bench.ts [reads, default 2000]
 */
import { buildC64Fixture } from '../test/support/c64-fixture.js';
import { call, connectHttpClient } from '../test/mcp/mcp-helpers.js';
import { runBench, startServe } from './serve-process.js';

const N = Number(process.argv[2] ?? 2000);
const WINDOW = 200;

async function main(): Promise<void> {
  const fx = await buildC64Fixture();
  const serve = await startServe(fx.dir);
  const agent = await connectHttpClient(serve, 'rss-bench');
  try {
    const started = serve.rssMb();
    await call(agent, 'start_session', { machine: 'c64', emulator: 'builtin', program: fx.prg, wait: true }, 120_000);
    const withSession = serve.rssMb();
    const lows: number[] = [];
    let low = Infinity;
    const t0 = performance.now();
    for (let i = 1; i <= N; i++) {
      const r = await call(agent, 'read_memory', { address: 0, length: 65536 });
      if (r.hex.length !== 131072) throw new Error(`read ${i} came back with ${r.hex.length} hex digits`);
      if (i % 10 === 0) low = Math.min(low, serve.rssMb());
      if (i % WINDOW === 0) {
        lows.push(low);
        low = Infinity;
      }
    }
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`serve RSS: ${started.toFixed(1)} MB at start, ${withSession.toFixed(1)} MB with the C64 session`);
    lows.forEach((l, k) =>
      console.log(`  reads ${String(k * WINDOW + 1).padStart(5)}-${(k + 1) * WINDOW}: lowest RSS ${l.toFixed(1)} MB`),
    );
    const floor = lows[1];
    const last = lows.at(-1)!;
    console.log(
      `${N} reads of 64 KiB in ${s} s; floor (reads ${WINDOW + 1}-${2 * WINDOW}) ${floor.toFixed(1)} MB, last window ` +
        `${last.toFixed(1)} MB: growth ${(last - floor).toFixed(1)} MB, x${(last / floor).toFixed(2)} the floor ` +
        `(target: growth <= 20 MB)`,
    );
  } finally {
    await agent.close().catch(() => undefined);
    await serve.close();
  }
}

runBench(main);
