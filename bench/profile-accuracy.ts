/**
 * The profile-accuracy figure both unit-test benches print: per-function cycles of a hand-counted program
 * (test/fixtures/testing/{c64,zx}-profile/prof.c) against the hand count, and the worst deviation (the issue
 * asks exact on the built-in C64, within 1 % on MAME).
 */
import type { ProfileRun } from '../src/testing/profile-run.js';

export interface HandCount {
  self: number;
  total: number;
  calls: number;
}

export function accuracyLine(run: ProfileRun, expected: Record<string, HandCount>): string {
  const fns = new Map(run.profiler.functions().map((f) => [f.name, f]));
  let worst = 0;
  const parts = Object.entries(expected).map(([name, want]) => {
    const got = fns.get(name) ?? { self: 0, total: 0, calls: 0 };
    for (const k of ['self', 'total', 'calls'] as const)
      worst = Math.max(worst, Math.abs(got[k] - want[k]) / Math.max(1, want[k]));
    return `${name} self ${got.self}/${want.self}, total ${got.total}/${want.total}, calls ${got.calls}/${want.calls}`;
  });
  return (
    `profile accuracy on ${run.machine} (measured/hand-counted, ${run.ended}): ${parts.join('; ')}; ` +
    `worst deviation ${(worst * 100).toFixed(3)} %`
  );
}
