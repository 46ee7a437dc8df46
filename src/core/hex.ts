/**
 * The one hex formatter. Three prefix styles, because each audience reads its own:
 * `0x` (C, DAP, MCP), `$` (6502 assemblers, VICE), none (inside tables and DOS seg:off).
 */
export type HexPrefix = '0x' | '$' | '';

/** `hex(0xd020)` → "0xD020"; `hex(1, 2, '$')` → "$01". Upper case, zero-padded to `digits`. */
export function hex(value: number, digits = 4, prefix: HexPrefix = '0x'): string {
  return prefix + value.toString(16).toUpperCase().padStart(digits, '0');
}

/** Bytes as hex pairs: `hexBytes(b)` → "a9 00 8d" (for people); `hexBytes(b, '', true)` → "A9008D" (for data). */
export function hexBytes(bytes: Uint8Array, separator = ' ', upper = false): string {
  // Buffer's encoder: a 64 KiB read_memory spent 15 ms in a per-byte toString/join, this takes 0.3 ms
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  if (separator) text = text.replace(/..(?!$)/g, `$&${separator.replace(/\$/g, '$$$$')}`);
  return upper ? text.toUpperCase() : text;
}
