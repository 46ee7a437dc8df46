/**
 * Where a process's anonymous resident memory lives, from /proc/self/smaps: glibc's main heap (brk), glibc's
 * per-thread arena heaps (each a 64 MiB-aligned reservation, its used part read-write and the rest PROT_NONE) and the
 * rest (V8's pages, wasm memories, large mmap'd blocks, thread stacks). RSS that grows in arena heaps while the JS
 * heap stays flat is the allocator keeping freed memory per arena, not objects we keep.
 */
import { readFileSync } from 'node:fs';

/** glibc's HEAP_MAX_SIZE on 64-bit (2 * DEFAULT_MMAP_THRESHOLD_MAX): every non-main arena heap reserves this much. */
const ARENA_HEAP = 64 << 20;

export interface AnonMemory {
  /** all anonymous resident memory, MiB */
  anon: number;
  /** the brk heap (glibc's main arena), MiB */
  brk: number;
  /** glibc arena heaps: how many, and their resident MiB */
  arenas: number;
  arenaRss: number;
}

interface Mapping {
  start: number;
  end: number;
  perms: string;
  path: string;
  rssKb: number;
  anonKb: number;
}

function mappings(): Mapping[] {
  const out: Mapping[] = [];
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      out.push({
        start: parseInt(head[1], 16),
        end: parseInt(head[2], 16),
        perms: head[3],
        path: head[4],
        rssKb: 0,
        anonKb: 0,
      });
      continue;
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line);
    const m = out.at(-1);
    if (field && m) m[field[1] === 'Rss' ? 'rssKb' : 'anonKb'] = Number(field[2]);
  }
  return out;
}

export function anonMemory(): AnonMemory {
  const maps = mappings();
  const r: AnonMemory = { anon: 0, brk: 0, arenas: 0, arenaRss: 0 };
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i];
    r.anon += m.anonKb;
    if (m.path === '[heap]') r.brk += m.rssKb;
    const rest = maps[i + 1];
    const reservation =
      rest?.start === m.end && rest.perms === '---p' && !rest.path ? rest.end - m.start : m.end - m.start;
    if (!m.path && m.perms === 'rw-p' && m.start % ARENA_HEAP === 0 && reservation === ARENA_HEAP) {
      r.arenas++;
      r.arenaRss += m.rssKb;
    }
  }
  const mb = (kb: number) => kb / 1024;
  return { anon: mb(r.anon), brk: mb(r.brk), arenas: r.arenas, arenaRss: mb(r.arenaRss) };
}
