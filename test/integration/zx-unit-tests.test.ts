// retro_test.h and the profiler on MAME's spectrum: real SDCC builds run by real MAME (the same runner as the
// built-in C64), results read back by real consumers (xmllint, genhtml), and MCP run_tests / profile_run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, TEST_MACHINES } from '../../src/connectors/registry.js';
import { profileProgram } from '../../src/testing/profile-run.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { call, connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';
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
  work = mkdtempSync(join(tmpdir(), 'rd-zx-unit-'));
  for (const name of ['zx-tests', 'zx-profile']) z80TestProject(name, 'spectrum', work);
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'full', outputDir: work, roots: () => [work] });
  agent = await connectHttpClient(server, 'zx-tests');
});

after(async () => {
  await agent?.close();
  await server?.close();
  await manager?.closeAll();
  rmSync(work, { recursive: true, force: true });
});

function xpath(file: string, expression: string): string {
  return execFileSync('xmllint', ['--xpath', expression, file], { encoding: 'utf8' }).trim();
}

test('retro-debug test on spectrum: a pass, a failure at its line, a budget, a hang; JUnit and lcov read by their tools', async () => {
  const dir = join(work, 'zx-tests');
  const junit = join(dir, 'results.xml');
  const lcov = join(dir, 'coverage.info');
  const run = spawnSync(
    process.execPath,
    [CLI, 'test', dir, '--machine', 'spectrum', '--max-cycles', '300000', '--junit', junit, '--lcov', lcov],
    { encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(run.status, 1, run.stderr + run.stdout);
  const out = run.stdout;
  const failLine = (await findMarkers([join(dir, 'tests.c')])).fail.line;
  assert.match(out, /PASS a_passes \(\d+ cycles\)/);
  assert.match(
    out,
    new RegExp(
      `FAIL b_fails \\(\\d+ cycles\\): tests\\.c:${failLine}: EXPECT_EQ: triangle\\(3\\) == 10: expected 10, got 6`,
    ),
  );
  assert.match(out, /FAIL c_over_budget \((\d+) cycles\): .*over budget: \1 cycles, the budget is 10/);
  assert.match(
    out,
    /ERROR d_never_returns \(\d+ cycles\): .*timeout: the test did not return within 300000 cycles\n\s+at test_d_never_returns \(tests\.c:\d+\)/,
  );
  assert.match(out, /PASS e_still_runs/);
  assert.match(out, /2 passed, 3 failed on spectrum/);
  const spun = Number(/d_never_returns \((\d+) cycles/.exec(out)?.[1]);
  assert.ok(spun >= 300_000, `the hang ran past the limit (${spun} cycles)`);

  assert.equal(xpath(junit, 'string(/testsuites/testsuite/@tests)'), '5');
  assert.equal(xpath(junit, 'string(/testsuites/testsuite/@failures)'), '2');
  assert.equal(xpath(junit, 'string(//testcase[@name="d_never_returns"]/error/@type)'), 'timeout');
  assert.equal(xpath(junit, 'string(//property[@name="machine"]/@value)'), 'spectrum');

  // every instruction MAME ran is counted: triangle was entered by 4 calls and its loop ran 100 + 3 + 5 times
  const info = readFileSync(lcov, 'utf8');
  assert.match(info, /FNDA:4,triangle\n/);
  assert.match(info, /FNDA:1,test_e_still_runs\n/);
  const counts = [...info.matchAll(/^DA:\d+,(\d+)$/gm)].map((m) => Number(m[1]));
  assert.ok(counts.includes(100 + 3 + 5), `a line of the loop ran 108 times: ${counts.join(' ')}`);
  assert.doesNotMatch(info, /retro_test\.h/);
  const gen = spawnSync('genhtml', [lcov, '--output-directory', join(dir, 'html')], { encoding: 'utf8' });
  assert.equal(gen.status, 0, gen.stderr);
});

test('the profiler on MAME matches hand-counted T-states exactly, and MCP profile_run reports them', async () => {
  const run = await profileProgram(TEST_MACHINES, { target: join(work, 'zx-profile'), until: 'done' });
  assert.equal(run.ended, 'reached done');
  assert.equal(run.exact, false, "MAME's own count");
  const fns = new Map(run.profiler.functions().map((f) => [f.name, f]));
  const perDelay = 7 + 99 * 13 + 8 + 10;
  assert.deepEqual(
    { calls: fns.get('delay100')?.calls, self: fns.get('delay100')?.self, total: fns.get('delay100')?.total },
    { calls: 20, self: 20 * perDelay, total: 20 * perDelay },
  );
  assert.deepEqual(
    { calls: fns.get('outer')?.calls, self: fns.get('outer')?.self, total: fns.get('outer')?.total },
    { calls: 10, self: 10 * 44, total: 10 * (44 + 2 * perDelay) },
  );
  const selfSum = run.profiler.allNodes().reduce((t, n) => t + n.self, 0);
  assert.equal(selfSum, run.cycles, 'the call tree holds every cycle once');

  const r = await call(
    agent,
    'profile_run',
    { project: join(work, 'zx-profile'), until: 'done', machine: 'spectrum' },
    120_000,
  );
  assert.equal(r.machine, 'spectrum');
  assert.equal(r.functions.find((f: { name: string }) => f.name === 'delay100').self, 20 * perDelay);
});

test('MCP run_tests on spectrum: structured results and coverage', async () => {
  const r = await call(
    agent,
    'run_tests',
    { project: join(work, 'zx-tests'), filter: 'b_', coverage: true, machine: 'spectrum' },
    120_000,
  );
  assert.equal(r.machine, 'spectrum');
  assert.deepEqual(
    r.results.map((x: { name: string; status: string; file: string }) => [x.name, x.status, x.file]),
    [['b_fails', 'failed', 'tests.c']],
  );
  const cov = r.coverage.find((c: { file: string }) => c.file === 'tests.c');
  assert.ok(cov.hit > 0 && cov.hit < cov.lines, `some lines run, not all (${cov.hit} of ${cov.lines})`);
});
