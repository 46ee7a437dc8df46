/**
 * Builds the ZX Spectrum fixture ROM (test/fixtures/zx) with the real SDCC
 * toolchain at test time. The output lives in .test-work/zx-fixture/<hash>/,
 * keyed by a hash of the sources, so it is rebuilt only when they change; each
 * build happens in a private temp dir that is renamed into place, so two test
 * files building at once cannot see a half-written fixture.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildOnce, findMarkers } from './source-build.js';
import { sdccLinkLayout } from '../../src/machines/sdcc-layout.js';

const run = promisify(execFile);

export const REPO_ROOT = resolve(__dirname, '..', '..');
const SOURCE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'zx');
const OUT_ROOT = join(REPO_ROOT, '.test-work', 'zx-fixture');
const C_FILES = ['main.c', 'util.c', 'keys.c'];
const ROM_SIZE = 16384;

export interface ZxFixture {
  /** folder holding the sources, the .cdb, .map and spectrum.rom */
  dir: string;
  /** 16384-byte ROM image */
  rom: string;
  /** SDCC debug info, beside the rom */
  cdb: string;
  /** absolute paths of the C sources (copied into dir, as the .cdb names them) */
  sources: string[];
  /** `/* LINE:name *\/` markers found in the C sources, 1-based lines */
  markers: Record<string, { file: string; line: number }>;
}

export async function buildZxFixture(): Promise<ZxFixture> {
  const names = (await readdir(SOURCE_DIR)).filter((n) => /\.(c|h|s)$/.test(n)).sort();
  const dir = await buildOnce(SOURCE_DIR, names, OUT_ROOT, 'spectrum.rom', async (tmp) => {
    const opts = { cwd: tmp, timeout: 60_000 };
    await run('sdasz80', ['-l', '-o', 'crt0.rel', 'crt0.s'], opts);
    for (const c of C_FILES) await run('sdcc', ['-mz80', '--debug', '-c', c], opts);
    const link = ['-mz80', '--debug', ...sdccLinkLayout('spectrum'), '--no-std-crt0'];
    const rels = C_FILES.map((c) => c.replace(/\.c$/, '.rel'));
    await run('sdcc', [...link, '-o', 'spectrum.ihx', 'crt0.rel', ...rels], opts);
    await run('makebin', ['-s', String(ROM_SIZE), 'spectrum.ihx', 'spectrum.rom'], opts);
    const rom = await readFile(join(tmp, 'spectrum.rom'));
    if (rom.length !== ROM_SIZE) throw new Error(`fixture ROM is ${rom.length} bytes, expected ${ROM_SIZE}`);
  });
  const sources = C_FILES.map((n) => join(dir, n));
  return {
    dir,
    rom: join(dir, 'spectrum.rom'),
    cdb: join(dir, 'spectrum.cdb'),
    sources,
    markers: await findMarkers(sources),
  };
}

/** A code-server workspace for the fixture: its sources, ROM and debug info, and a launch.json running it in MAME. */
export function writeZxWorkspace(fx: ZxFixture, ws: string, mamePath = '/usr/games/mame'): void {
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  for (const name of readdirSync(fx.dir))
    if (!statSync(join(fx.dir, name)).isDirectory()) copyFileSync(join(fx.dir, name), join(ws, name));
  const launch = {
    version: '0.2.0',
    configurations: [
      {
        type: 'retro',
        request: 'launch',
        name: 'ZX fixture in MAME',
        machine: 'spectrum',
        emulator: 'mame',
        program: '${workspaceFolder}/spectrum.rom',
        debugInfo: '${workspaceFolder}/spectrum.cdb',
        cwd: '${workspaceFolder}',
        mamePath,
        stopOnEntry: false,
      },
    ],
  };
  writeFileSync(join(ws, '.vscode', 'launch.json'), JSON.stringify(launch, null, 2));
}
