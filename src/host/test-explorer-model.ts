/**
 * What VS Code's Test Explorer shows, without VS Code: the workspace's test
 * projects (folders whose C files include retro_test.h), their tests as the
 * runner finds them (built, from the debug info: the same discovery as
 * `retro-debug test`), and how a runner result and its coverage read in the
 * editor (state, message at the failing line, cycles, lines hit).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { unsupported } from '../core/errors.js';
import { prepareTests, type TestLayout } from '../testing/build.js';
import type { FileCoverage } from '../testing/coverage.js';
import { loadTestProgram } from '../testing/program.js';
import type { TestResult } from '../testing/runner.js';
import { walkWorkspace } from './workspace-walk.js';

const INCLUDES_HEADER = /#\s*include\s*[<"]retro_test\.h[>"]/;
const BUILD_DIR = 'build';

export interface ExplorerTest {
  /** the TEST(name) */
  name: string;
  file?: string;
  /** 1-based */
  line?: number;
}

export interface ExplorerOutcome {
  state: 'passed' | 'failed' | 'errored';
  /** what failed or went wrong, with the stack of a timeout or crash */
  message?: string;
  /** where the message belongs: the failing EXPECT, else the test */
  location?: { file: string; line: number };
  /** "1234 cycles", shown beside the duration */
  cycles?: string;
}

/** Folders under `root` with a C file that includes retro_test.h, in walk order. */
export async function findTestProjects(root: string): Promise<string[]> {
  const found: string[] = [];
  await walkWorkspace(root, async (dir, files) => {
    if (basename(dir) === BUILD_DIR) return;
    for (const f of files.filter((n) => n.endsWith('.c'))) {
      const text = await readFile(join(dir, f), 'utf8').catch(() => '');
      if (INCLUDES_HEADER.test(text)) {
        found.push(dir);
        return;
      }
    }
  });
  return found;
}

/** the files a test build reads (build.ts): a save of one re-runs its project's tests in a continuous run */
const BUILD_INPUT = new Set(['.c', '.h', '.s']);

/** The test project a saved file belongs to (the build reads a project's own folder, not below), if any. */
export function projectOfSource(projects: readonly string[], file: string): string | undefined {
  if (!BUILD_INPUT.has(extname(file).toLowerCase())) return undefined;
  const dir = resolve(dirname(file));
  return projects.find((p) => resolve(p) === dir);
}

/** Builds the project (or reuses its build) and lists its tests with absolute file names. */
export async function discoverProjectTests(dir: string): Promise<ExplorerTest[]> {
  const built = await prepareTests(dir);
  const program = await loadTestProgram(built.program, built.debugInfo);
  return program.suite.tests.map((t) => ({
    name: t.name,
    file: t.file === undefined ? undefined : absolute(built.sourceRoot, t.file),
    line: t.line,
  }));
}

/** What the Debug profile launches for one test: the build, its machine, and where to write the test's address. */
export interface DebugTarget {
  launch: { machine: string; emulator: 'builtin' | 'mame'; program: string; debugInfo: string; cwd: string };
  /** the test function */
  testAddress: number;
  functionName: string;
  /** retro_test_only: main runs the function written here instead of the runner's loop */
  onlyAddress: number;
}

const EMULATOR: Record<TestLayout, DebugTarget['launch']['emulator']> = {
  c64: 'builtin',
  spectrum: 'mame',
  sprinter: 'mame',
};

export async function debugTarget(dir: string, testName: string): Promise<DebugTarget> {
  const built = await prepareTests(dir);
  const program = await loadTestProgram(built.program, built.debugInfo);
  const test = program.suite.tests.find((t) => t.name === testName);
  if (!test) throw unsupported(`${built.program} has no test ${testName}.`);
  const only = program.suite.harness?.only;
  if (only === undefined)
    throw unsupported(
      `${built.program} has no retro_test_only: debugging one test needs this extension's retro_test.h with ` +
        'RETRO_TEST_MAIN defined in one file.',
    );
  return {
    launch: {
      machine: built.layout,
      emulator: EMULATOR[built.layout],
      program: built.program,
      debugInfo: built.debugInfo,
      cwd: dir,
    },
    testAddress: test.address,
    functionName: test.functionName,
    onlyAddress: only,
  };
}

export function outcomeOf(r: TestResult, sourceRoot: string): ExplorerOutcome {
  const cycles =
    r.cycles === undefined ? undefined : `${r.cycles} cycles${r.budget === undefined ? '' : ` (budget ${r.budget})`}`;
  if (r.status === 'passed') return { state: 'passed', cycles };
  const at = r.failure ?? (r.file && r.line ? { file: r.file, line: r.line } : undefined);
  const stack = (r.stack ?? []).map((f) => `\n  at ${f}`).join('');
  return {
    state: r.status === 'failed' ? 'failed' : 'errored',
    message: `${r.message ?? r.status}${stack}`,
    location: at && { file: absolute(sourceRoot, at.file), line: at.line },
    cycles,
  };
}

/** Statement coverage per source file (absolute names), for VS Code's coverage API. */
export function explorerCoverage(files: readonly FileCoverage[], sourceRoot: string): FileCoverage[] {
  return files.map((f) => ({ ...f, file: absolute(sourceRoot, f.file) }));
}

function absolute(root: string, file: string): string {
  return isAbsolute(file) ? file : resolve(root, file);
}
