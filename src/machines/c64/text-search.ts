/**
 * Finds C64 text in bytes: exact raw byte sequences, or exact decoded code
 * point sequences (a control byte matches nothing).
 */
import type { TextOptions } from './text-decode.js';
import { codePointsOf } from './text-decode.js';

export { searchBytes } from '../../core/byte-search.js';

export interface SearchHit {
  offset: number;
}

export function searchCodePoints(
  haystack: Uint8Array,
  text: string,
  opts: Pick<TextOptions, 'encoding' | 'charset' | 'highBit'>,
  maxResults: number,
): { hits: number[]; more: boolean } {
  const wanted = Array.from(text, (ch) => ch.codePointAt(0)!);
  const points = codePointsOf(haystack, opts);
  const hits: number[] = [];
  outer: for (let i = 0; wanted.length > 0 && i + wanted.length <= points.length; i++) {
    for (let j = 0; j < wanted.length; j++) if (points[i + j] !== wanted[j]) continue outer;
    if (hits.length === maxResults) return { hits, more: true };
    hits.push(i);
  }
  return { hits, more: false };
}
