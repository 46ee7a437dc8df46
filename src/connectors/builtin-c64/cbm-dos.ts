/**
 * What a 1541's DOS makes of the bytes a program sends it, without the
 * disk: file specs (`@0:name,s,w`), PETSCII ↔ host names, wildcards, the
 * error channel's messages and the `$` directory as the BASIC listing the
 * drive sends. Pure; the host folder behind it is host-drive.ts.
 */

export type FileType = 'PRG' | 'SEQ' | 'USR' | 'REL';
export type FileMode = 'read' | 'write' | 'append';

export interface FileSpec {
  name: string;
  type?: FileType;
  mode: FileMode;
  /** `@`: replace an existing file */
  replace: boolean;
  directory: boolean;
}

/** DOS error numbers and their messages, as the 1541 words them. */
export const DOS = {
  OK: [0, 'OK'],
  SCRATCHED: [1, 'FILES SCRATCHED'],
  WRITE_ERROR: [25, 'WRITE ERROR'],
  WRITE_PROTECT: [26, 'WRITE PROTECT ON'],
  SYNTAX: [30, 'SYNTAX ERROR'],
  UNKNOWN_COMMAND: [31, 'SYNTAX ERROR'],
  BAD_NAME: [33, 'SYNTAX ERROR'],
  NO_NAME: [34, 'SYNTAX ERROR'],
  NOT_FOUND: [62, 'FILE NOT FOUND'],
  EXISTS: [63, 'FILE EXISTS'],
  TYPE_MISMATCH: [64, 'FILE TYPE MISMATCH'],
  NO_CHANNEL: [70, 'NO CHANNEL'],
  DISK_FULL: [72, 'DISK FULL'],
  POWER_ON: [73, 'CBM DOS V2.6 1541'],
} as const;

export type DosStatus = readonly [number, string];

/** The error channel's text: `62, FILE NOT FOUND,00,00` + CR, in PETSCII (ASCII digits and capitals). */
export function statusLine([code, text]: DosStatus, track = 0, sector = 0): number[] {
  const two = (n: number) => n.toString().padStart(2, '0');
  return [...`${two(code)},${code === 0 ? ' ' : ''}${text},${two(track)},${two(sector)}\r`].map((c) => c.charCodeAt(0));
}

/** PETSCII name bytes → a host name: unshifted letters are lower case, shifted ones upper case. */
export function petsciiToHost(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0x41 && b <= 0x5a) out += String.fromCharCode(b + 0x20);
    else if ((b >= 0xc1 && b <= 0xda) || (b >= 0x61 && b <= 0x7a)) out += String.fromCharCode((b & 0x1f) + 0x40);
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`; // never a path character: such a name is refused
  }
  return out;
}

/** A host name as the drive lists it: letters become PETSCII capitals (what the C64 shows by default). */
export function hostToPetscii(name: string): number[] {
  return [...name].map((c) => {
    const code = c.charCodeAt(0);
    if (code >= 0x61 && code <= 0x7a) return code - 0x20;
    if (code >= 0x20 && code < 0x7f) return code;
    return 0x3f; // '?'
  });
}

/** `[@][0]:name[,type[,mode]]` or `$`; undefined when the spec names no file. */
export function parseFileSpec(bytes: ArrayLike<number>, channel: number): FileSpec | undefined {
  let text = petsciiToHost(bytes);
  if (text.startsWith('$'))
    return { name: text.slice(1).replace(/^\d*:/, ''), mode: 'read', replace: false, directory: true };
  let replace = false;
  if (text.startsWith('@')) {
    replace = true;
    text = text.slice(1);
  }
  const colon = text.indexOf(':');
  if (colon >= 0 && /^\d*$/.test(text.slice(0, colon))) text = text.slice(colon + 1);
  const [name, ...options] = text.split(',');
  if (!name) return undefined;
  let type: FileType | undefined;
  // the 1541: channel 1 saves, every other channel reads unless told otherwise
  let mode: FileMode = channel === 1 ? 'write' : 'read';
  for (const option of options) {
    const o = option.trim().toLowerCase()[0];
    if (o === 'p') type = 'PRG';
    else if (o === 's') type = 'SEQ';
    else if (o === 'u') type = 'USR';
    else if (o === 'l') type = 'REL';
    else if (o === 'w') mode = 'write';
    else if (o === 'a') mode = 'append';
    else if (o === 'r') mode = 'read';
  }
  return { name, type, mode, replace, directory: false };
}

/** CBM wildcards: `*` ends the pattern and matches the rest, `?` one character; case-insensitive. */
export function matchesPattern(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase();
  const n = name.toLowerCase();
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '*') return true;
    if (i >= n.length || (p[i] !== '?' && p[i] !== n[i])) return false;
  }
  return p.length === n.length;
}

export function hasWildcard(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/** The type a host file lists as, from its extension (every other file is a PRG). */
export function typeOfHostName(name: string): FileType {
  const ext = /\.(prg|seq|usr|rel)$/i.exec(name)?.[1]?.toUpperCase();
  return (ext as FileType | undefined) ?? 'PRG';
}

export interface DirectoryEntry {
  name: string;
  bytes: number;
  type: FileType;
}

const BLOCK_DATA = 254;
const DISK_BLOCKS = 664;
/** where the C64 loads a `$` listing, as a 1541 sends it */
const LISTING_ADDRESS = 0x0401;

/** `LOAD"$",8` bytes: load address, then one BASIC line per entry, as the 1541 formats them. */
export function directoryListing(diskName: string, entries: DirectoryEntry[]): Uint8Array {
  const out: number[] = [LISTING_ADDRESS & 0xff, LISTING_ADDRESS >> 8];
  let address = LISTING_ADDRESS;
  const line = (number: number, text: number[]) => {
    address += 4 + text.length + 1;
    out.push(address & 0xff, address >> 8, number & 0xff, number >> 8, ...text, 0);
  };
  const header = hostToPetscii(diskName.slice(0, 16).padEnd(16));
  line(0, [0x12, 0x22, ...header, 0x22, 0x20, ...hostToPetscii('00 2A')]);
  let used = 0;
  for (const entry of entries) {
    const blocks = Math.ceil(entry.bytes / BLOCK_DATA) || 0;
    used += blocks;
    const quoted = [0x22, ...hostToPetscii(entry.name.slice(0, 16)), 0x22];
    const pad = blocks < 10 ? 3 : blocks < 100 ? 2 : blocks < 1000 ? 1 : 0;
    const text = [...Array(pad).fill(0x20), ...quoted, ...Array(Math.max(0, 18 - quoted.length)).fill(0x20)];
    line(Math.min(blocks, 0xffff), [...text, ...hostToPetscii(`${entry.type}  `)]);
  }
  line(Math.max(0, DISK_BLOCKS - used), hostToPetscii('BLOCKS FREE.             '));
  out.push(0, 0);
  return Uint8Array.from(out);
}
