/**
 * run_tests and profile_run (group `tests`): C unit tests (retro_test.h) and
 * the cycle profiler on a private headless machine — no session, no lease —
 * so an agent can run the suite after each edit. Paths stay inside the
 * connection's roots; files go under the output folder.
 */
import { relative } from 'node:path';
import * as z from 'zod/v4';
import { toJunit } from '../../testing/junit.js';
import { toLcov } from '../../testing/lcov.js';
import { profileProgram } from '../../testing/profile-run.js';
import { exportRun } from '../../testing/profile-export.js';
import { runTests, type TestMachineSpec } from '../../testing/run-tests.js';
import { defineTool, type ToolDef } from '../tool-kit.js';
import { toolPath, writeOutputToolFile } from '../tool-files.js';

/** builds (files under the project's build/) and runs a private machine: changes nothing of any session */
const HEADLESS = { readOnly: false, destructive: false, idempotent: false, openWorld: false };

const project = z
  .string()
  .describe('project folder (built with its toolchain) or a built .prg/.rom/.exe with its .dbg/.cdb beside');
const fileOut = z.string().optional().describe('path under the output folder');
const fileResult = z.string().optional().describe('absolute path written');

const resultSchema = z.object({
  name: z.string(),
  status: z.enum(['passed', 'failed', 'error']),
  message: z.string().optional(),
  file: z.string().optional().describe('of the first failure, else of the test'),
  line: z.number().int().optional(),
  cycles: z.number().optional().describe('first instruction to return'),
  budget: z.number().optional(),
  stack: z.array(z.string()).optional().describe('timeout/crash: innermost first'),
});

export function testTools(machines: readonly TestMachineSpec[]): ToolDef[] {
  const machineNames = machines.map((m) => m.machine) as [string, ...string[]];
  const machine = z
    .enum(machineNames)
    .optional()
    .describe('default: by the build (cc65: c64; SDCC with crt0.s at 0: spectrum, at a DSS load address: sprinter)');
  const runTestsTool = defineTool({
    name: 'run_tests',
    title: 'Run C unit tests',
    description:
      'Build and run a retro_test.h project headless (each TEST in a fresh program); per test: status, message, file:line, cycles.',
    input: {
      project,
      filter: z.string().optional().describe('only tests whose name contains it'),
      machine,
      coverage: z.boolean().default(false).describe('lines hit per file'),
      junit: fileOut,
      lcov: fileOut.describe('lcov tracefile under the output folder (implies coverage)'),
      max_cycles: z.number().int().min(1).optional().describe('per test; default 50000000'),
    },
    output: {
      program: z.string(),
      machine: z.string(),
      passed: z.number().int(),
      failed: z.number().int().describe('failed or could not run'),
      results: z.array(resultSchema),
      coverage: z.array(z.object({ file: z.string(), lines: z.number().int(), hit: z.number().int() })).optional(),
      junit: fileResult,
      lcov: fileResult,
    },
    annotations: HEADLESS,
    async run(args, ctx) {
      const target = await toolPath(ctx, args.project);
      const report = await runTests(machines, {
        target,
        machine: args.machine,
        filter: args.filter,
        coverage: args.coverage || args.lcov !== undefined,
        limits: args.max_cycles ? { maxCycles: args.max_cycles, maxSeconds: 10 } : undefined,
      });
      const results = report.results.map((r) => ({
        name: r.name,
        status: r.status,
        message: r.message,
        file: r.failure?.file ?? r.file,
        line: r.failure?.line ?? r.line,
        cycles: r.cycles,
        budget: r.budget,
        stack: r.stack,
      }));
      const write = (path: string, text: string) => writeOutputToolFile(ctx, path, Buffer.from(text), true);
      const name = relative(ctx.outputDir, report.program) || report.program;
      const junit = args.junit
        ? await write(
            args.junit,
            toJunit({ name, machine: report.machine, results: report.results, timestamp: new Date() }),
          )
        : undefined;
      const lcov =
        args.lcov && report.coverage
          ? await write(args.lcov, toLcov(report.coverage, 'tests', report.sourceRoot))
          : undefined;
      const passed = results.filter((r) => r.status === 'passed').length;
      return {
        data: {
          program: report.program,
          machine: report.machine,
          passed,
          failed: results.length - passed,
          results,
          coverage: report.coverage?.map((f) => ({
            file: f.file,
            lines: f.lines.length,
            hit: f.lines.filter((l) => l.count > 0).length,
          })),
          junit,
          lcov,
        },
        summary: `${passed} passed, ${results.length - passed} failed on ${report.machine}`,
      };
    },
  });

  const profileRunTool = defineTool({
    name: 'profile_run',
    title: 'Profile a program',
    description:
      'Run a program headless from its start for N frames or until a C function; cycles per function (self, total, calls) and per line. Exports .cpuprofile/speedscope.',
    input: {
      project,
      frames: z.number().int().min(1).max(180_000).optional(),
      until: z.string().optional().describe('C function: stop when first called'),
      machine,
      top: z.number().int().min(1).max(500).default(20).describe('functions and lines listed'),
      cpuprofile: fileOut,
      speedscope: fileOut,
    },
    output: {
      program: z.string(),
      machine: z.string(),
      exact: z.boolean().describe('cycles exact (built-in C64)'),
      ended: z.string(),
      cycles: z.number(),
      functions: z.array(
        z.object({
          name: z.string(),
          file: z.string().optional(),
          line: z.number().int().optional(),
          self: z.number(),
          total: z.number(),
          calls: z.number().int(),
        }),
      ),
      lines: z.array(z.object({ file: z.string(), line: z.number().int(), cycles: z.number() })),
      cpuprofile: fileResult,
      speedscope: fileResult,
    },
    annotations: HEADLESS,
    async run(args, ctx) {
      const target = await toolPath(ctx, args.project);
      const run = await profileProgram(machines, {
        target,
        machine: args.machine,
        frames: args.frames,
        until: args.until,
      });
      const p = run.profiler;
      const write = (path: string, value: object) =>
        writeOutputToolFile(ctx, path, Buffer.from(JSON.stringify(value)), true);
      const cpuprofile = args.cpuprofile ? await write(args.cpuprofile, exportRun(run, 'cpuprofile')) : undefined;
      const speedscope = args.speedscope ? await write(args.speedscope, exportRun(run, 'speedscope')) : undefined;
      return {
        data: {
          program: run.program,
          machine: run.machine,
          exact: run.exact,
          ended: run.ended,
          cycles: run.cycles,
          functions: p.functions().slice(0, args.top),
          lines: p.lines().slice(0, args.top),
          cpuprofile,
          speedscope,
        },
        summary: `${run.cycles} cycles on ${run.machine} (${run.ended})`,
      };
    },
  });
  return [runTestsTool, profileRunTool];
}
