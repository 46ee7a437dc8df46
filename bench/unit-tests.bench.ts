/**
 * Unit tests and profiling on the built-in C64, in one run:
 *  - a generated 50-test cc65 suite: wall time of `runTests` with the build reused (the stat check included),
 *    and its ratio to the suite's machine time at 1 MHz (the cycles its tests take);
 *  - the emulation's speed with the profiler and with coverage only, as ratios to the speed without an observer
 *    on the same program in the same run (the issue asks ≥ 0.5 and ≥ 0.8).
 * Run: node --import tsx bench/unit-tests.bench.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MACHINES } from '../src/connectors/registry.js';
import { HeadlessC64 } from '../src/connectors/builtin-c64/headless-c64.js';
import { prepareTests } from '../src/testing/build.js';
import { loadTestProgram } from '../src/testing/program.js';
import { runTests } from '../src/testing/run-tests.js';
import { CoverageCounter } from '../src/testing/coverage.js';
import { Profiler } from '../src/testing/profiler.js';
import type { InstructionObserver } from '../src/core/headless.js';

const TESTS = 50;

export function suiteSource(): string {
  const lines = ['#define RETRO_TEST_MAIN', '#include "retro_test.h"', '', 'unsigned int sum_to(unsigned char n) {'];
  lines.push('  unsigned int t = 0;', '  unsigned char i;', '  for (i = 1; i <= n; ++i) t += i;', '  return t;', '}');
  for (let k = 0; k < TESTS; k++) {
    const n = 10 + k;
    lines.push(`TEST(sum_${k}) {`, `  EXPECT_EQ(${(n * (n + 1)) / 2}u, sum_to(${n}));`, '}');
  }
  return lines.join('\n') + '\n';
}

/** Emulated cycles per wall second running the suite's first test body for `cycles` with `observer`. */
async function speed(program: Uint8Array, cycles: number, observer?: InstructionObserver): Promise<number> {
  const m = new HeadlessC64();
  await m.start(program);
  m.observe(observer);
  const t0 = performance.now();
  await m.runUntil([], cycles, Date.now() + 120_000);
  return cycles / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rd-bench-tests-'));
  try {
    writeFileSync(join(dir, 'suite.c'), suiteSource());
    const built = await prepareTests(dir); // the first build, not timed
    await runTests(TEST_MACHINES, { target: dir }); // warm-up (JIT)
    const t0 = performance.now();
    const report = await runTests(TEST_MACHINES, { target: dir });
    const wall = performance.now() - t0;
    const passed = report.results.filter((r) => r.status === 'passed').length;
    const cycles = report.results.reduce((t, r) => t + (r.cycles ?? 0), 0);
    console.log(
      `50-test cc65 suite: ${passed}/${report.results.length} passed, wall ${wall.toFixed(0)} ms with the build reused ` +
        `(built: ${report.built}); machine time at 1 MHz ${(cycles / 1000).toFixed(1)} ms; ` +
        `ratio wall/machine ${(wall / (cycles / 1000)).toFixed(2)}`,
    );
    // speed: a program whose main never ends, doing C work (rebuilt in the same folder)
    writeFileSync(
      join(dir, 'suite.c'),
      'unsigned int sum_to(unsigned char n) { unsigned int t = 0; unsigned char i; for (i = 1; i <= n; ++i) t += i; return t; }\n' +
        'unsigned int acc;\nint main(void) { for (;;) acc += sum_to(200); }\n',
    );
    const prog = await loadTestProgram((await prepareTests(dir)).program, built.debugInfo);
    const N = 20_000_000;
    await speed(prog.bytes, 2_000_000); // warm-up
    const plain = await speed(prog.bytes, N);
    const cov = new CoverageCounter();
    const covered = await speed(prog.bytes, N, cov.observer);
    const profiler = new Profiler(prog.index);
    const profiled = await speed(prog.bytes, N, profiler.observer);
    const mhz = (x: number) => (x / 1e6).toFixed(1);
    console.log(
      `speed: none ${mhz(plain)} MHz, coverage ${mhz(covered)} MHz (${(covered / plain).toFixed(2)}x), ` +
        `profiler ${mhz(profiled)} MHz (${(profiled / plain).toFixed(2)}x)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('unit-tests.bench.ts')) void main();
