// The cycle profiler on the built-in C64, against hand-counted loops (test/fixtures/testing/c64-profile/prof.c),
// and run_tests / profile_run through a real MCP server: exact per-function cycles, exports that parse.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, TEST_MACHINES } from '../../src/connectors/registry.js';
import { profileProgram } from '../../src/testing/profile-run.js';
import { loadTestProgram } from '../../src/testing/program.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';
import { REPO_ROOT } from '../support/c64-fixture.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'testing');
let work: string;
let manager: SessionManager;
let server: HttpMcpServer;
let agent: Client;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'rd-prof-'));
  for (const name of ['c64-profile', 'c64-bad']) cpSync(join(FIXTURES, name), join(work, name), { recursive: true });
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'full', outputDir: work, roots: () => [work] });
  agent = await connectHttpClient(server, 'profiler');
});

after(async () => {
  await agent?.close();
  await server?.close();
  await manager?.closeAll();
  rmSync(work, { recursive: true, force: true });
});

test('per-function cycles match the hand count exactly; every cycle is charged once', async () => {
  const run = await profileProgram(TEST_MACHINES, { target: join(work, 'c64-profile'), until: 'done' });
  assert.equal(run.ended, 'reached done');
  const program = await loadTestProgram(run.program, run.program.replace(/\.prg$/, '.dbg'));
  const delay = program.index.functionByName('delay100')!;
  // bne sits at +3, its target at +2: a taken branch costs 4 when the target is on another page than the next byte
  const crosses = (delay.start + 2) >> 8 !== (delay.start + 5) >> 8;
  const perDelay = 2 + 100 * 2 + 99 * (crosses ? 4 : 3) + 2 + 6;
  const fns = new Map(run.profiler.functions().map((f) => [f.name, f]));
  const d = fns.get('delay100')!;
  assert.equal(d.calls, 30);
  assert.equal(d.self, 30 * perDelay);
  assert.equal(d.total, 30 * perDelay);
  // cc65 -O makes outer's last call a JMP (a tail call): JSR 6 + JSR 6 + JMP 3 of its own, two delays inside
  const o = fns.get('outer')!;
  assert.equal(o.calls, 10);
  assert.equal(o.self, 10 * 15);
  assert.equal(o.total, 10 * (15 + 2 * perDelay));
  assert.equal(fns.get('main')!.calls, 1);
  const selfSum = run.profiler.allNodes().reduce((t, n) => t + n.self, 0);
  assert.equal(selfSum, run.cycles, 'the call tree holds every cycle once');
  const lines = run.profiler.lines();
  assert.equal(
    lines.filter((l) => l.file === 'prof.c' && l.line >= 7 && l.line <= 11).reduce((t, l) => t + l.cycles, 0),
    30 * perDelay,
    "delay100's lines add up to its cycles",
  );
});

test('MCP profile_run: the hot functions, and .cpuprofile and speedscope files that hold the same cycles', async () => {
  const r = await call(agent, 'profile_run', {
    project: join(work, 'c64-profile'),
    until: 'done',
    cpuprofile: 'prof.cpuprofile',
    speedscope: 'prof.speedscope.json',
  });
  assert.equal(r.exact, true);
  const delay = r.functions.find((f: { name: string }) => f.name === 'delay100');
  assert.equal(delay.calls, 30);
  const cpu = JSON.parse(readFileSync(r.cpuprofile, 'utf8'));
  const ids = new Set(cpu.nodes.map((n: { id: number }) => n.id));
  assert.equal(ids.size, cpu.nodes.length);
  for (const n of cpu.nodes) for (const c of n.children) assert.ok(ids.has(c), 'children name existing nodes');
  assert.equal(cpu.samples.length, cpu.timeDeltas.length);
  const sum = (xs: number[]) => xs.reduce((t, x) => t + x, 0);
  assert.equal(sum(cpu.timeDeltas), r.cycles);
  assert.equal(cpu.endTime - cpu.startTime, r.cycles);
  const delayNode = cpu.nodes.find(
    (n: { callFrame: { functionName: string } }) => n.callFrame.functionName === 'delay100',
  );
  assert.match(delayNode.callFrame.url, /^file:\/\/.*prof\.c$/);
  const scope = JSON.parse(readFileSync(r.speedscope, 'utf8'));
  assert.equal(scope.$schema, 'https://www.speedscope.app/file-format-schema.json');
  const [profile] = scope.profiles;
  assert.equal(profile.type, 'sampled');
  assert.equal(profile.samples.length, profile.weights.length);
  assert.equal(sum(profile.weights), r.cycles);
  const delayFrame = scope.shared.frames.findIndex((f: { name: string }) => f.name === 'delay100');
  const inDelay = profile.samples.flatMap((s: number[], i: number) =>
    s.at(-1) === delayFrame ? [profile.weights[i]] : [],
  );
  assert.equal(sum(inDelay), delay.self);
});

test('MCP run_tests: structured results per test, a filter, coverage; paths outside the roots refused', async () => {
  const r = await call(
    agent,
    'run_tests',
    { project: join(work, 'c64-bad'), max_cycles: 200_000, coverage: true },
    120_000,
  );
  assert.equal(r.passed, 2);
  assert.equal(r.failed, 6);
  const byName = new Map(r.results.map((x: { name: string }) => [x.name, x]));
  const fail = byName.get('b_fails') as Record<string, unknown>;
  assert.equal(fail.status, 'failed');
  assert.equal(fail.file, 'bad.c');
  assert.equal(fail.line, 15);
  assert.match(String(fail.message), /expected 10, got 9/);
  const hang = byName.get('c_never_returns') as Record<string, unknown>;
  assert.match(String(hang.message), /^timeout/);
  assert.match(String((hang.stack as string[])[0]), /^test_c_never_returns \(bad\.c:\d+\)$/);
  const cov = r.coverage.find((c: { file: string }) => c.file === 'bad.c');
  assert.ok(cov.hit > 0 && cov.hit <= cov.lines);
  const only = await call(agent, 'run_tests', { project: join(work, 'c64-bad'), filter: 'passes' });
  assert.deepEqual(
    only.results.map((x: { name: string }) => x.name),
    ['a_passes'],
  );
  await callExpectingError(agent, 'run_tests', { project: join(REPO_ROOT, 'examples', 'c64-tests') }, 'outside_roots');
  await callExpectingError(agent, 'profile_run', { project: join(work, 'c64-profile') }, 'bad_request');
});
