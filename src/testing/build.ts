/**
 * Turns what the user names (a project folder or a built program) into a
 * program and its debug info. A folder is built with its toolchain into
 * `build/` beside the sources, with retro_test.h on the include path, and
 * reused while no source (nor the header) is newer than the build.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { findUp } from '../core/find-up.js';
import { badRequest, launchFailed, notFound } from '../core/errors.js';
import { crt0Origin, sdccLinkLayout, sdccMachineFor, ZX_ROM_SIZE, type SdccMachine } from '../machines/sdcc-layout.js';
import { exeFromIntelHex } from '../machines/sprinter/exe-header.js';

const run = promisify(execFile);
const OUT = 'build';
const STEM = 'tests';
const PROGRAM_EXT: Record<TestLayout, string> = { c64: 'prg', spectrum: 'rom', sprinter: 'exe' };

export type TestToolchain = 'cc65' | 'sdcc';
/** the machine a build is laid out for: cc65 programs for the C64, SDCC ones as a ZX ROM or a Sprinter DSS .EXE */
export type TestLayout = 'c64' | SdccMachine;

export interface BuiltTests {
  program: string;
  debugInfo: string;
  toolchain: TestToolchain;
  layout: TestLayout;
  /** the folder the debug info's relative source names are relative to */
  sourceRoot: string;
  /** false when an earlier build was up to date */
  built: boolean;
}

/** data/retro_test.h beside the bundle (dist/../data) or the sources (src/testing/../../data). */
export function headerFolder(from = __dirname): string {
  const found = findUp(from, 'data', 'retro_test.h');
  if (!found) throw notFound(`retro_test.h (data/) was not found above ${from}.`);
  return found;
}

export async function prepareTests(target: string): Promise<BuiltTests> {
  const path = resolve(target);
  const info = await stat(path).catch(() => undefined);
  if (!info) throw notFound(`${path} does not exist: name a project folder or a built program (.prg, .rom, .exe).`);
  if (info.isDirectory()) return buildFolder(path);
  const ext = extname(path).toLowerCase();
  const toolchain: TestToolchain = ext === '.prg' ? 'cc65' : 'sdcc';
  const layout: TestLayout = ext === '.prg' ? 'c64' : ext === '.exe' ? 'sprinter' : 'spectrum';
  const debugInfo = join(dirname(path), basename(path, extname(path)) + (toolchain === 'cc65' ? '.dbg' : '.cdb'));
  if (!existsSync(debugInfo))
    throw notFound(`${debugInfo} is missing: the runner finds the tests in the debug info (build with -g / --debug).`);
  return { program: path, debugInfo, toolchain, layout, sourceRoot: dirname(path), built: false };
}

async function buildFolder(dir: string): Promise<BuiltTests> {
  const names = await readdir(dir);
  const c = names.filter((n) => n.endsWith('.c')).sort();
  if (!c.length) throw badRequest(`${dir} has no .c files to build.`);
  const crt0 = names.find((n) => /^crt0.*\.s$/i.test(n));
  const toolchain: TestToolchain = crt0 ? 'sdcc' : 'cc65';
  const origin = crt0 ? crt0Origin(await readFile(join(dir, crt0), 'utf8')) : 0;
  const layout: TestLayout = crt0 ? sdccMachineFor(origin) : 'c64';
  const out = join(dir, OUT);
  const program = join(out, `${STEM}.${PROGRAM_EXT[layout]}`);
  const debugInfo = join(out, `${STEM}.${toolchain === 'cc65' ? 'dbg' : 'cdb'}`);
  const header = headerFolder();
  const inputs = [...names.filter((n) => /\.(c|h|s)$/.test(n)).map((n) => join(dir, n)), join(header, 'retro_test.h')];
  const result = { program, debugInfo, toolchain, layout, sourceRoot: dir };
  if (await upToDate([program, debugInfo], inputs)) return { ...result, built: false };
  await mkdir(out, { recursive: true });
  try {
    if (toolchain === 'cc65') await cc65(dir, c, header, program, debugInfo);
    else await sdcc(dir, c, crt0 as string, header, layout as SdccMachine, origin);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw launchFailed(`the ${toolchain} toolchain is not installed (apt-get install ${toolchain}).`);
    throw badRequest(`the build failed:\n${(e.stderr ?? e.message).trim()}`);
  }
  return { ...result, built: true };
}

async function upToDate(outputs: string[], inputs: string[]): Promise<boolean> {
  const times = async (files: string[]) =>
    Promise.all(
      files.map((f) =>
        stat(f).then(
          (s) => s.mtimeMs,
          () => NaN,
        ),
      ),
    );
  const built = await times(outputs);
  if (built.some((t) => Number.isNaN(t))) return false;
  return Math.max(...(await times(inputs)).filter((t) => !Number.isNaN(t))) <= Math.min(...built);
}

async function cc65(dir: string, c: string[], header: string, program: string, debugInfo: string): Promise<void> {
  // objects go to build/ (cl65 writes them beside the sources otherwise)
  const objects = c.map((f) => join(OUT, basename(f, '.c') + '.o'));
  const opts = { cwd: dir, timeout: 120_000 };
  for (const [i, f] of c.entries())
    await run('cl65', ['-t', 'c64', '-g', '-O', '-I', header, '-c', '-o', objects[i], f], opts);
  const labels = debugInfo.replace(/\.dbg$/, '.lbl'); // the runtime's names for a failing test's stack
  await run(
    'cl65',
    ['-t', 'c64', '-g', '-Wl', `--dbgfile,${debugInfo}`, '-Ln', labels, '-o', program, ...objects],
    opts,
  );
}

/** One SDCC link layout (sdcc-layout.ts): a 16 KiB ROM for MAME's spectrum, or a DSS .EXE for the Sprinter. */
async function sdcc(
  dir: string,
  c: string[],
  crt0: string,
  header: string,
  layout: SdccMachine,
  origin: number,
): Promise<void> {
  const opts = { cwd: dir, timeout: 120_000 };
  await run('sdasz80', ['-l', '-o', join(OUT, 'crt0.rel'), crt0], opts);
  for (const f of c) await run('sdcc', ['-mz80', '--debug', '-I', header, '-c', '-o', `${OUT}/`, f], opts);
  const rels = c.map((f) => join(OUT, basename(f, '.c') + '.rel'));
  const link = ['-mz80', '--debug', ...sdccLinkLayout(layout, origin), '--no-std-crt0'];
  const ihx = join(dir, OUT, `${STEM}.ihx`);
  await run('sdcc', [...link, '-o', ihx, join(OUT, 'crt0.rel'), ...rels], opts);
  const program = join(dir, OUT, `${STEM}.${PROGRAM_EXT[layout]}`);
  if (layout === 'sprinter') await writeFile(program, exeFromIntelHex(await readFile(ihx, 'latin1'), ihx));
  else await run('makebin', ['-s', String(ZX_ROM_SIZE), ihx, program], opts);
}
