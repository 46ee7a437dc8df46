/**
 * Close names for "did you mean" answers (a mistyped tool, machine, key, C
 * function or file): within an edit distance that grows with the word, or one
 * containing the other; the closest first.
 */

/** Up to `limit` candidates close to `word` (case-insensitive), closest first. */
export function closeMatches(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = word.toLowerCase();
  const seen = new Set<string>();
  const near: { c: string; d: number }[] = [];
  for (const c of candidates) {
    if (seen.has(c)) continue;
    seen.add(c);
    const l = c.toLowerCase();
    const d = distance(w, l);
    if (d <= Math.max(2, Math.floor(w.length / 3)) || (w.length >= 2 && (l.includes(w) || w.includes(l))))
      near.push({ c, d });
  }
  return near
    .sort((a, b) => a.d - b.d)
    .slice(0, limit)
    .map(({ c }) => c);
}

/** Levenshtein distance. */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}
