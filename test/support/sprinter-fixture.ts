/**
 * Builds the Sprinter test program (test/fixtures/sprinter) with the real SDCC at test time into a DSS .EXE
 * (512-byte header: load = start = 0x8100, stack 0xBFFF; the code from the linker's Intel HEX) with its .cdb, in
 * .test-work/sprinter-fixture/<hash of the sources>/.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildOnce, findMarkers } from './source-build.js';

const run = promisify(execFile);
const REPO_ROOT = resolve(__dirname, '..', '..');
const SOURCE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'sprinter');
const OUT_ROOT = join(REPO_ROOT, '.test-work', 'sprinter-fixture');
const C_FILES = ['main.c', 'dss.c'];
export const SPRINTER_LOAD = 0x8100;
export const SPRINTER_STACK = 0xbfff;

export interface SprinterFixture {
  dir: string;
  exe: string;
  cdb: string;
  sources: string[];
  markers: Record<string, { file: string; line: number }>;
}

/** Intel HEX data records from `from` to the highest address written. */
export function ihxImage(text: string, from: number): Uint8Array {
  const memory = new Uint8Array(0x10000);
  let end = from;
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith(':') || line.slice(7, 9) !== '00') continue;
    const count = parseInt(line.slice(1, 3), 16);
    const at = parseInt(line.slice(3, 7), 16);
    for (let i = 0; i < count; i++) memory[at + i] = parseInt(line.slice(9 + 2 * i, 11 + 2 * i), 16);
    if (at >= from) end = Math.max(end, at + count);
  }
  return memory.subarray(from, end);
}

/** A DSS .EXE: "EXE", version 0, code at file offset 512, load/start/stack. */
export function exeFile(code: Uint8Array, load: number, start: number, stack: number): Buffer {
  const header = Buffer.alloc(512);
  header.write('EXE', 0, 'latin1');
  header.writeUInt32LE(512, 4);
  header.writeUInt16LE(load, 0x10);
  header.writeUInt16LE(start, 0x12);
  header.writeUInt16LE(stack, 0x14);
  return Buffer.concat([header, code]);
}

export async function buildSprinterFixture(): Promise<SprinterFixture> {
  const names = (await readdir(SOURCE_DIR)).sort();
  const dir = await buildOnce(SOURCE_DIR, names, OUT_ROOT, 'HELLO.EXE', async (tmp) => {
    const opts = { cwd: tmp, timeout: 60_000 };
    await run('sdasz80', ['-l', '-o', 'crt0.rel', 'crt0.s'], opts);
    for (const c of C_FILES) await run('sdcc', ['-mz80', '--debug', '-c', c], opts);
    const rels = C_FILES.map((c) => c.replace(/\.c$/, '.rel'));
    const link = ['-mz80', '--debug', '--code-loc', '0x8120', '--data-loc', '0xA000', '--no-std-crt0'];
    await run('sdcc', [...link, '-o', 'HELLO.ihx', 'crt0.rel', ...rels], opts);
    const code = ihxImage(await readFile(join(tmp, 'HELLO.ihx'), 'utf8'), SPRINTER_LOAD);
    await writeFile(join(tmp, 'HELLO.EXE'), exeFile(code, SPRINTER_LOAD, SPRINTER_LOAD, SPRINTER_STACK));
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
