/**
 * Debug-info scale: parse + index of SDCC .cdb and cc65 .dbg files generated
 * at 10 to 3,000 functions, as ratios to the floor measured in the same run
 * (reading the same file and splitting it into lines), and the cost of one
 * resolveLine at each size.
 * Run: node --import tsx bench/debuginfo.bench.ts [iterations]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebugIndex } from '../src/debuginfo/index.js';
import { loadDebugInfo } from '../src/debuginfo/load.js';
import { cc65Dbg, firstLine, moduleFile, sdccCdb } from '../test/support/debuginfo-gen.js';
import { measure } from './measure.js';

const N = Number(process.argv[2] ?? 9);
const SIZES = [10, 100, 300, 1000, 3000];
const LOOKUPS = 2000;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'retro-debuginfo-bench-'));
  try {
    console.log('format      functions     bytes   floor ms   parse+index ms   ratio   resolveLine µs');
    for (const [format, ext, gen] of [
      ['sdcc-cdb', 'cdb', sdccCdb],
      ['cc65-dbg', 'dbg', cc65Dbg],
    ] as const) {
      for (const n of SIZES) {
        const path = join(dir, `p${n}.${ext}`);
        writeFileSync(path, gen(n), 'latin1');
        const floor = await measure(async () => readFileSync(path, 'latin1').split(/\r?\n/), N);
        let index: DebugIndex | undefined;
        const parse = await measure(async () => {
          index = new DebugIndex(await loadDebugInfo(path));
        }, N);
        const t0 = performance.now();
        for (let k = 0; k < LOOKUPS; k++) {
          const i = (k * 7919) % n;
          // a line without code (between two with code) makes resolveLine search
          if (!index!.resolveLine(moduleFile(i), firstLine(i) + 1)) throw new Error(`no line for fn${i}`);
        }
        const perLookup = ((performance.now() - t0) / LOOKUPS) * 1000;
        const bytes = readFileSync(path).length;
        console.log(
          `${format.padEnd(10)} ${String(n).padStart(10)} ${String(bytes).padStart(9)} ${floor.median.toFixed(2).padStart(10)} ${parse.median.toFixed(2).padStart(16)} ${(parse.median / floor.median).toFixed(1).padStart(7)} ${perLookup.toFixed(2).padStart(16)}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
