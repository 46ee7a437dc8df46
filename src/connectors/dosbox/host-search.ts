/**
 * Byte-pattern search over an emulator's memory, the one scan behind finding
 * the guest, the VGA buffer and the font. Memory that can search where it
 * lives (the wasm worker's heap) answers with addresses only; otherwise the
 * region is read in 16 MiB chunks into one reused buffer. Copying the wasm
 * heap out in chunks on every boot-time retry left RSS growing by megabytes a
 * session (the copies freed on another thread than the one that made them).
 */
import { targetLost } from '../../core/errors.js';
import type { HostMemory, HostRegion, SearchPattern } from './host-memory.js';

export type { SearchPattern };

const CHUNK = 16 << 20;

/** Bytes a match spans from its start. */
function span(p: SearchPattern): number {
  return (p.bytes.length - 1) * p.stride + 1;
}

/** Offsets in `buf` of matches that start before `startsBefore` and end inside `buf`, at most `limit`. */
export function patternHits(buf: Uint8Array, p: SearchPattern, startsBefore: number, limit: number): number[] {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const needle = p.stride === 1 ? p.bytes : p.bytes.subarray(0, 1);
  const last = Math.min(startsBefore, b.length - span(p) + 1);
  const hits: number[] = [];
  for (let i = b.indexOf(needle); i >= 0 && i < last && hits.length < limit; i = b.indexOf(needle, i + 1)) {
    let ok = true;
    for (let k = 1; ok && k < p.bytes.length; k++) ok = b[i + k * p.stride] === p.bytes[k];
    if (ok) hits.push(i);
  }
  return hits;
}

/** Matches wholly inside [start, end) of a heap searched in place (clamped to the heap). */
export function heapHits(heap: Uint8Array, start: number, end: number, p: SearchPattern, limit: number): number[] {
  const from = Math.max(0, start);
  const to = Math.min(heap.length, end);
  if (to <= from) return [];
  return patternHits(heap.subarray(from, to), p, to - from, limit).map((i) => from + i);
}

/** Host addresses of matches wholly inside `region`, at most `limit`. */
export async function searchRegion(
  mem: HostMemory,
  region: HostRegion,
  p: SearchPattern,
  limit = Infinity,
): Promise<number[]> {
  if (mem.search) return mem.search(region.start, region.end, p, limit);
  const hits: number[] = [];
  const scratch = borrow(Math.min(CHUNK + span(p) - 1, region.end - region.start));
  try {
    for (let at = region.start; at < region.end && hits.length < limit; at += CHUNK) {
      const len = Math.min(CHUNK + span(p) - 1, region.end - at);
      let chunk: Uint8Array;
      try {
        chunk = await mem.read(at, len, scratch);
      } catch {
        if (!mem.alive()) throw targetLost(`${mem.description} has gone away.`);
        continue; // a guard page or a mapping that vanished: skip it
      }
      for (const i of patternHits(chunk, p, CHUNK, limit - hits.length)) hits.push(at + i);
    }
  } finally {
    giveBack(scratch);
  }
  return hits;
}

/**
 * Chunk buffers kept for the process, one per search running at once. A fresh 16 MiB buffer per scan (a DOS boot
 * retries every 50 ms), once freed, raised glibc's mmap threshold, so later ones came from the brk heap: measured by
 * the session soak, 58 MB of brk heap and RSS swinging 16 MB between rows, against 7.8 MB and ~20 MB less RSS kept.
 */
const SPARE_BYTES = CHUNK + 4096;
const spares: Buffer[] = [];

function borrow(length: number): Buffer {
  return length <= SPARE_BYTES ? (spares.pop() ?? Buffer.allocUnsafeSlow(SPARE_BYTES)) : Buffer.allocUnsafe(length);
}

function giveBack(b: Buffer): void {
  if (b.length === SPARE_BYTES && spares.length < 2) spares.push(b);
}

/** Matches in every region the memory offers, at most `limit`. */
export async function searchHost(mem: HostMemory, p: SearchPattern, limit = Infinity): Promise<number[]> {
  const hits: number[] = [];
  for (const region of await mem.regions()) {
    if (hits.length >= limit) break;
    hits.push(...(await searchRegion(mem, region, p, limit - hits.length)));
  }
  return hits;
}
