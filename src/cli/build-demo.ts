/**
 * Builds the bundled demo (examples/zx-demo) with SDCC into a fresh folder:
 * a 16 KiB ROM for MAME's spectrum driver plus its .cdb debug info. The build
 * runs in a temp folder that is renamed into place, so a half-built demo is
 * never left behind.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RetroError, notFound, launchFailed, fileExists, internalError } from '../core/errors.js';
import { findUp } from '../core/find-up.js';

const run = promisify(execFile);
const ROM_SIZE = 16384;
const SOURCES = ['demo.c', 'crt0.s'];

export interface DemoBuild {
  dir: string;
  rom: string;
  cdb: string;
  source: string;
  /** the line of the `DEMO:paint` marker in demo.c */
  paintLine: number;
}

/** examples/zx-demo beside the bundle (dist/../examples) or the sources (src/cli/../../examples). */
export function findDemoSources(from = __dirname): string {
  const found = findUp(from, join('examples', 'zx-demo'), 'demo.c');
  if (!found) throw notFound(`The bundled demo sources (examples/zx-demo) were not found above ${from}.`);
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

export async function buildDemo(outDir: string, overwrite: boolean): Promise<DemoBuild> {
  const src = findDemoSources();
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
    for (const name of SOURCES) await copyFile(join(src, name), join(tmp, name));
    const opts = { cwd: tmp, timeout: 60_000 };
    await run('sdasz80', ['-l', '-o', 'crt0.rel', 'crt0.s'], opts);
    await run('sdcc', ['-mz80', '--debug', '-c', 'demo.c'], opts);
    await run(
      'sdcc',
      [
        '-mz80',
        '--debug',
        '--code-loc',
        '0x100',
        '--data-loc',
        '0x8000',
        '--no-std-crt0',
        '-o',
        'demo.ihx',
        'crt0.rel',
        'demo.rel',
      ],
      opts,
    );
    await run('makebin', ['-s', String(ROM_SIZE), 'demo.ihx', 'demo.rom'], opts);
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
  return { dir, rom: join(dir, 'demo.rom'), cdb: join(dir, 'demo.cdb'), source, paintLine };
}
