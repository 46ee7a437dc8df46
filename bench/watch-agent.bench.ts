/**
 * The agent task "which line corrupts `lives`" (test/fixtures/watch/lives.c: an off-by-one writes scores[8],
 * which is lives), as a scripted agent through the MCP SDK client over stdio with the bundled CLI in the default
 * profile, on the built-in C64 (cc65) and MAME spectrum (SDCC). The agent watches `lives` for changes and
 * resumes until the line that changed it does not assign `lives` itself; the figure is the number of tool
 * calls (issue 25's target: <= 8; 35 on the C64 and 37 on the ZX without watchpoints in the default profile).
 * Run after npm run build: node --import tsx bench/watch-agent.bench.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO_ROOT } from '../test/support/c64-fixture.js';
import { buildWatchC64, buildWatchZx, type WatchFixture } from '../test/support/watch-fixture.js';

const TARGET_CALLS = 8;

interface Stop {
  watch?: { location?: { file: string; line: number; function?: string }; old?: string; new?: string }[];
}

async function findCorruptor(fx: WatchFixture, launch: Record<string, unknown>) {
  const client = new Client({ name: 'watch-agent', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO_ROOT, 'dist', 'cli.js'), 'mcp'],
      cwd: REPO_ROOT,
    }),
  );
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    calls++;
    const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent as Record<string, any>;
  };
  const source = readFileSync(fx.source, 'utf8').split('\n');
  try {
    const t0 = performance.now();
    await call('start_session', { ...launch, program: fx.program, wait: true, timeout_ms: 50_000 });
    await call('claim_control');
    await call('set_watchpoint', { variable: 'lives', kind: 'change' });
    for (;;) {
      if (calls >= 20) throw new Error('no answer within 20 calls');
      const stop = (await call('resume', { wait: true, timeout_ms: 30_000 })).stop as Stop;
      const hit = stop?.watch?.[0];
      if (!hit?.location) throw new Error(`a stop without a watch hit: ${JSON.stringify(stop)}`);
      const text = source[hit.location.line - 1].trim();
      // an assignment to lives itself is the program's own business; anything else writing it is the bug
      if (!/\blives\s*[-+*/]?=/.test(text))
        return { calls, ms: performance.now() - t0, line: hit.location.line, text, change: `${hit.old} → ${hit.new}` };
    }
  } finally {
    await client.callTool({ name: 'stop_session', arguments: {} }).catch(() => undefined);
    await client.close();
  }
}

async function main(): Promise<void> {
  const runs: [string, () => Promise<WatchFixture>, Record<string, unknown>][] = [
    ['C64 (built-in, cc65)', buildWatchC64, { machine: 'c64', emulator: 'builtin' }],
    ['ZX Spectrum (MAME, SDCC)', buildWatchZx, { machine: 'spectrum', emulator: 'mame' }],
  ];
  let ok = true;
  for (const [name, build, launch] of runs) {
    const fx = await build();
    const r = await findCorruptor(fx, launch);
    const expected = fx.markers.scores_write.line;
    const right = r.line === expected;
    ok &&= right && r.calls <= TARGET_CALLS;
    console.log(
      `${name}: ${r.calls} calls (target <= ${TARGET_CALLS}), ${r.ms.toFixed(0)} ms: line ${r.line} ` +
        `"${r.text}" ${r.change}${right ? '' : ` — WRONG, the bug is line ${expected}`}`,
    );
  }
  if (!ok) process.exitCode = 1;
}

void main();
