/**
 * One test run, as the CLI, MCP and the editor ask for it: prepare (build or
 * reuse) the program, find its tests, run them on the machine, and collect
 * coverage when asked. The machines come from the caller (the connectors
 * provide them), so this layer knows no emulator.
 */
import { unsupported } from '../core/errors.js';
import type { HeadlessMachine } from '../core/headless.js';
import { CoverageCounter, type FileCoverage } from './coverage.js';
import type { CharDecoder } from './mailbox.js';
import { prepareTests, type BuiltTests } from './build.js';
import { loadTestProgram } from './program.js';
import { runSuite, type RunLimits, type TestResult } from './runner.js';

/** A machine tests can run on: what builds for it and how to start one. */
export interface TestMachineSpec {
  /** also the build layout it runs (build.ts TestLayout) */
  machine: string;
  /** cycles are exact (the built-in C64); else the emulator's own count */
  exact: boolean;
  create(): Promise<HeadlessMachine>;
  /** how the machine's C strings are encoded */
  decode: CharDecoder;
  /** machine cycles per video frame */
  cyclesPerFrame: number;
  /** the byte the CPU runs at an address, for the profiler where a push looks like a call (the Z80) */
  code?(program: Uint8Array): (address: number) => number | undefined;
}

export interface TestRunOptions {
  /** a project folder or a built program */
  target: string;
  machine?: string;
  /** runs only tests whose name contains it */
  filter?: string;
  coverage?: boolean;
  limits?: RunLimits;
  onResult?: (result: TestResult) => void;
}

export interface TestRunReport {
  program: string;
  machine: string;
  exact: boolean;
  built: boolean;
  sourceRoot: string;
  results: TestResult[];
  coverage?: FileCoverage[];
  /** wall time of the whole run, build included */
  ms: number;
}

export async function runTests(machines: readonly TestMachineSpec[], opts: TestRunOptions): Promise<TestRunReport> {
  const started = Date.now();
  const built = await prepareTests(opts.target);
  const spec = pickMachine(machines, opts.machine, built);
  const program = await loadTestProgram(built.program, built.debugInfo);
  const machine = await spec.create();
  const counter = opts.coverage ? new CoverageCounter() : undefined;
  try {
    if (counter) machine.observe(counter.observer);
    const filter = opts.filter;
    const results = await runSuite(
      {
        machine,
        program: program.bytes,
        index: program.index,
        suite: program.suite,
        decode: spec.decode,
        limits: opts.limits,
        onResult: opts.onResult,
      },
      filter ? (t) => t.name.includes(filter) || t.functionName.includes(filter) : undefined,
    );
    if (!program.suite.tests.length)
      results.push({
        name: '(no tests)',
        functionName: '',
        status: 'error',
        message: `${built.program} has no tests: TEST(name) functions (test_*) were not found in its debug info`,
        ms: 0,
      });
    return {
      program: built.program,
      machine: spec.machine,
      exact: spec.exact,
      built: built.built,
      sourceRoot: built.sourceRoot,
      results,
      coverage: counter?.report(program.index),
      ms: Date.now() - started,
    };
  } finally {
    await machine.close();
  }
}

export function pickMachine(
  machines: readonly TestMachineSpec[],
  wanted: string | undefined,
  built: Pick<BuiltTests, 'toolchain' | 'layout'>,
) {
  const names = machines.map((m) => m.machine).join(', ');
  const spec = machines.find((m) => m.machine === (wanted ?? built.layout));
  if (!spec) throw unsupported(`Tests run on ${names}; not on ${wanted ?? built.layout}.`, { machine: wanted });
  if (spec.machine !== built.layout)
    throw unsupported(
      `This program is a ${built.toolchain} build for the ${built.layout} (its crt0.s decides: at 0 a ZX ROM, at a ` +
        `DSS load address a Sprinter .EXE); it does not run on ${spec.machine}.`,
      { machine: wanted },
    );
  return spec;
}
