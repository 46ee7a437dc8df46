/** Timing for benchmarks: a few warm-up calls, then median and p95 of n timed calls. */
export interface Figures {
  median: number;
  p95: number;
}

export async function measure(fn: () => Promise<unknown>, n: number): Promise<Figures> {
  for (let i = 0; i < Math.min(3, n); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(n / 2)], p95: times[Math.min(n - 1, Math.floor(n * 0.95))] };
}
