/**
 * retro_test.h's mailbox: 32 bytes (little endian, 16-bit pointers, no
 * padding on cc65 or SDCC) the test program writes and the runner reads. A
 * test that writes past its buffers can break it; `readMailbox` says so
 * instead of reporting garbage.
 */
import { TABLES } from '../machines/c64/petscii.js';

export const MAILBOX_BYTES = 32;
const MAGIC = 'RTST';
const END_MAGIC = 'TSTR';
export const MAILBOX_VERSION = 1;
/** offset of `run`, the test to call next */
export const RUN_OFFSET = 26;

export const enum MailboxState {
  Waiting = 1,
  Running = 2,
  Returned = 3,
}

/** EXPECT kinds, as retro_test.h numbers them, with how a failure reads */
const KINDS: Record<number, string> = {
  1: 'EXPECT_EQ',
  2: 'EXPECT_NE',
  3: 'EXPECT_LT',
  4: 'EXPECT_LE',
  5: 'EXPECT_GT',
  6: 'EXPECT_GE',
  7: 'EXPECT_TRUE',
  8: 'EXPECT_FALSE',
  9: 'FAIL',
};

export interface Mailbox {
  state: number;
  failures: number;
  checks: number;
  line: number;
  filePointer: number;
  textPointer: number;
  expected: number;
  actual: number;
  kind: number;
}

export type MailboxRead = { ok: true; mailbox: Mailbox } | { ok: false; reason: string };

export function readMailbox(bytes: Uint8Array): MailboxRead {
  const text = (from: number) => String.fromCharCode(...bytes.subarray(from, from + 4));
  if (text(0) !== MAGIC || text(28) !== END_MAGIC)
    return {
      ok: false,
      reason: `the mailbox is corrupted (its markers read ${JSON.stringify(text(0))} … ${JSON.stringify(text(28))}, not "RTST" … "TSTR"): the test wrote over memory it does not own`,
    };
  if (bytes[4] !== MAILBOX_VERSION)
    return { ok: false, reason: `the mailbox has version ${bytes[4]}; this runner reads version ${MAILBOX_VERSION}` };
  const u16 = (at: number) => bytes[at] | (bytes[at + 1] << 8);
  const i32 = (at: number) => u16(at) | (u16(at + 2) << 16) | 0;
  const mailbox: Mailbox = {
    state: bytes[5],
    failures: u16(6),
    checks: u16(8),
    line: u16(10),
    filePointer: u16(12),
    textPointer: u16(14),
    expected: i32(16),
    actual: i32(20),
    kind: bytes[24],
  };
  if (mailbox.state < MailboxState.Waiting || mailbox.state > MailboxState.Returned)
    return { ok: false, reason: `the mailbox is corrupted (state ${mailbox.state})` };
  if (mailbox.failures > mailbox.checks)
    return {
      ok: false,
      reason: `the mailbox is corrupted (${mailbox.failures} failures out of ${mailbox.checks} checks)`,
    };
  if (mailbox.failures && !KINDS[mailbox.kind])
    return { ok: false, reason: `the mailbox is corrupted (failure kind ${mailbox.kind})` };
  return { ok: true, mailbox };
}

/** How the first failure reads: `EXPECT_EQ(sum == 5050): expected 5050, got 5049` */
export function failureMessage(m: Mailbox, text: string): string {
  const kind = KINDS[m.kind];
  const more = m.failures > 1 ? ` (and ${m.failures - 1} more failure${m.failures > 2 ? 's' : ''})` : '';
  if (m.kind === 9) return `FAIL: ${text}${more}`;
  if (m.kind === 7 || m.kind === 8) return `${kind}: ${text} is ${m.kind === 7 ? 'false' : 'true'}${more}`;
  return `${kind}: ${text}: expected ${m.expected}, got ${m.actual}${more}`;
}

/** Characters of a C string in the machine's encoding: cc65's C64 strings are PETSCII. */
export type CharDecoder = (byte: number) => string;

export const asciiChars: CharDecoder = (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '?');

export const petsciiChars: CharDecoder = (b) => {
  const entry = TABLES.petscii.lower_upper[b];
  return entry.kind === 'char' ? String.fromCodePoint(entry.codePoint) : '?';
};

/** The C string at the start of `bytes` (up to its NUL). */
export function cString(bytes: Uint8Array, decode: CharDecoder): string {
  const end = bytes.indexOf(0);
  return Array.from(end < 0 ? bytes : bytes.subarray(0, end), decode).join('');
}
