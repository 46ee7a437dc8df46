/**
 * Memory over many sessions, as an agent farm uses one server: for each machine, N sessions started and stopped
 * through the MCP HTTP door (a new agent connection each, as farm agents come and go), with RSS and the JS heap
 * (after a full GC), ArrayBuffers, the process's threads (a worker not ended would show) and where the anonymous
 * memory lives (glibc's brk heap and per-thread arena heaps, anon-memory.ts) printed after every 20.
 * The figure is the growth after the first 20 (the caches' warm-up), in MB and as a ratio to the RSS measured after
 * those 20 in the same run: target <= 5 MB. Run after npm run build:
 *   node --expose-gc --import tsx bench/session-soak.bench.ts [sessions per machine, default 200] [machines…]
 * machines: c64 spectrum sprinter dos-native dos-wasm (default all).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS, TOOL_GROUPS } from '../src/connectors/registry.js';
import { startHttpMcpServer } from '../src/mcp/http.js';
import { buildC64Fixture } from '../test/support/c64-fixture.js';
import { buildZxFixture } from '../test/support/zx-fixture.js';
import { buildDosFixtures } from '../test/support/dos-fixture.js';
import { buildSprinterFixture } from '../test/support/sprinter-fixture.js';
import { call, connectHttpClient } from '../test/mcp/mcp-helpers.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { anonMemory, type AnonMemory } from './anon-memory.js';

const N = Number(process.argv[2] ?? 200);
const WANTED = process.argv.slice(3);
const STEP = 20;
const gc = (globalThis as { gc?: () => void }).gc;

interface Machine {
  name: string;
  start: string;
  args: Record<string, unknown>;
}

async function machines(): Promise<Machine[]> {
  const [c64, zx, sprinter, dos] = await Promise.all([
    buildC64Fixture(),
    buildZxFixture(),
    buildSprinterFixture(),
    buildDosFixtures(),
  ]);
  const all: Machine[] = [
    {
      name: 'c64',
      start: 'start_session',
      args: { machine: 'c64', emulator: 'builtin', program: c64.prg, wait: true },
    },
    {
      name: 'spectrum',
      start: 'start_session',
      args: { machine: 'spectrum', emulator: 'mame', program: zx.rom, debugInfo: zx.cdb, wait: true },
    },
    {
      name: 'sprinter',
      start: 'start_session',
      args: { machine: 'sprinter', emulator: 'mame', program: sprinter.exe, debugInfo: sprinter.cdb, wait: true },
    },
    { name: 'dos-native', start: 'dosbox_launch', args: { program: dos.programs.keyecho.com, backend: 'native' } },
    { name: 'dos-wasm', start: 'dosbox_launch', args: { program: dos.programs.keyecho.com, backend: 'wasm-dosbox-x' } },
  ];
  return WANTED.length ? all.filter((m) => WANTED.includes(m.name)) : all;
}

interface Row extends AnonMemory {
  n: number;
  rss: number;
  heap: number;
  external: number;
  arrayBuffers: number;
  threads: number;
}

function memory(n: number): Row {
  gc?.();
  const m = process.memoryUsage();
  const mb = (bytes: number) => bytes / 2 ** 20;
  const threads = Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
  return {
    n,
    rss: mb(m.rss),
    heap: mb(m.heapUsed),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
    threads,
    ...anonMemory(),
  };
}

function print(r: Row): void {
  console.log(
    `  after ${String(r.n).padStart(4)}: RSS ${r.rss.toFixed(1)} MB, heap ${r.heap.toFixed(1)} MB, ` +
      `external ${r.external.toFixed(1)} MB (ArrayBuffers ${r.arrayBuffers.toFixed(1)}), threads ${r.threads}; ` +
      `anonymous ${r.anon.toFixed(1)} MB: brk heap ${r.brk.toFixed(1)}, ${r.arenas} glibc arena heaps ${r.arenaRss.toFixed(1)}`,
  );
}

async function main(): Promise<void> {
  if (!gc) console.log('(no --expose-gc: heap figures include garbage)');
  const outputDir = mkdtempSync(join(tmpdir(), 'soak-out-'));
  const manager = new SessionManager({ connectors: CONNECTORS });
  const server = await startHttpMcpServer({ manager, port: 0, outputDir, roots: () => ['/'], groups: TOOL_GROUPS });
  try {
    for (const m of await machines()) {
      const before = memory(0);
      console.log(`\n${m.name}:`);
      print(before);
      const rows: Row[] = [];
      const t0 = performance.now();
      for (let i = 1; i <= N; i++) {
        const agent = await connectHttpClient(server, `soak-${m.name}-${i}`);
        const started = await call(agent, m.start, m.args, 120_000);
        await call(agent, 'stop_session', { session_id: started.session_id });
        // a client that leaves says so (DELETE); one that vanishes is closed after its grace (streamGoneMs)
        await (agent.transport as StreamableHTTPClientTransport).terminateSession();
        await agent.close();
        if (i % STEP === 0) {
          rows.push(memory(i));
          print(rows.at(-1)!); // as it comes: a long run cut short still says what it saw
        }
      }
      const s = ((performance.now() - t0) / 1000).toFixed(0);
      console.log(`${m.name}: ${N} sessions in ${s} s`);
      const first = rows[0];
      const last = rows.at(-1);
      if (first && last && last !== first) {
        const peak = Math.max(...rows.map((r) => r.rss));
        console.log(
          `  growth after the first ${STEP}: RSS ${(last.rss - first.rss).toFixed(1)} MB ` +
            `(x${(last.rss / first.rss).toFixed(3)} of the RSS after ${STEP}; peak x${(peak / first.rss).toFixed(3)}), ` +
            `heap ${(last.heap - first.heap).toFixed(1)} MB, glibc arena heaps ${(last.arenaRss - first.arenaRss).toFixed(1)} MB ` +
            `(${first.arenas} -> ${last.arenas}), threads ${first.threads} -> ${last.threads} (target <= 5 MB)`,
        );
      }
    }
  } finally {
    await server.close();
    await manager.closeAll();
    rmSync(outputDir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
