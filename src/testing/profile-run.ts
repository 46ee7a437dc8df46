/**
 * `profile_run`: runs a program from its start for a number of frames or
 * until a function is reached, with the profiler (or only the coverage
 * counter) watching every instruction.
 */
import type { DebugIndex } from '../debuginfo/index.js';
import { hex } from '../core/hex.js';
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
  /** …or until one of these source lines is reached (the editor's breakpoints) */
  untilLines?: readonly { file: string; line: number }[];
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
  if ([opts.frames, opts.until, opts.untilLines].filter((o) => o !== undefined).length !== 1)
    throw badRequest('Give one of frames (how long to run), until (a C function to run to) or source lines to run to.');
  const built = await prepareTests(opts.target);
  const spec = pickMachine(machines, opts.machine, built);
  const program = await loadTestProgram(built.program, built.debugInfo);
  const stopAt = opts.until === undefined ? undefined : program.index.functionByName(opts.until);
  if (opts.until !== undefined && !stopAt) throw notFound(`No C function "${opts.until}" in ${built.program}.`);
  const stops = stopAt ? [stopAt.start] : lineStops(program.index, opts.untilLines ?? [], built.program);
  const machine = await spec.create();
  try {
    const profiler = new Profiler(program.index, callRule(machine.cpu, spec, program.bytes));
    await machine.start(program.bytes);
    machine.observe(profiler.observer);
    const started = Date.now();
    const maxCycles = opts.frames !== undefined ? opts.frames * spec.cyclesPerFrame : 3600 * spec.cyclesPerFrame * 50;
    const stop = await machine.runUntil(stops, maxCycles, started + (opts.maxSeconds ?? 60) * 1000);
    const ms = Date.now() - started;
    machine.observe(undefined);
    profiler.finish();
    const ended =
      stop.kind === 'reached'
        ? `reached ${opts.until ?? lineName(program.index, stop.pc)}`
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

/** The addresses of each line (a line without code moves on, as a breakpoint does); none found is an error. */
function lineStops(index: DebugIndex, lines: readonly { file: string; line: number }[], program: string): number[] {
  const stops = lines.flatMap((l) => index.resolveLine(l.file, l.line)?.addresses ?? []);
  if (lines.length && !stops.length)
    throw notFound(`None of the ${lines.length} source line(s) to run to has code in ${program}.`);
  return stops;
}

function lineName(index: DebugIndex, pc: number): string {
  const at = index.lineAt(pc);
  return at ? `${at.file}:${at.line}` : hex(pc, 4, '$');
}

function callRule(cpu: string, spec: TestMachineSpec, program: Uint8Array): CallRule {
  if (cpu === '6502') return mos6502Calls;
  if (!spec.code)
    throw unsupported(`The profiler cannot tell calls from pushes on ${spec.machine}: its code is not known.`);
  return z80Calls(spec.code(program));
}
