// The Test Explorer's logic (host/test-explorer-model.ts) with the real runner on the built-in C64: which folders are
// test projects, the tests the build's debug info names (file and line), and how results and coverage read in the editor.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MACHINES } from '../../src/connectors/registry.js';
import {
  debugTarget,
  discoverProjectTests,
  explorerCoverage,
  findTestProjects,
  outcomeOf,
  projectOfSource,
} from '../../src/host/test-explorer-model.js';
import { runTests } from '../../src/testing/run-tests.js';
import { loadTestProgram } from '../../src/testing/program.js';
import { findMarkers, REPO_ROOT } from '../support/c64-fixture.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'testing');
let ws: string;

before(() => {
  ws = mkdtempSync(join(tmpdir(), 'rd-explorer-'));
  cpSync(join(FIXTURES, 'c64-bad'), join(ws, 'bad'), { recursive: true });
  cpSync(join(FIXTURES, 'c64-no-header'), join(ws, 'plain'), { recursive: true });
  // a build folder's copy of a test source is no project of its own
  mkdirSync(join(ws, 'bad', 'build'), { recursive: true });
  writeFileSync(join(ws, 'bad', 'build', 'copy.c'), '#include "retro_test.h"\n');
});

after(() => rmSync(ws, { recursive: true, force: true }));

const lineOf = (file: string, text: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text)) + 1;

test('projects are the folders whose C includes retro_test.h; tests come from the build with file and line', async () => {
  assert.deepEqual(await findTestProjects(ws), [join(ws, 'bad')]);
  const tests = await discoverProjectTests(join(ws, 'bad'));
  const source = join(ws, 'bad', 'bad.c');
  const fails = tests.find((t) => t.name === 'b_fails');
  // the debug info places a function at its first statement: b_fails's is its EXPECT
  assert.deepEqual(fails, { name: 'b_fails', file: source, line: (await findMarkers([source])).fail.line });
  assert.ok(tests.some((t) => t.name === 'h_still_runs'));
});

test('a run reads in the editor: failures at their EXPECT, errors with the stack, cycles, coverage per file', async () => {
  const dir = join(ws, 'bad');
  const report = await runTests(TEST_MACHINES, {
    target: dir,
    coverage: true,
    limits: { maxCycles: 300_000, maxSeconds: 10 },
  });
  const by = new Map(report.results.map((r) => [r.name, outcomeOf(r, report.sourceRoot)]));
  const source = join(dir, 'bad.c');
  const fail = by.get('b_fails')!;
  assert.equal(fail.state, 'failed');
  assert.deepEqual(fail.location, { file: source, line: (await findMarkers([source])).fail.line });
  assert.match(fail.message!, /^EXPECT_EQ: triple\(3\) == 10: expected 10, got 9/);
  const hang = by.get('c_never_returns')!;
  assert.equal(hang.state, 'errored');
  assert.match(hang.message!, /^timeout: .*\n {2}at test_c_never_returns \(bad\.c:\d+\)/);
  const hangLine = hang.location!.line;
  assert.ok(
    hangLine > lineOf(source, 'TEST(c_never_returns)') && hangLine < lineOf(source, 'TEST(d_brk)'),
    `${hangLine}`,
  );
  const pass = by.get('a_passes')!;
  assert.equal(pass.state, 'passed');
  assert.match(pass.cycles!, /^\d+ cycles$/);
  assert.match(by.get('g_over_budget')!.cycles!, /^\d+ cycles \(budget 10\)$/);
  const files = explorerCoverage(report.coverage!, report.sourceRoot);
  const bad = files.find((f) => f.file === source)!;
  assert.ok(bad, `coverage names ${files.map((f) => f.file).join(', ')}`);
  assert.ok(bad.lines.some((l) => l.count > 0) && bad.lines.some((l) => l.count === 0));
});

test('a continuous run re-runs the project a saved build input belongs to, and a re-run sees the saved change', async () => {
  const projects = await findTestProjects(ws);
  const bad = join(ws, 'bad');
  assert.equal(projectOfSource(projects, join(bad, 'bad.c')), bad);
  assert.equal(projectOfSource(projects, join(bad, 'fixed.h')), bad, 'a header is a build input');
  assert.equal(projectOfSource(projects, join(bad, 'notes.txt')), undefined);
  assert.equal(projectOfSource(projects, join(bad, 'build', 'copy.c')), undefined, 'the build reads the folder only');
  assert.equal(projectOfSource(projects, join(ws, 'plain', 'plain.c')), undefined, 'not a test project');

  const source = join(bad, 'bad.c');
  const fixed = readFileSync(source, 'utf8').replace('EXPECT_EQ(10, triple(3))', 'EXPECT_EQ(9, triple(3))');
  writeFileSync(source, fixed);
  const again = await runTests(TEST_MACHINES, { target: bad, filter: 'b_fails' });
  assert.equal(again.built, true, 'the saved source is rebuilt');
  // its first EXPECT passes now; the second still fails, at its own line
  assert.equal(again.results[0].failure?.line, lineOf(source, 'EXPECT_TRUE(triple(0) == 1)'));
});

test('the Debug profile launches the build on its machine; with retro_test_only written main runs that test alone', async () => {
  const dir = join(ws, 'bad');
  const target = await debugTarget(dir, 'g_over_budget');
  assert.deepEqual(
    { machine: target.launch.machine, emulator: target.launch.emulator, fn: target.functionName },
    { machine: 'c64', emulator: 'builtin', fn: 'test_g_over_budget' },
  );
  // what a debug session does at main's entry, on the machine itself: the test runs, and only it
  const program = await loadTestProgram(target.launch.program, target.launch.debugInfo);
  const main = program.index.functionByName('main')!.start;
  const others = program.suite.tests.filter((t) => t.name !== 'g_over_budget').map((t) => t.address);
  const m = await TEST_MACHINES.find((x) => x.machine === 'c64')!.create();
  try {
    await m.start(program.bytes);
    assert.equal((await m.runUntil([main], 5_000_000, Date.now() + 10_000)).kind, 'reached');
    await m.write(target.onlyAddress, new Uint8Array([target.testAddress & 0xff, target.testAddress >> 8]));
    const entered = await m.runUntil([target.testAddress, ...others], 5_000_000, Date.now() + 10_000);
    assert.deepEqual(entered, { kind: 'reached', pc: target.testAddress });
    // it returns to main, which ends: no other test runs
    const after = await m.runUntil(others, 5_000_000, Date.now() + 10_000);
    assert.notEqual(after.kind, 'reached', `another test ran: ${JSON.stringify(after)}`);
  } finally {
    await m.close();
  }
  await assert.rejects(debugTarget(dir, 'no_such_test'), /has no test no_such_test/);
});
