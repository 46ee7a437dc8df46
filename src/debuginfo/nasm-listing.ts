/**
 * nasm's listing (`-l`) of a flat `-f bin` program read for its data labels: each
 * `name db/dw/dd/dq/times/res…` (or a label alone on the line before one) with its
 * address (the `org` plus the listed offset) and the bytes its line assembles to.
 * A DOS guest's debugger names its variables from them. Only the first section is
 * read: later ones sit at addresses the listing does not give.
 */
import { badDebugInfo } from '../core/errors.js';

export interface NasmDataLabel {
  /** as nasm names it: a local `.x` under the last global label is `global.x` */
  name: string;
  address: number;
  size: number;
  /** the directive: db, dw, dd, dq, dt, times, resb … */
  directive: string;
}

// "    64 000000D2 41                      tag     db 'A'": line number, offset, bytes (a "-" continues them on
// the next row), then an include depth "<1>" and the source
const ROW = /^\s*\d+ (?:([0-9A-F]{8}) ((?:[^\s<]|<(?:rep|res) [0-9A-F]+h>)+))?\s*(?:<\d+>\s?)?(.*)$/i;
const LABEL = /^([A-Za-z_.?@$][\w.?@$#~]*)(:?)\s*(.*)$/;
const DATA = /^(d[bwdqt]|times|res[bwdqt]|incbin)\b/i;
const ORG = /^org\s+(\S+)/i;
const SECTION = /^(section|segment)\s+(\S+)/i;

/** Bytes a row's byte column stands for: hex pairs, "??" for reserved space, "<rep Nh>"/"<res Nh>". */
function byteCount(field: string): number {
  const res = /<res ([0-9A-F]+)h>/i.exec(field);
  if (res) return parseInt(res[1], 16);
  const rep = /^(.*?)<rep ([0-9A-F]+)h>/i.exec(field);
  const pairs = (s: string) => s.replace(/[^0-9A-F?]/gi, '').length / 2;
  return rep ? pairs(rep[1]) * parseInt(rep[2], 16) : pairs(field);
}

function orgValue(text: string, line: number): number {
  const t = text.replace(/;.*$/, '').trim();
  const n = /^0x[0-9a-f]+$/i.test(t)
    ? parseInt(t, 16)
    : /^[0-9][0-9a-f]*h$/i.test(t)
      ? parseInt(t.slice(0, -1), 16)
      : /^\d+$/.test(t)
        ? Number(t)
        : NaN;
  if (!Number.isInteger(n)) throw badDebugInfo(`nasm listing line ${line}: "org ${t}" is no number this reader takes.`);
  return n;
}

/** Bytes the listing shows plainly at an address (not relocated words, reserved space or repeats). */
export interface NasmListedBytes {
  address: number;
  bytes: Buffer;
}

export function parseNasmListing(text: string): { labels: NasmDataLabel[]; listed: NasmListedBytes[] } {
  const labels: NasmDataLabel[] = [];
  const listed: NasmListedBytes[] = [];
  let org = 0;
  let global = '';
  let pending: string | undefined; // a label alone on its row, waiting for the data row after it
  let last: NasmDataLabel | undefined; // the label whose bytes a "-" row continues
  let sections = 0;
  const rows = text.split(/\r?\n/);
  for (let i = 0; i < rows.length; i++) {
    const m = ROW.exec(rows[i]);
    if (!m) continue;
    const [, offset, bytes, rawSource] = m;
    const plain = bytes && /^([0-9A-F]{2})+-?$/i.exec(bytes);
    if (offset && plain && sections <= 1)
      listed.push({ address: org + parseInt(offset, 16), bytes: Buffer.from(plain[0].replace('-', ''), 'hex') });
    const source = rawSource.replace(/;.*$/, '').trim();
    if (offset && !source && last) {
      last.size += byteCount(bytes); // a continuation row of the label's bytes
      continue;
    }
    last = undefined;
    if (!source || source.startsWith('*')) continue; // a blank row or nasm's warning under a row
    const section = SECTION.exec(source);
    if (section && ++sections > 1) break;
    const org1 = ORG.exec(source);
    if (org1) {
      org = orgValue(org1[1], i + 1);
      continue;
    }
    const label = LABEL.exec(source);
    let name: string | undefined;
    let rest = source;
    if (label && (label[2] || DATA.test(label[3]))) {
      name = label[1].startsWith('.') ? `${global}${label[1]}` : label[1];
      if (!label[1].startsWith('.')) global = label[1];
      rest = label[3];
    }
    if (name && !rest) {
      pending = name;
      continue;
    }
    const directive = DATA.exec(rest)?.[1].toLowerCase();
    const owner = name ?? pending;
    pending = undefined;
    if (!directive || !owner || !offset) continue;
    last = { name: owner, address: org + parseInt(offset, 16), size: byteCount(bytes ?? ''), directive };
    labels.push(last);
  }
  return { labels, listed };
}
