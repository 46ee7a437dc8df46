/** Intel HEX (record types 00 data, 01 end) as linkers of 8-bit machines write it: the image and its span. Pure. */
import { launchFailed } from './errors.js';

/** Erased-EPROM fill, as makebin pads. */
export const IHX_FILL = 0xff;

export interface IntelHexImage {
  /** `size` bytes, the fill where no record wrote */
  image: Buffer;
  /** lowest address written (size when nothing was) */
  low: number;
  /** one past the highest address written (0 when nothing was) */
  high: number;
}

/** `fill` where no record wrote: an EPROM's erased 0xFF by default; 0 for an image loaded into RAM. */
export function parseIntelHex(text: string, size: number, name = 'the .ihx file', fill = IHX_FILL): IntelHexImage {
  const image = Buffer.alloc(size, fill);
  let low = size;
  let high = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const bad = (why: string) => launchFailed(`${name} line ${i + 1}: ${why}`);
    if (!/^:([0-9a-fA-F]{2})+$/.test(line)) throw bad('not an Intel HEX record');
    const rec = Buffer.from(line.slice(1), 'hex');
    const count = rec[0];
    if (rec.length !== count + 5) throw bad('record length does not match its byte count');
    const sum = rec.reduce((a, b) => (a + b) & 0xff, 0);
    if (sum !== 0) throw bad('checksum mismatch');
    const type = rec[3];
    if (type === 1) break;
    if (type !== 0 || count === 0) continue; // extended address records do not occur for 64 KiB Z80 images
    const addr = rec.readUInt16BE(1);
    if (addr + count > size) throw bad(`data at 0x${addr.toString(16)} lies beyond the ${size}-byte image`);
    rec.copy(image, addr, 4, 4 + count);
    low = Math.min(low, addr);
    high = Math.max(high, addr + count);
  }
  return { image, low, high };
}
