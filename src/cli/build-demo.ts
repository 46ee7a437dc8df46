/**
 * Builds a bundled SDCC demo into a fresh folder: examples/zx-demo as a 16 KiB
 * ROM for MAME's spectrum driver, or examples/sprinter-demo as a DSS .EXE for
 * the sprinter driver, each with its .cdb debug info. The build runs in a temp
 * folder that is renamed into place, so a half-built demo is never left behind.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RetroError, notFound, launchFailed, fileExists, internalError } from '../core/errors.js';
import { findUp } from '../core/find-up.js';
import { exeFromIntelHex } from '../machines/sprinter/exe-header.js';
import { sdccLinkLayout, ZX_ROM_SIZE, type SdccMachine } from '../machines/sdcc-layout.js';

const run = promisify(execFile);
const opts = (cwd: string) => ({ cwd, timeout: 60_000 });

/** Each demo's folder under examples/, its files, and the program the session loads (a ROM, a DSS .EXE). */
const DEMOS: Record<SdccMachine, { folder: string; sources: string[]; program: string }> = {
  spectrum: { folder: 'zx-demo', sources: ['demo.c', 'crt0.s'], program: 'demo.rom' },
  sprinter: { folder: 'sprinter-demo', sources: ['demo.c', 'dss.c', 'dss.h', 'crt0.s'], program: 'DEMO.EXE' },
};

/** crt0, the C files, the machine's link layout; then the ROM padded for the Spectrum, the .EXE for the Sprinter. */
async function buildIn(tmp: string, machine: SdccMachine): Promise<void> {
  const c = DEMOS[machine].sources.filter((n) => n.endsWith('.c'));
  const sdcc = (args: string[]) => run('sdcc', ['-mz80', '--debug', ...args], opts(tmp));
  await run('sdasz80', ['-l', '-o', 'crt0.rel', 'crt0.s'], opts(tmp));
  for (const f of c) await sdcc(['-c', f]);
  const rels = c.map((f) => f.replace(/\.c$/, '.rel'));
  await sdcc([...sdccLinkLayout(machine), '--no-std-crt0', '-o', 'demo.ihx', 'crt0.rel', ...rels]);
  if (machine === 'spectrum') await run('makebin', ['-s', String(ZX_ROM_SIZE), 'demo.ihx', 'demo.rom'], opts(tmp));
  else
    await writeFile(join(tmp, 'DEMO.EXE'), exeFromIntelHex(await readFile(join(tmp, 'demo.ihx'), 'utf8'), 'demo.ihx'));
}

export const isSdccDemoMachine = (m: string): m is SdccMachine => m in DEMOS;

export interface DemoBuild {
  dir: string;
  /** the program a session loads (a ROM, a DSS .EXE) */
  program: string;
  cdb: string;
  source: string;
  /** the line of the `DEMO:paint` marker in demo.c */
  paintLine: number;
}

/** examples/FOLDER beside the bundle (dist/../examples) or the sources (src/cli/../../examples). */
export function findDemoSources(folder = 'zx-demo', from = __dirname): string {
  const found = findUp(from, join('examples', folder), 'demo.c');
  if (!found) throw notFound(`The bundled demo sources (examples/${folder}) were not found above ${from}.`);
  return found;
}

/** Throws launch_failed naming the tool when SDCC's tools are not installed. */
export async function checkSdcc(): Promise<void> {
  for (const tool of ['sdcc', 'sdasz80', 'makebin']) {
    try {
      await run(tool, tool === 'sdcc' ? ['--version'] : ['-h'], { timeout: 10_000 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw launchFailed(
          `"${tool}" was not found on PATH: install SDCC (e.g. apt-get install sdcc) to build the demo.`,
        );
      }
      // makebin/sdasz80 exit non-zero for -h; being runnable is what matters
    }
  }
}

export async function buildDemo(
  outDir: string,
  overwrite: boolean,
  machine: SdccMachine = 'spectrum',
): Promise<DemoBuild> {
  const demo = DEMOS[machine];
  const src = findDemoSources(demo.folder);
  const dir = join(outDir, 'build');
  if (existsSync(dir) && !overwrite) {
    throw fileExists(`${dir} already exists; use --overwrite or another --out folder.`, {
      path: dir,
    });
  }
  await mkdir(outDir, { recursive: true });
  const tmp = join(outDir, `.build-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp);
  try {
    for (const name of demo.sources) await copyFile(join(src, name), join(tmp, name));
    await buildIn(tmp, machine);
    if (overwrite) await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  } catch (err) {
    if (err instanceof RetroError) throw err;
    const e = err as { stderr?: string; message: string };
    throw launchFailed(`Building the demo failed: ${(e.stderr || e.message).trim().slice(0, 2000)}`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const source = join(dir, 'demo.c');
  const lines = (await readFile(source, 'utf8')).split('\n');
  const paintLine = lines.findIndex((l) => /\/\*\s*DEMO:paint\s*\*\//.test(l)) + 1;
  if (paintLine === 0) throw internalError('demo.c has no DEMO:paint marker.');
  return { dir, program: join(dir, demo.program), cdb: join(dir, 'demo.cdb'), source, paintLine };
}
