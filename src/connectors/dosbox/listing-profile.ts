/**
 * A .COM program's data labels as a program profile, from nasm's listing beside it (F5's nasm build writes
 * `build/NAME.lst`): the Debug Console, watches and the "Profile symbols" scope then know `tag` or `count` without
 * a profile written by hand. DS is the program's PSP (a .COM runs with CS = DS = PSP), found as a profile's is: by
 * the program's first bytes at PSP:0100, so a listing of another build does not match and is said so.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { asRetroError, badDebugInfo } from '../../core/errors.js';
import { hex } from '../../core/hex.js';
import { MAX_PROGRAM_BYTES, readRegularFileSync } from '../../core/files.js';
import { parseNasmListing } from '../../debuginfo/nasm-listing.js';
import { validateProfile, type DosProfile } from '../../machines/dos/profile.js';
import type { DosMachine } from './dos-machine.js';

const COM_ORIGIN = 0x100;
const MARKER_BYTES = 32;
const MAX_LABEL_BYTES = 4096;
const TYPES: Record<string, Record<number, string>> = { db: { 1: 'u8' }, dw: { 2: 'u16' }, dd: { 4: 'u32' } };

/** The listing F5's build writes beside the program (`KEYECHO.COM` → `KEYECHO.lst`), if there is one. */
export function listingBeside(program: string): string | undefined {
  const stem = join(dirname(program), basename(program, extname(program)));
  return ['.lst', '.LST'].map((ext) => stem + ext).find((p) => existsSync(p));
}

/** The profile of `program`'s labels from `listing`; undefined for a program that is no .COM or has no data labels. */
export function listingProfile(program: string, listing: string, dosName: string): DosProfile | undefined {
  if (extname(program).toLowerCase() !== '.com') return undefined;
  const text = readRegularFileSync(listing, { maxBytes: MAX_PROGRAM_BYTES, what: 'nasm listing' }).toString('utf8');
  const image = readRegularFileSync(program, { maxBytes: MAX_PROGRAM_BYTES, what: 'program' });
  const parsed = parseNasmListing(text);
  const differs = parsed.listed.find(
    (l) => !image.subarray(l.address - COM_ORIGIN, l.address - COM_ORIGIN + l.bytes.length).equals(l.bytes),
  );
  if (differs)
    throw badDebugInfo(
      `${basename(listing)} is the listing of another build of ${basename(program)} (its bytes at ` +
        `${hex(differs.address, 4)} differ): build again to name its labels.`,
    );
  const labels = parsed.labels.filter((l) => l.address >= COM_ORIGIN && l.size > 0 && /^[A-Za-z_][\w.]*$/.test(l.name));
  const size = image.length;
  if (!labels.length || size < 4) return undefined; // a marker needs 4 bytes of the program
  const symbols = Object.fromEntries(
    labels.map((l) => {
      const s = Math.min(l.size, MAX_LABEL_BYTES);
      return [l.name, { offset: l.address, size: s, type: TYPES[l.directive]?.[s] ?? 'bytes' }];
    }),
  );
  return validateProfile(
    {
      name: `${basename(listing)} labels`,
      program: dosName,
      marker: { source_dump: program, dump_offset: 0, offset: COM_ORIGIN, length: Math.min(MARKER_BYTES, size) },
      symbols,
    },
    dirname(program),
  );
}

/**
 * Loads the labels of the program DOS runs as `dosName` (from `given`, else the listing beside it); says in
 * `progress` what it did. A listing it cannot take (another build, unreadable) is said there, not fatal.
 */
export async function loadListingLabels(
  machine: DosMachine,
  program: string,
  given: string | undefined,
  dosName: string,
  progress: (m: string) => void,
): Promise<void> {
  const listing = given ?? listingBeside(program);
  if (!listing) return;
  try {
    const profile = listingProfile(program, listing, dosName);
    if (!profile) return;
    await machine.loadProfile(profile, listing);
    progress(`${Object.keys(profile.symbols).length} data labels of ${dosName} from ${basename(listing)}`);
  } catch (err) {
    progress(`The labels in ${listing} were not loaded: ${asRetroError(err).message}`);
  }
}
