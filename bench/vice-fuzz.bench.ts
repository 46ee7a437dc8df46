/**
 * The VICE connection under a million malformed frames (issue 30): test/fuzz/vice-stream.ts's checks on every input,
 * the heap after a full GC every 100,000. The floor is the heap at the first sample, in the same run; the figure is
 * the last sample's growth over it (target: flat, <= 2 MB) and zero problems.
 *   node --import tsx bench/vice-fuzz.bench.ts [inputs, default 1000000] [seed]
 */
import { fuzzViceStream } from '../test/fuzz/vice-stream.js';

const N = Number(process.argv[2] ?? 1_000_000);
const SEED = Number(process.argv[3] ?? Date.now() % 2 ** 31);
const EVERY = Math.max(1, Math.floor(N / 10));

async function main(): Promise<boolean> {
  const heap: [number, number][] = [];
  const report = await fuzzViceStream(N, SEED, {
    every: EVERY,
    onSample: (n, mb) => {
      heap.push([n, mb]);
      console.log(`  after ${String(n).padStart(8)} inputs: heap ${mb.toFixed(1)} MB`);
    },
  });
  console.log(
    `${report.inputs} inputs (seed ${SEED}) in ${(report.ms / 1000).toFixed(1)} s ` +
      `(${((report.ms * 1000) / report.inputs).toFixed(1)} µs each): ${report.ended} connections ended ` +
      `(${report.badHeaders} by a bad header), ${report.cut} frames cut short, ${report.problems.length} problems`,
  );
  for (const p of report.problems) console.log(`  ${p}`);
  const [first, last] = [heap[0], heap.at(-1)];
  if (first && last && last !== first)
    console.log(
      `heap ${first[1].toFixed(1)} MB after ${first[0]} (floor), ${last[1].toFixed(1)} MB after ${last[0]}: ` +
        `growth ${(last[1] - first[1]).toFixed(1)} MB, x${(last[1] / first[1]).toFixed(2)} (target: <= 2 MB)`,
    );
  return report.problems.length === 0;
}

void main().then((ok) => process.exit(ok ? 0 : 1));
