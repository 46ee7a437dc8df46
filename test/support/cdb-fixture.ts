/**
 * Builds test/fixtures/cdb/ with the real SDCC toolchain (sdcc -mz80 --debug,
 * sdasz80, sdld via sdcc, makebin) into .test-work/cdb-fixture/<hash>/, and reads
 * back the toolchain's own outputs (.asm, .rst, .noi, binary image) that the
 * tests use as independent facts.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnceSync } from './source-build.js';

export const FIXTURE_SRC = resolve('test/fixtures/cdb');
export const FIXTURE_OUT = resolve('.test-work/cdb-fixture');
export const MODULES = ['main', 'helper', 'shapes'] as const;

export interface CdbFixture {
  dir: string;
  cdbPath: string;
  cdb: string;
  /** compiler output per module */
  asm: Record<string, string>;
  /** listing relocated by the linker per module */
  rst: Record<string, string>;
  /** linker symbol table: name → address */
  noi: Map<string, number>;
  /** 64 KB image of the linked program */
  image: Uint8Array;
}

let built: CdbFixture | undefined;

export function buildCdbFixture(): CdbFixture {
  if (built) return built;
  // named by the sources' hash and renamed into place whole: test files that run at once share it safely
  const dir = buildOnceSync(FIXTURE_SRC, readdirSync(FIXTURE_SRC), FIXTURE_OUT, 'prog.bin', (tmp) => {
    const run = (cmd: string, args: string[]) =>
      execFileSync(cmd, args, { cwd: tmp, timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    run('sdasz80', ['-plosgff', 'crt0.rel', 'crt0.s']);
    for (const m of MODULES) run('sdcc', ['-mz80', '--debug', '-c', `${m}.c`]);
    run('sdcc', [
      '-mz80',
      '--debug',
      '--code-loc',
      '0x100',
      '--data-loc',
      '0x8000',
      '--no-std-crt0',
      '-Wl-u',
      '-o',
      'prog.ihx',
      'crt0.rel',
      ...MODULES.map((m) => `${m}.rel`),
    ]);
    run('makebin', ['-s', '65536', 'prog.ihx', 'prog.bin']);
  });

  const read = (name: string) => readFileSync(join(dir, name), 'latin1');
  const noi = new Map<string, number>();
  for (const line of read('prog.noi').split('\n')) {
    const m = /^DEF (\S+) 0x([0-9A-Fa-f]+)/.exec(line);
    if (m) noi.set(m[1], parseInt(m[2], 16));
  }
  built = {
    dir,
    cdbPath: join(dir, 'prog.cdb'),
    cdb: read('prog.cdb'),
    asm: Object.fromEntries(MODULES.map((m) => [m, read(`${m}.asm`)])),
    rst: Object.fromEntries(MODULES.map((m) => [m, read(`${m}.rst`)])),
    noi,
    image: new Uint8Array(readFileSync(join(dir, 'prog.bin'))),
  };
  return built;
}

/** The compiler's assembly for one function: from `_name::` to the next function label. */
export function asmOfFunction(asm: string, name: string): string {
  const start = asm.search(new RegExp(`\n_${name}::?\n`));
  if (start < 0) throw new Error(`function ${name} not in the .asm`);
  const next = asm.slice(start + 1).search(/\n_\w+::?\n/);
  return next < 0 ? asm.slice(start) : asm.slice(start, start + 1 + next);
}

/**
 * From a linker listing: each `C$file.c$LINE$…` label the compiler placed →
 * the absolute address of the next located line (where that line's code starts).
 */
export function rstLineAddresses(rst: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  let pending: string[] = [];
  for (const line of rst.split('\n')) {
    const c = /^\s+[0-9A-F]{6}\s+\d+\s+C\$([\w.]+)\$(\d+)\$\S+\s+= \./.exec(line);
    if (c) {
      pending.push(`${c[1]}:${c[2]}`);
      continue;
    }
    const a = /^ {6}([0-9A-F]{6}) /.exec(line);
    if (a && pending.length) {
      for (const key of pending) {
        const set = out.get(key) ?? new Set<number>();
        set.add(parseInt(a[1], 16));
        out.set(key, set);
      }
      pending = [];
    }
  }
  return out;
}
