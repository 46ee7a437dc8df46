/** Runs a fuzz target for a number of inputs; collects findings (crashes, uncaught errors, slow inputs). */
import { Finding, type FuzzTarget } from './targets.js';
import { rng } from './mutate.js';

export interface FuzzReport {
  target: string;
  inputs: number;
  ms: number;
  findings: { input: string; problem: string }[];
}

/** An input that takes longer than this to handle counts as a hang. */
export const HANG_MS = 2000;

export async function fuzz(target: FuzzTarget, count: number, seed = 1): Promise<FuzzReport> {
  const r = rng(seed);
  const seeds = await target.seeds();
  const findings: FuzzReport['findings'] = [];
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  const handler = await target.open();
  const start = Date.now();
  try {
    for (let i = 0; i < count; i++) {
      const input = i < seeds.length ? seeds[i] : target.mutate(r, seeds);
      const t0 = Date.now();
      try {
        await handler.run(input);
      } catch (err) {
        findings.push({
          input: input.toString('base64'),
          problem: err instanceof Finding ? err.message : `run failed: ${String(err)}`,
        });
      }
      const took = Date.now() - t0;
      if (took > HANG_MS) findings.push({ input: input.toString('base64'), problem: `took ${took} ms` });
      while (uncaught.length)
        findings.push({
          input: input.toString('base64'),
          problem: `uncaught: ${(uncaught.shift() as Error)?.stack ?? ''}`,
        });
      if (findings.length >= 5) break;
    }
  } finally {
    await handler.close();
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  }
  return { target: target.name, inputs: count, ms: Date.now() - start, findings };
}
