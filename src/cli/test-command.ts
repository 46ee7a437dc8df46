/**
 * `retro-debug test <project or program>`: builds (or reuses) the test
 * program, runs every TEST on the machine headless, prints one line per test
 * and writes JUnit XML and lcov when asked. Exit code 1 when a test failed or
 * could not run, so CI stops.
 */
import { writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { toJunit } from '../testing/junit.js';
import { toLcov } from '../testing/lcov.js';
import { runTests, type TestMachineSpec } from '../testing/run-tests.js';
import type { RunLimits, TestResult } from '../testing/runner.js';

export interface TestCommandOptions {
  target: string;
  machine?: string;
  junit?: string;
  lcov?: string;
  filter?: string;
  limits?: RunLimits;
  log: (line: string) => void;
}

/** Returns the process's exit code. */
export async function testCommand(machines: readonly TestMachineSpec[], opts: TestCommandOptions): Promise<number> {
  const report = await runTests(machines, {
    target: opts.target,
    machine: opts.machine,
    filter: opts.filter,
    coverage: opts.lcov !== undefined,
    limits: opts.limits,
    onResult: (r) => opts.log(resultLine(r)),
  });
  const { results } = report;
  const failed = results.filter((r) => r.status !== 'passed');
  if (results.length === 0) opts.log(`no test matches "${opts.filter}"`);
  const name = basename(resolve(opts.target));
  if (opts.junit)
    await writeFile(opts.junit, toJunit({ name, machine: report.machine, results, timestamp: new Date() }));
  if (opts.lcov && report.coverage) await writeFile(opts.lcov, toLcov(report.coverage, name, report.sourceRoot));
  const cycles = results.reduce((n, r) => n + (r.cycles ?? 0), 0);
  opts.log(
    `${results.length - failed.length} passed, ${failed.length} failed on ${report.machine} ` +
      `(${cycles} cycles in tests; ${report.ms} ms${report.built ? ', built' : ', build reused'})`,
  );
  return failed.length || results.length === 0 ? 1 : 0;
}

function resultLine(r: TestResult): string {
  const where = r.failure ? `${r.failure.file}:${r.failure.line}` : r.file ? `${r.file}:${r.line ?? '?'}` : '';
  const cycles = r.cycles === undefined ? '' : ` (${r.cycles} cycles)`;
  if (r.status === 'passed') return `PASS ${r.name}${cycles}`;
  const stack = (r.stack ?? []).map((f) => `\n       at ${f}`).join('');
  return `${r.status === 'failed' ? 'FAIL' : 'ERROR'} ${r.name}${cycles}: ${where ? where + ': ' : ''}${r.message}${stack}`;
}
