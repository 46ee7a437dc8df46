/**
 * Debug-info scale: parse + index of SDCC .cdb and cc65 .dbg files generated
 * at 10 to 3,000 functions, as ratios to the floor measured in the same run
 * (reading the same file and splitting it into lines), and the cost of one
 * resolveLine at each size. The floor and the parse alternate and each
 * figure is the least process CPU time of its runs: on a machine shared with
 * other work, wall-clock medians taken one after the other measure the load.
 * Each format's parser is warmed up on its largest file before any size is
 * timed, so every size measures the same optimised code (otherwise the small
 * sizes, timed first, measure V8's interpreter); the cold first load of the
 * smallest file, before that warm-up, is printed on its own.
 * Run: node --import tsx bench/debuginfo.bench.ts [iterations]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebugIndex } from '../src/debuginfo/index.js';
import { loadDebugInfo } from '../src/debuginfo/load.js';
import { cc65Dbg, firstLine, moduleFile, sdccCdb } from '../test/support/debuginfo-gen.js';

const N = Number(process.argv[2] ?? 9);
const SIZES = [10, 100, 300, 1000, 3000];
const LOOKUPS = 20000;
const WARM_UP = 2;
/** loads of the largest file before timing, so V8 has optimised the parser */
const WARM_UP_LARGEST = 5;

/** Process CPU time of one call, in ms. */
async function cpuMs(fn: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'retro-debuginfo-bench-'));
  try {
    console.log('format      functions     bytes   floor ms   parse+index ms   ratio   resolveLine µs');
    for (const [format, ext, gen] of [
      ['sdcc-cdb', 'cdb', sdccCdb],
      ['cc65-dbg', 'dbg', cc65Dbg],
    ] as const) {
      for (const n of SIZES) writeFileSync(join(dir, `p${n}.${ext}`), gen(n), 'latin1');
      const cold = await cpuMs(() => loadDebugInfo(join(dir, `p${SIZES[0]}.${ext}`)));
      const largest = join(dir, `p${SIZES[SIZES.length - 1]}.${ext}`);
      for (let k = 0; k < WARM_UP_LARGEST; k++) new DebugIndex(await loadDebugInfo(largest));
      console.log(`${format}: cold first load of ${SIZES[0]} functions ${cold.toFixed(2)} ms (before the warm-up)`);
      for (const n of SIZES) {
        const path = join(dir, `p${n}.${ext}`);
        let floor = Infinity;
        let parse = Infinity;
        let index: DebugIndex | undefined;
        for (let run = 0; run < N + WARM_UP; run++) {
          const f = await cpuMs(async () => readFileSync(path, 'latin1').split(/\r?\n/));
          index = undefined; // one program loaded at a time, as in a session: the last one is not kept alive meanwhile
          const p = await cpuMs(async () => {
            index = new DebugIndex(await loadDebugInfo(path));
          });
          if (run >= WARM_UP) [floor, parse] = [Math.min(floor, f), Math.min(parse, p)];
        }
        const lookups = await cpuMs(async () => {
          for (let k = 0; k < LOOKUPS; k++) {
            const i = (k * 7919) % n;
            // a line without code (between two with code) makes resolveLine search
            if (!index!.resolveLine(moduleFile(i), firstLine(i) + 1)) throw new Error(`no line for fn${i}`);
          }
        });
        const perLookup = (lookups / LOOKUPS) * 1000;
        const bytes = readFileSync(path).length;
        console.log(
          `${format.padEnd(10)} ${String(n).padStart(10)} ${String(bytes).padStart(9)} ${floor.toFixed(2).padStart(10)} ${parse.toFixed(2).padStart(16)} ${(parse / floor).toFixed(1).padStart(7)} ${perLookup.toFixed(2).padStart(16)}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
