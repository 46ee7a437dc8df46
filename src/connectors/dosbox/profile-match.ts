/**
 * Finds the data segment a profile describes: its marker bytes inside a
 * loaded program's block, at an address that makes DS:marker.offset a whole
 * segment, with every check holding. None or several → a clear refusal.
 */
import { incompatibleTarget, notFound } from '../../core/errors.js';
import { failedCheck, type DosProfile } from '../../machines/dos/profile.js';
import type { DosGuest } from './guest.js';

export interface ProfileMatch {
  ds: number;
  program: string;
  checked: number;
}

export async function matchProfile(guest: DosGuest, profile: DosProfile): Promise<ProfileMatch> {
  const { programs } = await guest.programMap();
  const candidates = programs.filter((p) => !profile.program || p.name.toUpperCase() === profile.program.toUpperCase());
  const marker = Buffer.from(profile.marker.bytes);
  const matches: ProfileMatch[] = [];
  const rejected: string[] = [];
  for (const p of candidates) {
    const start = p.psp * 16;
    const block = Buffer.from(await guest.read(start, Math.min(p.bytes, 0x110000 - start)));
    for (let i = block.indexOf(marker); i >= 0; i = block.indexOf(marker, i + 1)) {
      const dsPhys = start + i - profile.marker.offset;
      if (dsPhys < 0 || dsPhys % 16) continue;
      const ds = dsPhys / 16;
      const seg = await guest.read(dsPhys, Math.min(0x10000, 0x110000 - dsPhys));
      const failed = profile.checks.map((c) => failedCheck(c, seg)).filter((x): x is string => !!x);
      if (failed.length) {
        rejected.push(`${p.name} DS=${ds.toString(16)}: ${failed[0]}`);
        continue;
      }
      matches.push({ ds, program: p.name, checked: profile.checks.length });
    }
  }
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw incompatibleTarget(
      `Profile ${profile.name} matches ${matches.length} places (${matches.map((m) => `${m.program} DS=${m.ds.toString(16)}`).join(', ')}); refusing to guess. Add checks or run one copy.`,
    );
  }
  throw notFound(
    `Profile ${profile.name}: its marker was not found with passing checks in ${candidates.map((p) => p.name).join(', ') || 'any loaded program'}${rejected.length ? ` (rejected: ${rejected.slice(0, 3).join('; ')})` : ''}. Nothing was written.`,
    { rejected },
  );
}
