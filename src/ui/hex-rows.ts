/**
 * The built-in hex view's text: rows of 16 bytes with an address, hex pairs and a character column, and the
 * parse of a typed write ("$C000: 01 02" / "0xc000 = 1 2"). Pure, so it is tested without VS Code.
 */
import { badRequest } from '../core/errors.js';
import { hex } from '../core/hex.js';

export const ROW_BYTES = 16;

/** PETSCII (unshifted) shows letters at $41–$5A as ASCII does and shifted letters at $C1–$DA; the rest is '.' */
function charOf(byte: number, petscii: boolean): string {
  if (petscii && byte >= 0xc1 && byte <= 0xda) return String.fromCharCode(byte - 0x80);
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
}

export interface HexRow {
  address: string;
  bytes: string[];
  chars: string;
}

export function hexRows(base: number, data: Uint8Array, petscii: boolean): HexRow[] {
  const rows: HexRow[] = [];
  for (let at = 0; at < data.length; at += ROW_BYTES) {
    const slice = Array.from(data.subarray(at, at + ROW_BYTES));
    rows.push({
      address: hex(base + at, base + data.length > 0x10000 ? 6 : 4, ''),
      bytes: slice.map((b) => hex(b, 2, '')),
      chars: slice.map((b) => charOf(b, petscii)).join(''),
    });
  }
  return rows;
}

function number(text: string): number {
  const value = /^\$/.test(text) ? parseInt(text.slice(1), 16) : /^0x/i.test(text) ? parseInt(text, 16) : Number(text);
  if (!Number.isInteger(value) || value < 0 || !/^(\$|0x)?[0-9a-f]+$/i.test(text)) {
    throw badRequest(`"${text}" is not a number (write $C000, 0xC000 or 49152).`);
  }
  return value;
}

/** "$C000: 01 02 $FF" → address 0xC000, bytes [1, 2, 255]; bytes are hex unless written as 0x…/$… or decimal is not meant */
export function parseHexWrite(text: string): { address: number; bytes: Uint8Array } {
  const match = /^\s*(\S+?)\s*[:=]\s*(.+?)\s*$/.exec(text);
  if (!match) throw badRequest('Write as "ADDRESS: BYTES", for example "$C000: 01 02 FF".');
  const address = number(match[1]);
  const bytes = match[2].split(/[\s,]+/).map((part) => {
    const value = number(/^(\$|0x)/i.test(part) ? part : `$${part}`);
    if (value > 0xff) throw badRequest(`${part} does not fit in a byte.`);
    return value;
  });
  return { address, bytes: Uint8Array.from(bytes) };
}
