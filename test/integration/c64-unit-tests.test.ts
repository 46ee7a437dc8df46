// `retro-debug test` on the built-in C64: real cc65 builds of retro_test.h projects, results read back by real
// consumers (xmllint parses the JUnit XML, genhtml from Debian's lcov renders the tracefile).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMarkers, REPO_ROOT } from '../support/c64-fixture.js';
import { freshBundle } from '../support/bundle.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'testing');

function copyProject(from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rd-unit-'));
  cpSync(from, dir, { recursive: true, filter: (src) => !/[\\/]build$/.test(src) });
  return dir;
}

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'test', ...args], { encoding: 'utf8', timeout: 120_000 });
}

function xpath(file: string, expression: string): string {
  return execFileSync('xmllint', ['--xpath', expression, file], { encoding: 'utf8' }).trim();
}

before(() => freshBundle());

test('tests that fail, hang, crash and corrupt the mailbox are each reported; the rest of the suite runs', async () => {
  const dir = copyProject(join(FIXTURES, 'c64-bad'));
  try {
    const junit = join(dir, 'results.xml');
    const lcov = join(dir, 'coverage.info');
    const run = cli(dir, '--max-cycles', '300000', '--junit', junit, '--lcov', lcov);
    assert.equal(run.status, 1, run.stderr + run.stdout);
    const out = run.stdout;
    const failLine = (await findMarkers([join(dir, 'bad.c')])).fail.line;
    assert.match(
      out,
      new RegExp(
        `FAIL b_fails \\(\\d+ cycles\\): bad\\.c:${failLine}: EXPECT_EQ: triple\\(3\\) == 10: expected 10, got 9 \\(and 1 more failure\\)`,
      ),
    );
    assert.match(
      out,
      /ERROR c_never_returns \(30000\d cycles\): .*timeout: the test did not return within 300000 cycles\n\s+at test_c_never_returns \(bad\.c:\d+\)/,
    );
    assert.match(out, /ERROR d_brk .*crash: BRK at test_d_brk \(bad\.c:\d+\)/);
    assert.match(out, /ERROR e_jam .*crash: CPU JAM at \$[0-9A-F]{4} \(opcode \$02/);
    assert.match(out, /ERROR f_corrupts_mailbox .*the mailbox is corrupted/);
    assert.match(out, /FAIL g_over_budget \((\d+) cycles\): .*over budget: \1 cycles, the budget is 10/);
    assert.match(out, /PASS h_still_runs \(\d+ cycles\)/);
    assert.match(out, /2 passed, 6 failed on c64/);

    // a real XML parser reads the JUnit file
    assert.equal(xpath(junit, 'string(/testsuites/testsuite/@tests)'), '8');
    assert.equal(xpath(junit, 'string(/testsuites/testsuite/@failures)'), '2');
    assert.equal(xpath(junit, 'string(/testsuites/testsuite/@errors)'), '4');
    assert.equal(xpath(junit, 'count(//testcase[failure or error])'), '6');
    assert.match(
      xpath(junit, 'string(//testcase[@name="b_fails"]/failure)'),
      new RegExp(`^bad\\.c:${failLine}: EXPECT_EQ`),
    );
    assert.equal(xpath(junit, 'string(//testcase[@name="c_never_returns"]/error/@type)'), 'timeout');
    assert.equal(xpath(junit, 'string(//testcase[@name="d_brk"]/error/@type)'), 'crash');
    assert.match(xpath(junit, 'string(//testcase[@name="a_passes"]/system-out)'), /^cycles: \d+$/);

    // genhtml (Debian's lcov) renders the tracefile
    const info = readFileSync(lcov, 'utf8');
    assert.match(info, new RegExp(`SF:${join(dir, 'bad.c').replace(/[.\\/]/g, '\\$&')}\\n`));
    assert.doesNotMatch(info, /retro_test\.h/, "the header's own code is not reported");
    assert.match(info, /FNDA:[1-9]\d*,triple\n/);
    const html = join(dir, 'html');
    const gen = spawnSync('genhtml', [lcov, '--output-directory', html], { encoding: 'utf8' });
    assert.equal(gen.status, 0, gen.stderr);
    assert.match(gen.stdout, /lines\.+: \d+\.\d% \(\d+ of \d+ lines\)/);
    assert.ok(existsSync(join(html, 'index.html')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the example project passes, and a second run reuses the build', () => {
  const dir = copyProject(join(REPO_ROOT, 'examples', 'c64-tests'));
  try {
    const first = cli(dir);
    assert.equal(first.status, 0, first.stderr + first.stdout);
    assert.equal(first.stdout.match(/^PASS /gm)?.length, 5);
    assert.match(first.stdout, /5 passed, 0 failed on c64 .*built\)/);
    const again = cli(dir, '--filter', 'isqrt');
    assert.equal(again.status, 0, again.stderr + again.stdout);
    assert.match(again.stdout, /2 passed, 0 failed on c64 .*build reused\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a program without retro_test.h: each test is an error naming the header, and the JUnit file is valid', () => {
  const dir = copyProject(join(FIXTURES, 'c64-no-header'));
  try {
    const junit = join(dir, 'results.xml');
    const run = cli(dir, '--junit', junit);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /ERROR alone: .*no retro_test\.h runner/);
    assert.equal(xpath(junit, 'string(/testsuites/@errors)'), '1');
    const none = cli(join(dir, 'missing'));
    assert.equal(none.status, 1);
    assert.match(none.stderr, /does not exist/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
