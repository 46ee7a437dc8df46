/**
 * Unit tests and coverage on MAME's spectrum, in one run:
 *  - the same generated 50-test suite as unit-tests.bench.ts, built with SDCC: wall time of `runTests` with the
 *    build reused (one MAME start included), and its ratio to the suite's machine time at 3.5 MHz;
 *  - MAME's speed with every instruction traced (coverage, the profiler) as a ratio to its speed untraced, on the
 *    same program in the same MAME;
 *  - profile accuracy: per-function T-states of test/fixtures/testing/zx-profile against its hand count (asked:
 *    within 1 %).
 * Run: node --import tsx bench/unit-tests-mame.bench.ts
 */
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_MACHINES } from '../src/connectors/registry.js';
import { HeadlessMame } from '../src/connectors/mame/headless-mame.js';
import { prepareTests } from '../src/testing/build.js';
import { loadTestProgram } from '../src/testing/program.js';
import { runTests } from '../src/testing/run-tests.js';
import { CoverageCounter } from '../src/testing/coverage.js';
import type { InstructionObserver } from '../src/core/headless.js';
import { profileProgram } from '../src/testing/profile-run.js';
import { accuracyLine } from './profile-accuracy.js';
import { suiteSource } from './unit-tests.bench.js';

const Z80_HZ = 3_500_000;

async function speed(m: HeadlessMame, program: Uint8Array, cycles: number, observer?: InstructionObserver) {
  await m.start(program);
  m.observe(observer);
  const t0 = performance.now();
  const stop = await m.runUntil([], cycles, Date.now() + 300_000);
  const ran = (await m.state()).cycles;
  m.observe(undefined);
  if (stop.kind !== 'limit') throw new Error(`the loop stopped: ${JSON.stringify(stop)}`);
  return ran / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rd-bench-zx-tests-'));
  const m = new HeadlessMame('spectrum');
  try {
    copyFileSync(join(__dirname, '..', 'examples', 'zx-demo', 'crt0.s'), join(dir, 'crt0.s'));
    writeFileSync(join(dir, 'suite.c'), suiteSource());
    await prepareTests(dir); // the first build, not timed
    const t0 = performance.now();
    const report = await runTests(TEST_MACHINES, { target: dir, machine: 'spectrum' });
    const wall = performance.now() - t0;
    const passed = report.results.filter((r) => r.status === 'passed').length;
    const cycles = report.results.reduce((t, r) => t + (r.cycles ?? 0), 0);
    const machineMs = (cycles / Z80_HZ) * 1000;
    console.log(
      `50-test SDCC suite on spectrum: ${passed}/${report.results.length} passed, wall ${wall.toFixed(0)} ms with the ` +
        `build reused (built: ${report.built}); machine time at 3.5 MHz ${machineMs.toFixed(1)} ms; ` +
        `ratio wall/machine ${(wall / machineMs).toFixed(1)}`,
    );
    writeFileSync(
      join(dir, 'suite.c'),
      'unsigned int sum_to(unsigned char n) { unsigned int t = 0; unsigned char i; for (i = 1; i <= n; ++i) t += i; return t; }\n' +
        'volatile unsigned int acc;\nint main(void) { for (;;) acc += sum_to(200); }\n',
    );
    const built = await prepareTests(dir);
    const prog = await loadTestProgram(built.program, built.debugInfo);
    const N = Number(process.env.BENCH_CYCLES ?? 20_000_000);
    await speed(m, prog.bytes, 2_000_000); // MAME started, warm
    const plain = await speed(m, prog.bytes, N);
    const traced = await speed(m, prog.bytes, N, new CoverageCounter().observer);
    const mhz = (x: number) => (x / 1e6).toFixed(1);
    console.log(`speed: untraced ${mhz(plain)} MHz, traced ${mhz(traced)} MHz (${(traced / plain).toFixed(2)}x)`);
    const prof = join(dir, 'prof');
    cpSync(join(__dirname, '..', 'test', 'fixtures', 'testing', 'zx-profile'), prof, { recursive: true });
    copyFileSync(join(dir, 'crt0.s'), join(prof, 'crt0.s'));
    const run = await profileProgram(TEST_MACHINES, { target: prof, machine: 'spectrum', until: 'done' });
    const perDelay = 7 + 99 * 13 + 8 + 10; // ld b; djnz taken 99 times, not taken once; ret
    console.log(
      accuracyLine(run, {
        delay100: { self: 20 * perDelay, total: 20 * perDelay, calls: 20 },
        outer: { self: 10 * 44, total: 10 * (44 + 2 * perDelay), calls: 10 },
      }),
    );
  } finally {
    await m.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
