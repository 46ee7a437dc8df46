/**
 * What MCP adds to a big read: read_memory of 64 KiB over stdio (the SDK
 * client driving the bundled CLI, reply parsed) against the session API's
 * readMemory in the same run, timed in alternation so both see the same load,
 * both on MAME running the ZX fixture; the ratio is the figure (issue 12's
 * target: <= 2x). Run after npm run build:
 * node --import tsx bench/mcp-read-memory.bench.ts [iterations]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import { buildZxFixture, REPO_ROOT } from '../test/support/zx-fixture.js';
import { measurePaired } from './measure.js';

const N = Number(process.argv[2] ?? 50);

async function main(): Promise<void> {
  const fx = await buildZxFixture();
  const launch = { machine: 'spectrum', emulator: 'mame' as const, program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir };

  const manager = new SessionManager({ connectors: CONNECTORS, workDir: mkdtempSync(join(tmpdir(), 'bench-read-')) });
  const { session } = manager.start(launch, { kind: 'cli', label: 'bench' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'dist', 'cli.js'), 'mcp'] }),
  );
  try {
    await client.callTool({ name: 'start_session', arguments: { ...launch, wait: true } }, undefined, {
      timeout: 120_000,
    });
    while ((await session.status()).phase !== 'ready') await new Promise((r) => setTimeout(r, 100));
    let replyBytes = 0;
    const {
      a: api,
      b: mcp,
      ratio,
    } = await measurePaired(
      () => session.readMemory({ space: 'cpu', offset: 0 }, 65536),
      async () => {
        const r = await client.callTool({ name: 'read_memory', arguments: { address: 0, length: 65536 } });
        replyBytes = JSON.stringify(r).length;
      },
      N,
    );
    const row = (name: string, f: { median: number; p95: number }) =>
      console.log(
        `${name.padEnd(32)} median ${f.median.toFixed(2).padStart(7)} ms  p95 ${f.p95.toFixed(2).padStart(7)} ms  ` +
          `x${(f.median / api.median).toFixed(2)} session API`,
      );
    console.log(`read_memory 64 KiB, ${N} iterations alternating, MAME spectrum`);
    row('session API readMemory (floor)', api);
    row('MCP read_memory over stdio', mcp);
    console.log(`median of per-pair ratios x${ratio.toFixed(2)}; reply ${replyBytes} bytes (target: ratio <= 2)`);
  } finally {
    await client.close();
    await manager.closeAll();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
