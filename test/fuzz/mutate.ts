/**
 * A small deterministic mutational fuzzer: a seeded PRNG and byte/text
 * mutators (bit flips, interesting integers, insertions, deletions,
 * truncation, splicing with other seeds, line-level edits for text formats).
 */

export type Rng = () => number;

/** mulberry32: tiny, fast, reproducible from one 32-bit seed. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (r: Rng, n: number) => Math.floor(r() * n);
const INTERESTING = [0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0xffffffff];

/** One to four byte-level edits of `input` (never grows past `maxLength`). */
export function mutateBytes(r: Rng, input: Buffer, pool: readonly Buffer[], maxLength = 1 << 16): Buffer {
  let b = Buffer.from(input);
  for (let n = 1 + int(r, 4); n > 0; n--) {
    const at = b.length ? int(r, b.length) : 0;
    switch (int(r, 8)) {
      case 0: // bit flip
        if (b.length) b[at] ^= 1 << int(r, 8);
        break;
      case 1: // random byte
        if (b.length) b[at] = int(r, 256);
        break;
      case 2: {
        // interesting little-endian integer
        const v = INTERESTING[int(r, INTERESTING.length)];
        const width = [1, 2, 4][int(r, 3)];
        for (let i = 0; i < width && at + i < b.length; i++) b[at + i] = (v >>> (8 * i)) & 0xff;
        break;
      }
      case 3: // delete a run
        b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1 + int(r, 16))]);
        break;
      case 4: {
        // insert random bytes
        const ins = Buffer.alloc(1 + int(r, 16));
        for (let i = 0; i < ins.length; i++) ins[i] = int(r, 256);
        b = Buffer.concat([b.subarray(0, at), ins, b.subarray(at)]);
        break;
      }
      case 5: // truncate
        b = b.subarray(0, at);
        break;
      case 6: {
        // splice a piece of another seed
        const other = pool.length ? pool[int(r, pool.length)] : b;
        if (other.length) {
          const from = int(r, other.length);
          b = Buffer.concat([b.subarray(0, at), other.subarray(from, from + 1 + int(r, 64)), b.subarray(at)]);
        }
        break;
      }
      default: {
        // duplicate a run
        const run = b.subarray(at, at + 1 + int(r, 32));
        b = Buffer.concat([b.subarray(0, at), run, run, b.subarray(at)]);
      }
    }
  }
  return b.length > maxLength ? b.subarray(0, maxLength) : b;
}

/** Line- and field-level edits for text formats, mixed with byte edits. */
export function mutateText(r: Rng, input: string, pool: readonly string[]): string {
  let lines = input.split('\n');
  for (let n = 1 + int(r, 3); n > 0; n--) {
    const at = int(r, Math.max(1, lines.length));
    switch (int(r, 7)) {
      case 0: // drop a line
        lines.splice(at, 1);
        break;
      case 1: // duplicate a line
        lines.splice(at, 0, lines[at] ?? '');
        break;
      case 2: {
        // a line from another seed
        const other = pool[int(r, pool.length)].split('\n');
        lines.splice(at, 0, other[int(r, other.length)] ?? '');
        break;
      }
      case 3: {
        // drop one field (comma, colon, tab, '=' or '$' separated)
        const line = lines[at] ?? '';
        const parts = line.split(/([,:\t=$])/);
        parts.splice(int(r, parts.length), 2);
        lines[at] = parts.join('');
        break;
      }
      case 4: {
        // replace a number with an interesting one
        lines[at] = (lines[at] ?? '').replace(/\d+/, () =>
          String([0, -1, 65535, 65536, 2 ** 31, 2 ** 53, 1e308][int(r, 7)]),
        );
        break;
      }
      case 5: // truncate the text here
        lines = lines.slice(0, at + 1);
        lines[at] = (lines[at] ?? '').slice(0, int(r, (lines[at] ?? '').length + 1));
        break;
      default:
        lines[at] = mutateBytes(r, Buffer.from(lines[at] ?? '', 'latin1'), [], 4096).toString('latin1');
    }
  }
  return lines.join('\n');
}

/** Mutates a JSON value structurally: drop, null, retype or duplicate members. */
export function mutateJson(r: Rng, value: unknown, depth = 0): unknown {
  const pick = int(r, depth > 3 ? 4 : 6);
  if (pick === 0) return null;
  if (pick === 1) return [0, -1, 1.5, 2 ** 40, '', 'x'.repeat(300), '0x', true, [], {}, [null]][int(r, 11)];
  if (Array.isArray(value)) {
    const out = value.map((v) => (r() < 0.3 ? mutateJson(r, v, depth + 1) : v));
    if (r() < 0.3) out.push(null);
    if (r() < 0.2) out.splice(int(r, out.length + 1), 1);
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(out);
    for (const k of keys) {
      if (r() < 0.15) delete out[k];
      else if (r() < 0.3) out[k] = mutateJson(r, out[k], depth + 1);
    }
    if (r() < 0.1) out[['__proto__', 'constructor', 'toString', 'a', ''][int(r, 5)]] = mutateJson(r, null, depth + 1);
    return out;
  }
  return value;
}
