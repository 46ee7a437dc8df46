/**
 * Finds guest physical 0 inside an emulator's memory with no prior knowledge:
 * the BIOS keyboard ring bounds 001E/003E at 0040:0080, a plausible BDA and a
 * live INT 21h vector. Two live candidates are refused, never guessed.
 */
import { sleep } from '../../core/async.js';
import { notFound, incompatibleTarget } from '../../core/errors.js';
import { BDA, RING_SIGNATURE, dword, physical, plausibleBda, vector } from '../../machines/dos/bda.js';
import type { HostMemory } from './host-memory.js';
import { searchRegion } from './host-search.js';

/** A guest needs at least this much behind physical 0 (1 MiB + HMA). */
const GUEST_SPAN = 0x110000;
const LIVENESS_MS = 150;

export interface GuestCandidate {
  base: number;
  ticks: number;
}

/** Every host address whose bytes look like a guest's physical 0. */
export async function scanForGuests(mem: HostMemory): Promise<GuestCandidate[]> {
  const found: GuestCandidate[] = [];
  for (const region of await mem.regions()) {
    if (region.end - region.start < GUEST_SPAN) continue;
    for (const hit of await searchRegion(mem, region, { bytes: RING_SIGNATURE, stride: 1 })) {
      const base = hit - BDA.kbdStart;
      if (base < region.start || base + GUEST_SPAN > region.end) continue;
      const checked = await validate(mem, base);
      if (checked) found.push(checked);
    }
  }
  return found;
}

async function validate(mem: HostMemory, base: number): Promise<GuestCandidate | undefined> {
  const low = await mem.read(base, 0x500);
  if (!plausibleBda(low)) return undefined;
  const target = await mem.read(base + physical(vector(low, 0x21)), 8);
  if (target.every((b) => b === 0) || target.every((b) => b === 0xff)) return undefined;
  return { base, ticks: dword(low, BDA.ticks) };
}

/** Keeps candidates whose BIOS tick count moves: a stale copy of a BDA does not tick. */
export async function liveOnly(
  mem: HostMemory,
  candidates: GuestCandidate[],
  waitMs = LIVENESS_MS,
): Promise<GuestCandidate[]> {
  if (candidates.length < 2) return candidates;
  await sleep(waitMs);
  const live: GuestCandidate[] = [];
  for (const c of candidates) {
    const now = dword(await mem.read(c.base + BDA.ticks, 4), 0);
    if (now !== c.ticks) live.push({ ...c, ticks: now });
  }
  return live;
}

/** Exactly one live guest, or a RetroError that says what was seen. */
export async function findGuestBase(mem: HostMemory): Promise<number> {
  const all = await scanForGuests(mem);
  if (all.length === 0) {
    throw notFound(
      `No DOS guest in ${mem.description} yet: no BIOS keyboard ring with a live INT 21h vector. The emulator may still be booting; try again in a moment.`,
    );
  }
  const live = await liveOnly(mem, all);
  if (live.length !== 1) {
    const where = (live.length ? live : all).map((c) => `0x${c.base.toString(16)}`).join(', ');
    throw incompatibleTarget(
      `Found ${live.length || all.length} DOS guests in ${mem.description} (at ${where}); refusing to guess which one to use. Run one guest per emulator process.`,
      { candidates: where },
    );
  }
  return live[0].base;
}
