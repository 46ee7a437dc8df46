/**
 * Decodes framed C64 text (PETSCII or screen codes) from bytes. Framing is
 * exactly one of a fixed length, a one-byte terminator (consumed, not text),
 * or a 1/2-byte little-endian length prefix (consumed, not text) counting the
 * payload or itself too. Renders a display text (controls as names, escapes
 * or code points; optional caller tokens) and a lossless fragment string that
 * keeps every text byte, e.g. "{A:$41}{CLR:$93}{REV A:$81}".
 */
import { RetroError, notFound, badRequest } from '../../core/errors.js';
import { TABLES, type CharSet, type CodeEntry, type Encoding } from './petscii.js';
import { TokenExpander, type TokenMode } from './text-tokens.js';
import { hex } from '../../core/hex.js';

export type Framing =
  | { kind: 'length'; length: number }
  | { kind: 'terminator'; terminator: number }
  | { kind: 'prefix'; size: 1 | 2; includesItself: boolean };

export type HighBit = 'exact' | 'strip' | 'annotate_reverse';
export type Controls = 'names' | 'escaped' | 'unicode';

export interface TextOptions {
  encoding: Encoding;
  charset: CharSet;
  highBit: HighBit;
  controls: Controls;
  tokens?: ReadonlyMap<number, string>;
  tokenMode?: TokenMode;
  tokenDepth?: number;
  maxRenderedChars: number;
}

export interface ByteRecord {
  offset: number;
  byte: number;
  role: 'prefix' | 'text' | 'terminator';
  kind: CodeEntry['kind'] | 'framing';
  char?: string;
  name?: string;
  reverse?: boolean;
  fragment?: string;
}

export interface DecodedText {
  text: string;
  lossless: string;
  /** framing and text bytes, in order */
  consumed: number;
  text_offset: number;
  text_length: number;
  records: ByteRecord[];
}

/** Where the text lies in `bytes` under a framing; errors when the bytes end first. */
export function locateText(bytes: Uint8Array, framing: Framing): { start: number; length: number; consumed: number } {
  switch (framing.kind) {
    case 'length':
      if (bytes.length < framing.length) throw short(framing.length, bytes.length);
      return { start: 0, length: framing.length, consumed: framing.length };
    case 'terminator': {
      const at = bytes.indexOf(framing.terminator);
      if (at < 0) {
        throw notFound(`No terminator ${hex(framing.terminator, 2, '$')} within the ${bytes.length} bytes available.`, {
          searched: bytes.length,
        });
      }
      return { start: 0, length: at, consumed: at + 1 };
    }
    case 'prefix': {
      if (bytes.length < framing.size) throw short(framing.size, bytes.length);
      const declared = prefixValue(bytes, framing.size);
      const length = framing.includesItself ? declared - framing.size : declared;
      if (length < 0) {
        throw badRequest(
          `The self-inclusive length prefix says ${declared}, less than its own ${framing.size} bytes.`,
          { declared },
        );
      }
      if (bytes.length < framing.size + length) throw short(framing.size + length, bytes.length);
      return { start: framing.size, length, consumed: framing.size + length };
    }
  }
}

export function prefixValue(bytes: Uint8Array, size: 1 | 2): number {
  return size === 1 ? bytes[0] : bytes[0] | (bytes[1] << 8);
}

function short(needed: number, available: number): RetroError {
  return badRequest(`The text needs ${needed} bytes but the source has only ${available}.`, {
    needed,
    available,
  });
}

/** The table entry a byte decodes to under the high-bit policy. */
function entryFor(byte: number, opts: TextOptions): CodeEntry {
  return TABLES[opts.encoding][opts.charset][opts.highBit === 'strip' ? byte & 0x7f : byte];
}

function controlText(byte: number, name: string | undefined, controls: Controls): string {
  switch (controls) {
    case 'names':
      return `{${name ?? hex(byte, 2, '$')}}`;
    case 'escaped':
      return '\\x' + byte.toString(16).toUpperCase().padStart(2, '0');
    case 'unicode':
      return String.fromCodePoint(byte); // the C0/C1 control of the same value
  }
}

function displayOf(byte: number, opts: TextOptions): string {
  const entry = entryFor(byte, opts);
  const looked = opts.highBit === 'strip' ? byte & 0x7f : byte;
  if (entry.kind !== 'char')
    return controlText(looked, entry.kind === 'control' ? entry.name : undefined, opts.controls);
  const ch = String.fromCodePoint(entry.codePoint);
  return opts.highBit === 'annotate_reverse' && entry.reverse ? `{REV ${ch}}` : ch;
}

/** The lossless fragment of a byte: its original value always survives. */
export function fragmentOf(byte: number, encoding: Encoding, charset: CharSet): string {
  const entry = TABLES[encoding][charset][byte];
  if (entry.kind === 'control') return `{${entry.name}:${hex(byte, 2, '$')}}`;
  if (entry.kind === 'undefined') return `{UNDEF:${hex(byte, 2, '$')}}`;
  const ch = String.fromCodePoint(entry.codePoint);
  return `{${entry.reverse ? 'REV ' + ch : ch}:${hex(byte, 2, '$')}}`;
}

export function checkTextOptions(opts: Pick<TextOptions, 'encoding' | 'highBit'>): void {
  if (opts.highBit === 'annotate_reverse' && opts.encoding !== 'screen') {
    throw badRequest(
      'high_bit "annotate_reverse" applies to screen codes only: in PETSCII the high bit selects other characters, not reverse video.',
    );
  }
}

export function decodeText(bytes: Uint8Array, framing: Framing, opts: TextOptions, maxRecords = 4096): DecodedText {
  checkTextOptions(opts);
  const where = locateText(bytes, framing);
  const expander = new TokenExpander(
    opts.tokens ?? new Map(),
    opts.tokenMode ?? 'single',
    opts.tokenDepth ?? 8,
    opts.maxRenderedChars,
    (b) => displayOf(b, opts),
  );
  let text = '';
  let lossless = '';
  const records: ByteRecord[] = [];
  const record = (r: ByteRecord) => {
    if (where.consumed <= maxRecords) records.push(r);
  };
  for (let i = 0; i < where.start; i++) record({ offset: i, byte: bytes[i], role: 'prefix', kind: 'framing' });
  for (let i = where.start; i < where.start + where.length; i++) {
    const byte = bytes[i];
    const entry = entryFor(byte, opts);
    const fragment = fragmentOf(byte, opts.encoding, opts.charset);
    text += expander.render(byte);
    lossless += fragment; // bounded by the input cap: at most 16 characters per byte
    record({
      offset: i,
      byte,
      role: 'text',
      kind: entry.kind,
      fragment,
      ...(entry.kind === 'char' ? { char: String.fromCodePoint(entry.codePoint), reverse: entry.reverse } : {}),
      ...(entry.kind === 'control' ? { name: entry.name } : {}),
    });
  }
  if (framing.kind === 'terminator')
    record({ offset: where.consumed - 1, byte: bytes[where.consumed - 1], role: 'terminator', kind: 'framing' });
  return { text, lossless, consumed: where.consumed, text_offset: where.start, text_length: where.length, records };
}

/** One code point per character byte, undefined for controls: what search_c64_text matches on. */
export function codePointsOf(
  bytes: Uint8Array,
  opts: Pick<TextOptions, 'encoding' | 'charset' | 'highBit'>,
): (number | undefined)[] {
  const table = TABLES[opts.encoding][opts.charset];
  return Array.from(bytes, (b) => {
    const e = table[opts.highBit === 'strip' ? b & 0x7f : b];
    return e.kind === 'char' ? e.codePoint : undefined;
  });
}
