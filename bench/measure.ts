/** Timing for benchmarks: a few warm-up calls, then median and p95 of n timed calls. */
export interface Figures {
  median: number;
  p95: number;
}

/** median and p95 of some timings */
export function figuresOf(times: number[]): Figures {
  const sorted = [...times].sort((x, y) => x - y);
  return {
    median: sorted[Math.floor(sorted.length / 2)],
    p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))],
  };
}

export async function measure(fn: () => Promise<unknown>, n: number): Promise<Figures> {
  for (let i = 0; i < Math.min(3, n); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return figuresOf(times);
}

/**
 * Two operations timed in alternation (a, b, a, b …), so both see the same load on a busy machine; the figure is
 * the median of the per-pair ratios b/a, next to each one's median and p95.
 */
export async function measurePaired(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  n: number,
): Promise<{ a: Figures; b: Figures; ratio: number }> {
  const time = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (let i = 0; i < Math.min(3, n); i++) await time(a).then(() => time(b));
  const ta: number[] = [];
  const tb: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) {
    ta.push(await time(a));
    tb.push(await time(b));
    ratios.push(tb[i] / ta[i]);
  }
  return { a: figuresOf(ta), b: figuresOf(tb), ratio: figuresOf(ratios).median };
}
