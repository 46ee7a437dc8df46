/**
 * The BIOS keyboard ring (0040:001E..003D) written exactly as INT 9 writes it:
 * the key word goes in at the tail first, then the tail is advanced. Pure
 * planning over the BDA bytes; the caller performs the two writes.
 */
import { BDA, word } from './bda.js';

export interface RingWrite {
  /** physical address of the key word */
  slot: number;
  /** the new tail value to publish at 0x41C, after the key word is written */
  nextTail: number;
}

/** Undefined when the ring is full (the next tail would meet the head). */
export function planRingWrite(low: Uint8Array): RingWrite | undefined {
  const start = word(low, BDA.kbdStart);
  const end = word(low, BDA.kbdEnd);
  const head = word(low, BDA.kbdHead);
  const tail = word(low, BDA.kbdTail);
  let next = tail + 2;
  if (next >= end) next = start;
  if (next === head) return undefined;
  return { slot: 0x400 + tail, nextTail: next };
}

export function ringIsEmpty(low: Uint8Array): boolean {
  return word(low, BDA.kbdHead) === word(low, BDA.kbdTail);
}
