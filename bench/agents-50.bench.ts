/**
 * Fifty agents on one session (issue 30's figure): one `retro-debug serve` process, 50 official SDK clients over
 * HTTP on one built-in C64 session running the time-travel game loop; for the run's length each takes the control
 * lease and steps (over or into), and sets and clears breakpoints of its own (at most 3 at a time). Counted from
 * the clients' side: breakpoints lost (one it set and did not clear is missing from list_breakpoints, or not its
 * own), stuck steps (a step that took the lease and reached no stop within 10 s), evictions (a call of an active
 * client answered "no such MCP session"). Targets: 0, 0, 0. The floor is one agent alone doing the same for 10 s in
 * the same run; step and set_breakpoint medians under the crowd are given as ratios to it.
 *   node --import tsx bench/agents-50.bench.ts [agents, default 50] [seconds, default 60]
 * Run after npm run build.
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildCc65Program, findMarkers, REPO_ROOT } from '../test/support/c64-fixture.js';
import { callRaw, connectHttpClient, type Structured } from '../test/mcp/mcp-helpers.js';
import { runBench, startServe } from './serve-process.js';

const AGENTS = Number(process.argv[2] ?? 50);
const SECONDS = Number(process.argv[3] ?? 60);
const STEP_WAIT_MS = 10_000;

interface Tally {
  steps: number;
  refused: number;
  stuck: string[];
  lost: string[];
  evicted: string[];
  changes: number;
  stepMs: number[];
  setMs: number[];
}

const tally = (): Tally => ({
  steps: 0,
  refused: 0,
  stuck: [],
  lost: [],
  evicted: [],
  changes: 0,
  stepMs: [],
  setMs: [],
});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** One agent's loop until `end`: its own breakpoints, steps under the lease, a check of what it owns. */
async function agentLoop(name: string, agent: Client, lines: number[], end: number, t: Tally): Promise<void> {
  const mine = new Set<number>();
  let myId: string | undefined;
  const tool = async (tool: string, args: Record<string, unknown>): Promise<Structured> => {
    try {
      const r = await callRaw(agent, tool, args, 60_000);
      return (r.structuredContent ?? {}) as Structured;
    } catch (err) {
      t.evicted.push(`${name} ${tool}: ${(err as Error).message}`);
      throw err;
    }
  };
  for (let round = 0; Date.now() < end; round++) {
    if (mine.size < 3 && (mine.size === 0 || Math.random() < 0.5)) {
      const t0 = performance.now();
      const set = await tool('set_breakpoint', { file: 'game.c', line: lines[round % lines.length] });
      if (set.error) throw new Error(`${name} set_breakpoint: ${set.error.message}`);
      t.setMs.push(performance.now() - t0);
      mine.add(set.breakpoint.id);
      myId = set.breakpoint.owner.id;
      t.changes++;
    } else {
      const id = [...mine][0];
      const cleared = await tool('clear_breakpoint', { id });
      if (cleared.error) t.lost.push(`${name}: clearing its breakpoint ${id}: ${cleared.error.message}`);
      mine.delete(id);
      t.changes++;
    }
    const claimed = await tool('claim_control', { take_over: true });
    if (!claimed.error) {
      const t0 = performance.now();
      const kind = round % 2 ? 'over' : 'into';
      const stepped = await tool('step', { kind, wait: true, timeout_ms: STEP_WAIT_MS });
      if (stepped.error)
        t.refused++; // another agent took the lease between the claim and the step
      else if (stepped.timed_out || stepped.state !== 'stopped') {
        t.stuck.push(`${name}: step ${kind} ${stepped.timed_out ? 'timed out' : `left it ${stepped.state}`}`);
        await tool('pause', {});
      } else {
        t.steps++;
        t.stepMs.push(performance.now() - t0);
      }
    }
    if (round % 4 === 3 || Date.now() >= end) {
      const listed = await tool('list_breakpoints', {});
      const byId = new Map((listed.breakpoints as Structured[]).map((b) => [b.id as number, b]));
      for (const id of mine) {
        const b = byId.get(id);
        if (!b) t.lost.push(`${name}: breakpoint ${id} is gone`);
        else if (b.owner.id !== myId) t.lost.push(`${name}: breakpoint ${id} belongs to ${b.owner.label}`);
      }
    }
  }
  for (const id of mine) await tool('clear_breakpoint', { id });
}

async function main(): Promise<void> {
  const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'history'), ['game.c']);
  const markers = await findMarkers([join(dir, 'game.c')]);
  const lines = ['move_left', 'score', 'corrupt', 'loop_top'].map((m) => markers[m].line);
  // one MCP session per agent, and the starter's: past the default 32 the 33rd would be refused
  const serve = await startServe(dir, ['--max-mcp-sessions', String(AGENTS + 1)]);
  const agents: Client[] = [];
  try {
    const starter = await connectHttpClient(serve, 'starter');
    agents.push(starter);
    const started = await callRaw(starter, 'start_session', {
      machine: 'c64',
      emulator: 'builtin',
      program: join(dir, 'program.prg'),
      wait: true,
    });
    if (started.isError) throw new Error(JSON.stringify(started.content));

    const alone = tally();
    await agentLoop('alone', starter, lines, Date.now() + 10_000, alone);
    for (let i = 0; i < AGENTS; i++) agents.push(await connectHttpClient(serve, `agent-${i}`));
    const crowd = tally();
    const end = Date.now() + SECONDS * 1000;
    const rssBefore = serve.rssMb();
    const results = await Promise.allSettled(
      agents.slice(1).map((a, i) => agentLoop(`agent-${i}`, a, lines, end, crowd)),
    );
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    const row = (what: string, t: Tally) =>
      `${what}: ${t.steps} steps (median ${median(t.stepMs).toFixed(1)} ms), ${t.changes} breakpoint changes ` +
      `(set median ${median(t.setMs).toFixed(1)} ms), ${t.refused} steps refused (lease taken meanwhile)`;
    console.log(row('1 agent alone, 10 s (floor)', alone));
    console.log(row(`${AGENTS} agents, ${SECONDS} s`, crowd));
    console.log(
      `under ${AGENTS} agents: step x${(median(crowd.stepMs) / median(alone.stepMs)).toFixed(2)}, set_breakpoint ` +
        `x${(median(crowd.setMs) / median(alone.setMs)).toFixed(2)} the floor; serve RSS ${rssBefore.toFixed(1)} → ` +
        `${serve.rssMb().toFixed(1)} MB`,
    );
    console.log(
      `lost breakpoints ${crowd.lost.length}, stuck steps ${crowd.stuck.length}, evictions ${crowd.evicted.length}, ` +
        `agents failed ${failed.length} (targets: 0, 0, 0, 0)`,
    );
    for (const line of [...crowd.lost, ...crowd.stuck, ...crowd.evicted].slice(0, 10)) console.log(`  ${line}`);
    for (const f of failed.slice(0, 5)) console.log(`  ${String(f.reason)}`);
  } finally {
    await Promise.allSettled(agents.map((a) => a.close()));
    await serve.close();
  }
}

runBench(main);
