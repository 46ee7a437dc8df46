/**
 * Replays the previous hit's reads as one flight. A host-side condition reads memory in a chain (cc65's C stack
 * pointer, then the local at an offset from it), one round trip each. Per stop place this remembers which ranges
 * the last decision there read; at the next decision it asks for all of them at once (the connector sends them
 * back to back: one round trip of latency) and serves a read from those answers when one of them covers it.
 * Values are always read at this stop; only the addresses are a guess, so a guess that misses (a different call
 * depth moved the C stack) costs one real read, never a wrong value. Every connector's memory read is free of
 * side effects (VICE's without them, MAME's debugger reads), so reading an address the condition skips this time
 * changes nothing.
 */
import type { ReadCpu } from './variables.js';

/** Stop places remembered (the most recently used kept). */
const MAX_PLACES = 64;
/** Ranges replayed per place, and the largest one: a condition reads a few small values. */
const MAX_RANGES = 16;
const MAX_RANGE_BYTES = 256;

interface Range {
  offset: number;
  length: number;
}

export class ReadReplay {
  private readonly places = new Map<string, Range[]>();

  /**
   * A reader for one decision at `place`: the ranges the last one there read are asked for now, and what this one
   * reads (successfully) is what the next one replays.
   */
  begin(place: string, read: ReadCpu): ReadCpu {
    const last = this.places.get(place) ?? [];
    const now: Range[] = [];
    this.places.delete(place);
    this.places.set(place, now);
    if (this.places.size > MAX_PLACES) this.places.delete(this.places.keys().next().value!);
    // a failed early read is not served: the read it would have served is made for real and fails (or not) itself
    const early = last.map((r) => ({ ...r, bytes: read(r.offset, r.length).catch(() => undefined) }));
    return async (offset, length) => {
      const hit = early.find((e) => covers(e, offset, length));
      const served = hit && (await hit.bytes);
      const bytes = served
        ? served.slice(offset - hit.offset, offset - hit.offset + length)
        : await read(offset, length);
      if (length <= MAX_RANGE_BYTES && now.length < MAX_RANGES && !now.some((r) => covers(r, offset, length)))
        now.push({ offset, length });
      return bytes;
    };
  }
}

function covers(r: Range, offset: number, length: number): boolean {
  return offset >= r.offset && offset + length <= r.offset + r.length;
}
