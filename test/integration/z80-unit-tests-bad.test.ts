// Bad input to retro_test.h runs on MAME's Z80 machines (spectrum ROM, Sprinter DSS .EXE), real SDCC builds in real
// MAME: a failure at its line, a test that never returns (timeout with its stack), one that halts the CPU, one that
// corrupts the mailbox, a program without the header — each that test's error, the rest still run, JUnit and lcov
// still read by xmllint and genhtml.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMarkers, REPO_ROOT } from '../support/c64-fixture.js';
import { z80TestProject } from '../support/z80-test-project.js';
import { freshBundle } from '../support/bundle.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
let work: string;

before(() => {
  freshBundle();
  work = mkdtempSync(join(tmpdir(), 'rd-z80-bad-'));
});

after(() => rmSync(work, { recursive: true, force: true }));

const cli = (dir: string, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'test', dir, ...args], { encoding: 'utf8', timeout: 180_000 });
const xpath = (file: string, expression: string) =>
  execFileSync('xmllint', ['--xpath', expression, file], { encoding: 'utf8' }).trim();

for (const machine of ['spectrum', 'sprinter'] as const) {
  test(`${machine}: a failure, a hang, a HALT and a corrupted mailbox are each that test's error; the rest run`, async () => {
    const dir = z80TestProject('z80-bad', machine, work, `bad-${machine}`);
    const junit = join(dir, 'results.xml');
    const lcov = join(dir, 'coverage.info');
    const run = cli(dir, '--machine', machine, '--max-cycles', '300000', '--junit', junit, '--lcov', lcov);
    assert.equal(run.status, 1, run.stderr + run.stdout);
    const out = run.stdout;
    const marks = await findMarkers([join(dir, 'bad.c')]);
    assert.match(out, /PASS a_passes \(\d+ cycles\)/);
    assert.match(
      out,
      new RegExp(
        `FAIL b_fails \\(\\d+ cycles\\): bad\\.c:${marks.fail.line}: EXPECT_EQ: triple\\(3\\) == 10: expected 10, got 9`,
      ),
    );
    // the stack of the hang: where it spins, the test that called it, retro_test.h's main
    assert.match(
      out,
      new RegExp(
        `ERROR c_never_returns \\(\\d+ cycles\\): .*timeout: the test did not return within 300000 cycles\\n` +
          `\\s+at spin_forever \\(bad\\.c:${marks.spin.line}\\)\\n\\s+at test_c_never_returns \\(bad\\.c:${marks.call.line}\\)\\n` +
          `\\s+at main \\(retro_test\\.h:\\d+\\)`,
      ),
    );
    assert.match(out, /ERROR d_halts \(\d+ cycles\): .*crash: HALT with interrupts off at test_d_halts \(bad\.c:\d+\)/);
    assert.match(out, /ERROR e_corrupts_mailbox .*the mailbox is corrupted \(its markers read "ªªªª"/);
    // the HALT and the wrecked mailbox harmed no later test
    assert.match(out, /PASS f_still_runs \(\d+ cycles\)/);
    assert.match(out, new RegExp(`2 passed, 4 failed on ${machine}`));

    assert.equal(xpath(junit, 'string(/testsuites/testsuite/@tests)'), '6');
    assert.equal(xpath(junit, 'string(/testsuites/testsuite/@failures)'), '1');
    assert.equal(xpath(junit, 'string(/testsuites/testsuite/@errors)'), '3');
    assert.equal(xpath(junit, 'string(//testcase[@name="c_never_returns"]/error/@type)'), 'timeout');
    assert.equal(xpath(junit, 'string(//testcase[@name="d_halts"]/error/@type)'), 'crash');
    const gen = spawnSync('genhtml', [lcov, '--output-directory', join(dir, 'html')], { encoding: 'utf8' });
    assert.equal(gen.status, 0, gen.stderr);
  });

  test(`${machine}: a program without retro_test.h: its test is an error naming the header`, () => {
    const dir = z80TestProject('z80-no-header', machine, work, `plain-${machine}`);
    const junit = join(dir, 'results.xml');
    const run = cli(dir, '--machine', machine, '--junit', junit);
    assert.equal(run.status, 1, run.stderr + run.stdout);
    assert.match(run.stdout, /ERROR alone: .*no retro_test\.h runner/);
    assert.equal(xpath(junit, 'string(/testsuites/@errors)'), '1');
  });
}
