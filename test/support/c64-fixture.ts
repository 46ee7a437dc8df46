/**
 * Builds the C64 fixture program (test/fixtures/c64/prog) with the real cc65
 * toolchain (Debian package cc65) at test time, into
 * .test-work/c64-fixture/<hash of the sources>/ — rebuilt only when they
 * change, built in a private temp dir renamed into place.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const REPO_ROOT = resolve(__dirname, '..', '..');
const SOURCE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'prog');
const OUT_ROOT = join(REPO_ROOT, '.test-work', 'c64-fixture');
const C_FILES = ['main.c', 'util.c'];

export interface C64Fixture {
  dir: string;
  prg: string;
  dbg: string;
  sources: string[];
  /** `/* LINE:name *\/` markers, 1-based lines */
  markers: Record<string, { file: string; line: number }>;
}

export async function buildC64Fixture(): Promise<C64Fixture> {
  const dir = await buildCc65Program(SOURCE_DIR, C_FILES);
  const sources = C_FILES.map((n) => join(dir, n));
  return {
    dir,
    prg: join(dir, 'program.prg'),
    dbg: join(dir, 'program.dbg'),
    sources,
    markers: await findMarkers(sources),
  };
}

/** Compiles C sources in `dir` into `out` (.prg) with `out` .dbg beside it. */
export async function cl65(dir: string, sources: string[], out: string, optimise = '-O'): Promise<void> {
  await run(
    'cl65',
    ['-t', 'c64', '-g', optimise, '-Wl', `--dbgfile,${out.replace(/\.prg$/, '.dbg')}`, '-o', out, ...sources],
    { cwd: dir, timeout: 60_000 },
  );
}

/**
 * Builds the C (and assembler) files of `sourceDir` (with its headers) into
 * .test-work/c64-fixture/<hash of the sources>/program.prg (+ .dbg), once
 * per content; returns that folder.
 */
export async function buildCc65Program(sourceDir: string, cFiles: string[], optimise = '-O'): Promise<string> {
  const names = (await readdir(sourceDir)).filter((n) => /\.(c|h|s)$/.test(n)).sort();
  const hash = createHash('sha256');
  for (const name of names)
    hash
      .update(name)
      .update('\0')
      .update(await readFile(join(sourceDir, name)));
  hash.update(cFiles.join('\0')).update(optimise);
  const dir = join(OUT_ROOT, hash.digest('hex').slice(0, 16));
  if (!existsSync(join(dir, 'program.prg'))) await buildInto(sourceDir, dir, names, cFiles, optimise);
  return dir;
}

async function buildInto(
  sourceDir: string,
  dir: string,
  names: string[],
  cFiles: string[],
  optimise: string,
): Promise<void> {
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true });
  try {
    for (const name of names) await copyFile(join(sourceDir, name), join(tmp, name));
    await cl65(tmp, cFiles, 'program.prg', optimise);
    try {
      await rename(tmp, dir);
    } catch (err) {
      if (!existsSync(join(dir, 'program.prg'))) throw err; // another process won the race
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export async function findMarkers(files: string[]): Promise<C64Fixture['markers']> {
  const markers: C64Fixture['markers'] = {};
  for (const file of files) {
    (await readFile(file, 'utf8')).split('\n').forEach((text, i) => {
      const m = /LINE:(\w+)/.exec(text);
      if (m) markers[m[1]] = { file, line: i + 1 };
    });
  }
  return markers;
}
