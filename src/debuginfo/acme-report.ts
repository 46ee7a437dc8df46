/**
 * ACME's report file (`acme -r NAME.rep`) → the common model (asm-listing.ts). Each source block starts with
 * `; ******** Source: FILE`; each line is fixed columns: the line number right-aligned in 6, the address in
 * 4 hex digits at column 8, the bytes in hex at column 13 (cut short by ACME for long data), the source text from
 * column 32. Local labels start with '.' (zone) or '@' (cheap).
 */
import { badDebugInfo, tooLarge } from '../core/errors.js';
import type { DebugInfo } from './model.js';
import { debugInfoFromListing, splitStatement, type ListingRow } from './asm-listing.js';

const SOURCE_HEADER = /^; \*{8} Source: (.+)$/;
const MAX_ROWS = 1_000_000;

/** Whether `text` looks like an ACME report (its first non-empty line names a source). */
export function isAcmeReport(text: string): boolean {
  return SOURCE_HEADER.test(text.trimStart().split('\n', 1)[0].replace(/\r$/, ''));
}

export function parseAcmeReport(text: string, opts: { fileName?: string } = {}): DebugInfo {
  const where = opts.fileName ?? 'the ACME report';
  const rows: ListingRow[] = [];
  let file: string | undefined;
  let pendingLabel: { label: string; line: number } | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    const header = SOURCE_HEADER.exec(raw);
    if (header) {
      file = header[1];
      continue;
    }
    if (!raw.trim()) continue;
    const lineNo = Number(raw.slice(0, 6));
    if (!file || !Number.isInteger(lineNo) || lineNo <= 0) {
      throw badDebugInfo(`${where}:${i + 1}: not an ACME report line: ${JSON.stringify(raw.slice(0, 60))}`);
    }
    const addressText = raw.slice(8, 12).trim();
    const source = raw.slice(32);
    const { label, instruction } = splitStatement(source, '.@');
    if (!addressText) {
      if (label) pendingLabel = { label, line: lineNo }; // a label alone: it names the next line's address
      continue;
    }
    const address = parseInt(addressText, 16);
    const hex = raw.slice(13, 32).trim().replace(/\.+$/, '');
    const bytes = (hex.match(/[0-9a-f]{2}/gi) ?? []).map((b) => parseInt(b, 16));
    if (Number.isNaN(address)) throw badDebugInfo(`${where}:${i + 1}: the address "${addressText}" is not hex.`);
    if (pendingLabel && !label) rows.push({ file, address, bytes: [], code: false, ...pendingLabel });
    pendingLabel = undefined;
    rows.push({
      file,
      line: lineNo,
      address,
      bytes,
      code: instruction && bytes.length > 0,
      ...(label ? { label } : {}),
    });
    if (rows.length > MAX_ROWS) throw tooLarge(`${where} has more than ${MAX_ROWS} lines.`);
  }
  return debugInfoFromListing('acme-report', rows);
}
