/**
 * Builds the Sprinter test program (test/fixtures/sprinter/main.c with the demo's start-up code) with the real SDCC at test time into a DSS .EXE
 * (512-byte header: load = start = 0x8100, stack 0xBFFF; the code from the linker's Intel HEX) with its .cdb, in
 * .test-work/sprinter-fixture/<hash of the sources>/.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildOnce, findMarkers } from './source-build.js';
import { DEFAULT_EXE_STACK, exeFromIntelHex } from '../../src/machines/sprinter/exe-header.js';
import { OPEN_ROM_FILE, openRomImage, type StagedExe } from '../../src/machines/sprinter/open-rom.js';
import { mameForMachine } from '../../src/connectors/mame/mame-finder.js';
import { sdccLinkLayout } from '../../src/machines/sdcc-layout.js';

const run = promisify(execFile);
const REPO_ROOT = resolve(__dirname, '..', '..');
// the program is the fixture's; start-up code and the DSS console calls are the Sprinter demo's (what users copy)
const SOURCES = [
  'test/fixtures/sprinter/main.c',
  'examples/sprinter-demo/crt0.s',
  'examples/sprinter-demo/dss.c',
  'examples/sprinter-demo/dss.h',
];
const OUT_ROOT = join(REPO_ROOT, '.test-work', 'sprinter-fixture');
const C_FILES = ['main.c', 'dss.c'];
export const SPRINTER_LOAD = 0x8100;
export const SPRINTER_STACK = DEFAULT_EXE_STACK;

export interface SprinterFixture {
  dir: string;
  exe: string;
  cdb: string;
  sources: string[];
  markers: Record<string, { file: string; line: number }>;
}

export async function buildSprinterFixture(): Promise<SprinterFixture> {
  const dir = await buildOnce(REPO_ROOT, SOURCES, OUT_ROOT, 'HELLO.EXE', async (tmp) => {
    const opts = { cwd: tmp, timeout: 60_000 };
    await run('sdasz80', ['-l', '-o', 'crt0.rel', 'crt0.s'], opts);
    for (const c of C_FILES) await run('sdcc', ['-mz80', '--debug', '-c', c], opts);
    const rels = C_FILES.map((c) => c.replace(/\.c$/, '.rel'));
    const link = ['-mz80', '--debug', ...sdccLinkLayout('sprinter'), '--no-std-crt0'];
    await run('sdcc', [...link, '-o', 'HELLO.ihx', 'crt0.rel', ...rels], opts);
    await writeFile(
      join(tmp, 'HELLO.EXE'),
      exeFromIntelHex(await readFile(join(tmp, 'HELLO.ihx'), 'utf8'), 'HELLO.ihx'),
    );
  });
  const sources = C_FILES.map((n) => join(dir, n));
  return {
    dir,
    exe: join(dir, 'HELLO.EXE'),
    cdb: join(dir, 'HELLO.cdb'),
    sources,
    markers: await findMarkers(sources),
  };
}

/**
 * A rompath folder standing in for a user's own Sprinter BIOS (none may be shipped): the open ROM as MAME's BIOS
 * file, carrying `exe` or no program, beside zero-filled copies of every other ROM the driver lists. The caller
 * removes the folder.
 */
export async function ownBiosFolder(prefix: string, exe?: StagedExe): Promise<string> {
  const rompath = await mkdtemp(join(tmpdir(), prefix));
  const pages = await Promise.all(
    ['boot', 'bios'].map((p) => readFile(join(REPO_ROOT, 'dist', 'sprinter-rom', `${p}.bin`))),
  );
  await mkdir(join(rompath, 'sprinter'));
  await writeFile(join(rompath, 'sprinter', OPEN_ROM_FILE), openRomImage(pages[0], pages[1], exe));
  const mame = await mameForMachine({ machine: 'sprinter' });
  const { stdout } = await run(mame, ['-listroms', 'sprinter']);
  for (const m of stdout.matchAll(/^(\S+\.(?:rom|bin))\s+(\d+)/gm))
    if (m[1] !== OPEN_ROM_FILE) await writeFile(join(rompath, 'sprinter', m[1]), new Uint8Array(Number(m[2])));
  return rompath;
}
