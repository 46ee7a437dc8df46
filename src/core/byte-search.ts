/** Exact byte-sequence search, shared by every machine's memory search (C64 text, DOS, the generic tool). */
export function searchBytes(
  haystack: Uint8Array,
  needle: Uint8Array,
  maxResults: number,
): { hits: number[]; more: boolean } {
  const hits: number[] = [];
  const buf = Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength);
  let from = 0;
  while (needle.length > 0) {
    const at = buf.indexOf(needle, from);
    if (at < 0) break;
    if (hits.length === maxResults) return { hits, more: true };
    hits.push(at);
    from = at + 1;
  }
  return { hits, more: false };
}
