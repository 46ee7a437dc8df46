/** Binary searches over ascending number arrays, shared by the parsers and the index. */

/** First index (in [lo, hi), by default the whole array) whose value is >= x. */
export function lowerBound(sorted: ArrayLike<number>, x: number, lo = 0, hi = sorted.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index (in [lo, hi), by default the whole array) whose value is > x. */
export function upperBound(sorted: ArrayLike<number>, x: number, lo = 0, hi = sorted.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
