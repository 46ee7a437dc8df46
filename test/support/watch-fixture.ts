/**
 * The watch fixture (test/fixtures/watch/lives.c: an off-by-one that writes
 * scores[8], which is lives), built once per content for both machines: cc65
 * for the C64 (program.prg + .dbg) and SDCC for the ZX Spectrum ROM (with the
 * ZX fixture's start-up code).
 */
import { execFile } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildCc65Program, REPO_ROOT } from './c64-fixture.js';
import { buildOnce, findMarkers } from './source-build.js';
import { sdccLinkLayout } from '../../src/machines/sdcc-layout.js';

const run = promisify(execFile);
const SOURCE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'watch');
const CRT0 = join(REPO_ROOT, 'test', 'fixtures', 'zx', 'crt0.s');

export interface WatchFixture {
  /** the program: a .prg (C64) or a 16 KiB ROM (ZX) */
  program: string;
  /** its debug info beside it */
  debugInfo: string;
  source: string;
  markers: Record<string, { file: string; line: number }>;
}

export async function buildWatchC64(): Promise<WatchFixture> {
  const dir = await buildCc65Program(SOURCE_DIR, ['lives.c']);
  const source = join(dir, 'lives.c');
  return {
    program: join(dir, 'program.prg'),
    debugInfo: join(dir, 'program.dbg'),
    source,
    markers: await findMarkers([source]),
  };
}

export async function buildWatchZx(): Promise<WatchFixture> {
  const out = join(REPO_ROOT, '.test-work', 'watch-zx');
  const dir = await buildOnce(SOURCE_DIR, ['lives.c'], out, 'spectrum.rom', async (tmp) => {
    const opts = { cwd: tmp, timeout: 60_000 };
    await copyFile(CRT0, join(tmp, 'crt0.s'));
    await run('sdasz80', ['-l', '-o', 'crt0.rel', 'crt0.s'], opts);
    await run('sdcc', ['-mz80', '--debug', '-c', 'lives.c'], opts);
    const link = ['-mz80', '--debug', ...sdccLinkLayout('spectrum'), '--no-std-crt0'];
    await run('sdcc', [...link, '-o', 'spectrum.ihx', 'crt0.rel', 'lives.rel'], opts);
    await run('makebin', ['-s', '16384', 'spectrum.ihx', 'spectrum.rom'], opts);
  });
  const source = join(dir, 'lives.c');
  return {
    program: join(dir, 'spectrum.rom'),
    debugInfo: join(dir, 'spectrum.cdb'),
    source,
    markers: await findMarkers([source]),
  };
}
