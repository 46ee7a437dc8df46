/**
 * Diagnostics from the toolchains themselves: a saved file is compiled or assembled on
 * its own into a temp folder (ca65, sdasz80, nasm; cc65 or sdcc for C) and the tool's
 * messages, read with the problem matchers' expressions, become the file's diagnostics.
 * nasm runs in the temp folder (the source by its full path, its folder on the include
 * path): a `[map …]` directive writes relative to the current folder, and the check must
 * leave nothing in the user's.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { headerFolder } from '../testing/build.js';
import type { AsmDialect } from './asm-dialect.js';
import type { Machine } from './hardware-lookup.js';
import { parseToolchainOutput, TOOLCHAIN_FORMATS, type ToolchainMessage } from './toolchain-messages.js';

const CHECK_TIMEOUT_MS = 30_000;

interface CheckCommand {
  tool: string;
  /** `file`: the source's name, in `srcDir`, the folder the tool runs in unless `runInOutDir` */
  args: (file: string, outDir: string, srcDir: string) => string[];
  format: string;
  /** run in the temp folder: the tool writes files of its own choosing relative to the current folder */
  runInOutDir?: boolean;
}

/** ACME and 64tass are not checked alone: an included file is no program of its own (their build tasks report). */
const ASM_CHECKS: Partial<Record<AsmDialect, CheckCommand>> = {
  ca65: { tool: 'ca65', args: (f, o) => ['-t', 'c64', '-o', join(o, 'check.o'), f], format: 'retro-cc65' },
  sdas: { tool: 'sdasz80', args: (f, o) => ['-o', join(o, 'check.rel'), f], format: 'retro-sdcc' },
  nasm: {
    tool: 'nasm',
    args: (f, o, src) => ['-f', 'bin', '-I', `${src}/`, '-o', join(o, 'check.bin'), join(src, f)],
    format: 'retro-nasm',
    runInOutDir: true,
  },
};

/** retro_test.h's folder on the include path, as the test builds have it: a test file's checks see what its build does */
function testHeaderInclude(): string[] {
  try {
    return ['-I', headerFolder()];
  } catch {
    return []; // no data/ beside this bundle: the check goes on without it
  }
}

const C_CHECKS: Partial<Record<Machine, CheckCommand>> = {
  c64: {
    tool: 'cc65',
    args: (f, o) => ['-t', 'c64', ...testHeaderInclude(), '-o', join(o, 'check.s'), f],
    format: 'retro-cc65',
  },
  zx: { tool: 'sdcc', args: (f, o) => ['-mz80', ...testHeaderInclude(), '-c', '-o', `${o}/`, f], format: 'retro-sdcc' },
  sprinter: {
    tool: 'sdcc',
    args: (f, o) => ['-mz80', ...testHeaderInclude(), '-c', '-o', `${o}/`, f],
    format: 'retro-sdcc',
  },
};

export type CheckResult = { messages: ToolchainMessage[] } | { skipped: string };

/** What would check `path`: an assembler dialect, or C for the first machine that has a compiler here. */
export function checkCommandFor(
  path: string,
  dialect: AsmDialect | undefined,
  machines: Machine[],
): CheckCommand | undefined {
  if (dialect) return extname(path).toLowerCase() === '.inc' ? undefined : ASM_CHECKS[dialect];
  if (extname(path).toLowerCase() !== '.c') return undefined;
  return machines.map((m) => C_CHECKS[m]).find(Boolean);
}

/** Runs the check; only messages about `path` itself are kept. */
export async function checkFile(path: string, command: CheckCommand): Promise<CheckResult> {
  const outDir = await mkdtemp(join(tmpdir(), 'retro-lsp-check-'));
  const srcDir = dirname(path);
  const cwd = command.runInOutDir ? outDir : srcDir;
  try {
    const output = await new Promise<string | undefined>((done) => {
      execFile(
        command.tool,
        command.args(basename(path), outDir, srcDir),
        { cwd, timeout: CHECK_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
        (err, stdout, stderr) =>
          done((err as NodeJS.ErrnoException | null)?.code === 'ENOENT' ? undefined : `${stdout}\n${stderr}`),
      );
    });
    if (output === undefined) return { skipped: `"${command.tool}" is not on PATH` };
    const formats = TOOLCHAIN_FORMATS.filter((f) => f.name === command.format);
    return { messages: parseToolchainOutput(output, formats).filter((m) => resolve(cwd, m.file) === path) };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
