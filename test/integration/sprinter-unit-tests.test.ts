// retro_test.h and the profiler on the Sprinter: an SDCC suite built as a DSS .EXE, loaded by the open ROM in real
// MAME 0.276 and started afresh for each test; MCP run_tests picks the machine from the build, profile_run counts
// hand-counted T-states.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, TEST_MACHINES } from '../../src/connectors/registry.js';
import { debugTarget } from '../../src/host/test-explorer-model.js';
import { loadTestProgram } from '../../src/testing/program.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { call, callRaw, connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';
import { findMarkers, REPO_ROOT } from '../support/c64-fixture.js';
import { z80TestProject } from '../support/z80-test-project.js';
import { freshBundle } from '../support/bundle.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
let work: string;
let manager: SessionManager;
let server: HttpMcpServer;
let agent: Client;

before(async () => {
  freshBundle();
  work = mkdtempSync(join(tmpdir(), 'rd-sprinter-unit-'));
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'full', outputDir: work, roots: () => [work] });
  agent = await connectHttpClient(server, 'sprinter-tests');
});

after(async () => {
  await agent?.close();
  await server?.close();
  await manager?.closeAll();
  rmSync(work, { recursive: true, force: true });
});

test('retro-debug test --machine sprinter: a six-test suite passes as a DSS .EXE, each test from fresh globals', () => {
  const dir = z80TestProject('z80-suite', 'sprinter', work);
  const junit = join(dir, 'results.xml');
  const run = spawnSync(process.execPath, [CLI, 'test', dir, '--machine', 'sprinter', '--junit', junit], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.equal(run.stdout.match(/^PASS \w+ \(\d+ cycles\)$/gm)?.length, 6, run.stdout);
  // the second reads the initialised global the first changed: only a fresh start passes both
  assert.match(run.stdout, /PASS globals_start_fresh_again/);
  assert.match(run.stdout, /6 passed, 0 failed on sprinter .*built\)/);
  assert.equal(
    readFileSync(join(dir, 'build', 'tests.exe'))
      .subarray(0, 3)
      .toString('latin1'),
    'EXE',
  );
  assert.equal(
    execFileSync('xmllint', ['--xpath', 'string(/testsuites/testsuite/@tests)', junit], { encoding: 'utf8' }).trim(),
    '6',
  );
});

test('MCP run_tests picks the Sprinter from the build (crt0 at a DSS load address) and reports file:line', async () => {
  const dir = z80TestProject('z80-bad', 'sprinter', work);
  const r = await call(agent, 'run_tests', { project: dir, filter: 'b_fails' }, 180_000);
  assert.equal(r.machine, 'sprinter');
  assert.equal(r.results.length, 1);
  const [fail] = r.results;
  assert.equal(fail.status, 'failed');
  const failLine = (await findMarkers([join(dir, 'bad.c')])).fail.line;
  assert.equal(`${fail.file}:${fail.line}`, `bad.c:${failLine}`);
  assert.match(fail.message, /expected 10, got 9/);
  // the spectrum runs ROM builds: a clear typed refusal, not a run of the wrong program
  const wrong = await callRaw(agent, 'run_tests', { project: dir, machine: 'spectrum' }, 60_000);
  assert.ok(wrong.isError);
  const error = (wrong.structuredContent as { error: { code: string; message: string } }).error;
  assert.equal(error.code, 'unsupported');
  assert.match(error.message, /build for the sprinter .*does not run on spectrum/);
});

test('profile_run on the Sprinter counts hand-counted T-states exactly', async () => {
  const dir = z80TestProject('zx-profile', 'sprinter', work, 'sprinter-profile');
  const r = await call(agent, 'profile_run', { project: dir, until: 'done' }, 180_000);
  assert.equal(r.machine, 'sprinter');
  const perDelay = 7 + 99 * 13 + 8 + 10;
  const fn = (name: string) => r.functions.find((f: { name: string }) => f.name === name);
  assert.deepEqual([fn('delay100').calls, fn('delay100').self], [20, 20 * perDelay]);
  assert.deepEqual([fn('outer').calls, fn('outer').self, fn('outer').total], [10, 10 * 44, 10 * (44 + 2 * perDelay)]);
});

test("the Test Explorer's Debug route on the Sprinter: a MAME launch, and retro_test_only makes main run that test", async () => {
  const dir = z80TestProject('z80-suite', 'sprinter', work, 'sprinter-debug');
  const target = await debugTarget(dir, 'gcd_of_pairs');
  assert.deepEqual([target.launch.machine, target.launch.emulator], ['sprinter', 'mame']);
  const program = await loadTestProgram(target.launch.program, target.launch.debugInfo);
  const main = program.index.functionByName('main')!.start;
  const others = program.suite.tests.filter((t) => t.name !== 'gcd_of_pairs').map((t) => t.address);
  const m = await TEST_MACHINES.find((x) => x.machine === 'sprinter')!.create();
  try {
    await m.start(program.bytes);
    assert.equal((await m.runUntil([main], 5_000_000, Date.now() + 30_000)).kind, 'reached');
    await m.write(target.onlyAddress, new Uint8Array([target.testAddress & 0xff, target.testAddress >> 8]));
    // without the write main's loop finds no test to run and returns; with it the chosen test runs first
    const entered = await m.runUntil([target.testAddress, ...others], 5_000_000, Date.now() + 30_000);
    assert.deepEqual(entered, { kind: 'reached', pc: target.testAddress });
  } finally {
    await m.close();
  }
});
