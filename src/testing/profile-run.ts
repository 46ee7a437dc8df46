/**
 * `profile_run`: runs a program from its start for a number of frames or
 * until a function is reached, with the profiler (or only the coverage
 * counter) watching every instruction.
 */
import { badRequest, notFound, unsupported } from '../core/errors.js';
import { mos6502Calls, z80Calls, type CallRule } from './call-rules.js';
import { prepareTests } from './build.js';
import { loadTestProgram } from './program.js';
import { Profiler } from './profiler.js';
import { pickMachine, type TestMachineSpec } from './run-tests.js';

export interface ProfileOptions {
  /** a project folder or a built program */
  target: string;
  machine?: string;
  /** run this many frames of the machine… */
  frames?: number;
  /** …or until this C function is first called */
  until?: string;
  maxSeconds?: number;
}

export interface ProfileRun {
  program: string;
  machine: string;
  exact: boolean;
  sourceRoot: string;
  /** what ended the run */
  ended: string;
  cycles: number;
  profiler: Profiler;
  /** wall time of the emulation alone */
  ms: number;
}

export async function profileProgram(machines: readonly TestMachineSpec[], opts: ProfileOptions): Promise<ProfileRun> {
  if ((opts.frames === undefined) === (opts.until === undefined))
    throw badRequest('Give either frames (how long to run) or until (a C function to run to).');
  const built = await prepareTests(opts.target);
  const spec = pickMachine(machines, opts.machine, built);
  const program = await loadTestProgram(built.program, built.debugInfo);
  const stopAt = opts.until === undefined ? undefined : program.index.functionByName(opts.until);
  if (opts.until !== undefined && !stopAt) throw notFound(`No C function "${opts.until}" in ${built.program}.`);
  const machine = await spec.create();
  try {
    const profiler = new Profiler(program.index, callRule(machine.cpu, spec, program.bytes));
    await machine.start(program.bytes);
    machine.observe(profiler.observer);
    const started = Date.now();
    const maxCycles = opts.frames !== undefined ? opts.frames * spec.cyclesPerFrame : 3600 * spec.cyclesPerFrame * 50;
    const stop = await machine.runUntil(
      stopAt ? [stopAt.start] : [],
      maxCycles,
      started + (opts.maxSeconds ?? 60) * 1000,
    );
    const ms = Date.now() - started;
    machine.observe(undefined);
    profiler.finish();
    const ended =
      stop.kind === 'reached'
        ? `reached ${opts.until}`
        : stop.kind === 'limit'
          ? stop.reason === 'cycles'
            ? `${opts.frames ?? 'the'} frames ran`
            : 'the time limit passed'
          : stop.reason;
    return {
      program: built.program,
      machine: spec.machine,
      exact: spec.exact,
      sourceRoot: built.sourceRoot,
      ended,
      cycles: profiler.cycles,
      profiler,
      ms,
    };
  } finally {
    await machine.close();
  }
}

function callRule(cpu: string, spec: TestMachineSpec, program: Uint8Array): CallRule {
  if (cpu === '6502') return mos6502Calls;
  if (!spec.code)
    throw unsupported(`The profiler cannot tell calls from pushes on ${spec.machine}: its code is not known.`);
  return z80Calls(spec.code(program));
}
