/**
 * Real-mode facts every DOS guest shares: the BIOS data area (0040:0000),
 * the interrupt vector table and segment:offset arithmetic. Pure functions
 * over bytes read from guest physical memory.
 */
import { hex } from '../../core/hex.js';

export const BDA = {
  kbdHead: 0x41a,
  kbdTail: 0x41c,
  memKb: 0x413,
  videoMode: 0x449,
  textColumns: 0x44a,
  pageOffset: 0x44e,
  cursor: 0x450,
  ticks: 0x46c,
  kbdStart: 0x480,
  kbdEnd: 0x482,
  textRows: 0x484,
  charHeight: 0x485,
} as const;

/** The BIOS keyboard ring bounds 001E/003E at 0040:0080: the discovery signature. */
export const RING_SIGNATURE = Uint8Array.of(0x1e, 0x00, 0x3e, 0x00);

/** Highest physical address a real-mode program can form (FFFF:FFFF + 1). */
export const REAL_MODE_LIMIT = 0x10fff0;

export function word(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8);
}

export function dword(bytes: Uint8Array, at: number): number {
  return (word(bytes, at) + word(bytes, at + 2) * 0x10000) >>> 0;
}

export interface FarPointer {
  segment: number;
  offset: number;
}

export function physical(p: FarPointer): number {
  return p.segment * 16 + p.offset;
}

export function farHex(p: FarPointer): string {
  return `${hex(p.segment, 4, '')}:${hex(p.offset, 4, '')}`;
}

/** IVT entry n from the first 0x400 bytes of guest memory. */
export function vector(low: Uint8Array, n: number): FarPointer {
  return { offset: word(low, n * 4), segment: word(low, n * 4 + 2) };
}

export interface BdaSummary {
  conventionalKb: number;
  videoMode: number;
  columns: number;
  rows: number;
  pageOffset: number;
  /** scan lines per character (0040:0085), 16 on VGA text */
  charHeight: number;
  cursorRow: number;
  cursorCol: number;
  ticks: number;
  ring: { start: number; end: number; head: number; tail: number; queued: number; capacity: number };
  int21: FarPointer;
  int9: FarPointer;
  int16: FarPointer;
  int33: FarPointer;
}

/** Decodes the interesting part of the first 0x500 bytes of guest memory. */
export function readBda(low: Uint8Array): BdaSummary {
  const start = word(low, BDA.kbdStart);
  const end = word(low, BDA.kbdEnd);
  const head = word(low, BDA.kbdHead);
  const tail = word(low, BDA.kbdTail);
  const size = end - start;
  const queued = size > 0 ? ((((tail - head) % size) + size) % size) / 2 : 0;
  return {
    conventionalKb: word(low, BDA.memKb),
    videoMode: low[BDA.videoMode],
    columns: word(low, BDA.textColumns) || 80,
    rows: (low[BDA.textRows] || 24) + 1,
    pageOffset: word(low, BDA.pageOffset),
    charHeight: Math.min(32, low[BDA.charHeight] || 16),
    cursorRow: low[BDA.cursor + 1],
    cursorCol: low[BDA.cursor],
    ticks: dword(low, BDA.ticks),
    ring: { start, end, head, tail, queued, capacity: size / 2 - 1 },
    int21: vector(low, 0x21),
    int9: vector(low, 0x09),
    int16: vector(low, 0x16),
    int33: vector(low, 0x33),
  };
}

/**
 * Whether the first 0x500 bytes look like a live DOS-era guest: ring bounds
 * 1E/3E, head and tail even and inside, 64..640 KB of conventional memory,
 * and a non-null INT 21h vector that a real-mode program can reach.
 */
export function plausibleBda(low: Uint8Array): boolean {
  if (word(low, BDA.kbdStart) !== 0x1e || word(low, BDA.kbdEnd) !== 0x3e) return false;
  const head = word(low, BDA.kbdHead);
  const tail = word(low, BDA.kbdTail);
  for (const p of [head, tail]) if (p & 1 || p < 0x1e || p >= 0x3e) return false;
  const kb = word(low, BDA.memKb);
  if (kb < 64 || kb > 640) return false;
  const v = vector(low, 0x21);
  if (v.segment === 0 && v.offset === 0) return false;
  return physical(v) < REAL_MODE_LIMIT;
}
