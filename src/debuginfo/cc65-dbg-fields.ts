/**
 * One cc65 .dbg record's fields (`key=value,key="quoted, with commas",…`):
 * the reader parseCc65Dbg runs on every record of files with millions of
 * them, so it works by index, stores only the keys the builder reads, and
 * gives every record the same object shape.
 */
/** A record's fields by key (absent ones undefined). */
export type DbgRec = Record<string, string>;

/** The fields we read; a record always has all of them (undefined when absent), so records share one shape. */
interface DbgFields {
  id?: string;
  name?: string;
  file?: string;
  line?: string;
  type?: string;
  span?: string;
  seg?: string;
  start?: string;
  size?: string;
  scope?: string;
  sym?: string;
  sc?: string;
  offs?: string;
  val?: string;
  mod?: string;
  major?: string;
}

function emptyRec(): DbgRec {
  const rec: DbgFields = {
    id: undefined,
    name: undefined,
    file: undefined,
    line: undefined,
    type: undefined,
    span: undefined,
    seg: undefined,
    start: undefined,
    size: undefined,
    scope: undefined,
    sym: undefined,
    sc: undefined,
    offs: undefined,
    val: undefined,
    mod: undefined,
    major: undefined,
  };
  return rec as DbgRec;
}

/** The keys the builder reads, by their code in setField; a record's other keys are skipped unread. */
const KEYS = [
  'id',
  'name',
  'file',
  'line',
  'type',
  'span',
  'seg',
  'start',
  'size',
  'scope',
  'sym',
  'sc',
  'offs',
  'val',
  'mod',
  'major',
];

/** The code of the key at body[from, eq), or -1 for one we never read: compared in place, no string per field. */
function keyCode(body: string, from: number, eq: number): number {
  const length = eq - from;
  for (let k = 0; k < KEYS.length; k++) if (KEYS[k].length === length && body.startsWith(KEYS[k], from)) return k;
  return -1;
}

/** Named stores by key code (a computed key would be looked up in V8's string table for every field). */
function setField(rec: DbgFields, code: number, value: string): void {
  switch (code) {
    case 0:
      rec.id = value;
      break;
    case 1:
      rec.name = value;
      break;
    case 2:
      rec.file = value;
      break;
    case 3:
      rec.line = value;
      break;
    case 4:
      rec.type = value;
      break;
    case 5:
      rec.span = value;
      break;
    case 6:
      rec.seg = value;
      break;
    case 7:
      rec.start = value;
      break;
    case 8:
      rec.size = value;
      break;
    case 9:
      rec.scope = value;
      break;
    case 10:
      rec.sym = value;
      break;
    case 11:
      rec.sc = value;
      break;
    case 12:
      rec.offs = value;
      break;
    case 13:
      rec.val = value;
      break;
    case 14:
      rec.mod = value;
      break;
    case 15:
      rec.major = value;
  }
}

/**
 * `key=value,key="quoted, with commas",…` from `from`, by index: this runs
 * once per record of files with millions. Keys we never read are skipped, their values unread.
 */
export function parseFields(body: string, from: number, end = body.length): DbgRec {
  const rec = emptyRec();
  const n = end;
  let i = from;
  while (i < n) {
    const eq = body.indexOf('=', i);
    if (eq < 0 || eq >= n) break;
    const code = keyCode(body, i, eq);
    if (body.charCodeAt(eq + 1) === QUOTE) {
      let j = eq + 2;
      let escaped = false;
      for (; j < n && body.charCodeAt(j) !== QUOTE; j++) {
        if (body.charCodeAt(j) === BACKSLASH) {
          escaped = true;
          j++;
        }
      }
      if (code >= 0) {
        const raw = body.slice(eq + 2, j);
        setField(rec, code, escaped ? raw.replace(/\\(.)/g, '$1') : raw);
      }
      i = j + 2; // past the closing quote and its comma
    } else {
      const comma = body.indexOf(',', eq + 1);
      const stop = comma < 0 || comma > n ? n : comma;
      if (code >= 0) setField(rec, code, body.slice(eq + 1, stop));
      i = stop + 1;
    }
  }
  return rec;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * One kind's records by id, in the order the file lists them (a repeated id: the last record, at the first's
 * place, as a Map does). Ids are dense small integers in ld65's output: an array, not a Map (hashing every
 * record's id was the reader's hottest line). A record may be kept unread, as where its fields start in the text
 * (spans: most are the assembler's, which nothing reads): a field of it is then read in place, and the whole
 * record parsed when asked for (and kept so unless `keepParsed` is false, for kinds read once).
 */
export class RecTable {
  /** by id: the parsed record */
  private readonly recs: (DbgRec | undefined)[] = [];
  /** by id: where an unread record's fields start in the text (-1: none); a typed array, off the JS heap */
  private unread = new Int32Array(0);
  /** ids in file order once they are not 0, 1, 2, … (ld65 writes them so: no list is kept then); any number */
  private order?: number[];
  private count = 0;
  /** ids an array should not hold (negative, fractional, huge) */
  private other?: Map<number, DbgRec>;

  constructor(
    private readonly text = '',
    private readonly opts: { keepParsed: boolean } = { keepParsed: true },
  ) {}

  set(id: number, rec: DbgRec): void {
    if (!isDense(id)) {
      this.other ??= new Map();
      if (!this.other.has(id)) this.listed(id);
      this.other.set(id, rec);
      return;
    }
    if (!this.has(id)) this.listed(id);
    if (id < this.unread.length) this.unread[id] = -1;
    this.recs[id] = rec;
  }

  /**
   * A record whose fields, from text[from] to its line's end, are read when asked for; false (nothing kept) for an id
   * too big to index a table by (the caller parses the record then).
   */
  setUnread(id: number, from: number): boolean {
    if (!(id >= 0 && id < MAX_UNREAD_ID)) return false;
    if (!this.has(id)) this.listed(id);
    if (id < this.recs.length) this.recs[id] = undefined;
    if (id >= this.unread.length) {
      const grown = new Int32Array(Math.max(256, this.unread.length * 2, id + 1)).fill(-1);
      grown.set(this.unread);
      this.unread = grown;
    }
    this.unread[id] = from;
    return true;
  }

  private listed(id: number): void {
    if (!this.order && id !== this.count) this.order = Array.from({ length: this.count }, (_, k) => k);
    this.order?.push(id);
    this.count++;
  }

  /** Every dense id is below this. */
  get idLimit(): number {
    return Math.max(this.recs.length, this.unread.length);
  }

  has(id: number): boolean {
    if (!isDense(id)) return this.other?.has(id) ?? false;
    return this.recs[id] !== undefined || this.unreadAt(id) >= 0;
  }

  get(id: number): DbgRec | undefined {
    if (!isDense(id)) return this.other?.get(id);
    const from = this.unreadAt(id);
    if (from < 0) return this.recs[id];
    const rec = parseFields(this.text, from, this.lineEnd(from));
    if (this.opts.keepParsed) {
      this.recs[id] = rec;
      this.unread[id] = -1;
    }
    return rec;
  }

  /** One field's text, read in place when the record is unread (no record made). */
  field(id: number, key: string): string | undefined {
    const from = isDense(id) ? this.unreadAt(id) : -1;
    if (from < 0) return this.get(id)?.[key];
    const at = this.valueAt(from, key);
    return at < 0 ? undefined : this.text.slice(at, valueEnd(this.text, at, this.lineEnd(from)));
  }

  /** One field as a number (decimal or 0x hex), read in place when the record is unread; NaN when not one. */
  numberField(id: number, key: string): number {
    const from = isDense(id) ? this.unreadAt(id) : -1;
    if (from < 0) return toNumber(this.get(id)?.[key]);
    const at = this.valueAt(from, key);
    return at < 0 ? NaN : numberAt(this.text, at, valueEnd(this.text, at, this.lineEnd(from)));
  }

  /** The ids in file order. */
  ids(): number[] {
    return this.order ?? Array.from({ length: this.count }, (_, k) => k);
  }

  /** The records in file order. */
  values(): DbgRec[] {
    const ids = this.ids();
    const out = new Array<DbgRec>(ids.length);
    for (let k = 0; k < ids.length; k++) out[k] = this.get(ids[k])!;
    return out;
  }

  private unreadAt(id: number): number {
    return id < this.unread.length ? this.unread[id] : -1;
  }

  private lineEnd(from: number): number {
    const nl = this.text.indexOf('\n', from);
    const end = nl < 0 ? this.text.length : nl;
    return end > from && this.text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
  }

  /** Where `key`'s value starts in the record at `from` (a field start is the record's or follows a comma), or -1. */
  private valueAt(from: number, key: string): number {
    const end = this.lineEnd(from);
    for (let at = from; at < end;) {
      if (this.text.startsWith(key, at) && this.text.charCodeAt(at + key.length) === 0x3d /* = */)
        return at + key.length + 1;
      const eq = this.text.indexOf('=', at);
      if (eq < 0 || eq >= end) return -1;
      at = valueEnd(this.text, eq + 1, end) + 1;
    }
    return -1;
  }
}

/** The end of the value starting at `at` (past a quoted one's closing quote), at most `end`. */
function valueEnd(text: string, at: number, end: number): number {
  if (text.charCodeAt(at) === QUOTE) {
    let j = at + 1;
    for (; j < end && text.charCodeAt(j) !== QUOTE; j++) if (text.charCodeAt(j) === BACKSLASH) j++;
    return Math.min(j + 1, end);
  }
  const comma = text.indexOf(',', at);
  return comma < 0 || comma > end ? end : comma;
}

/** A field's text as a number: decimal, or hex after 0x; NaN otherwise. */
function toNumber(value: string | undefined): number {
  return value === undefined ? NaN : numberAt(value, 0, value.length);
}

/** text[at, end) as a number: decimal digits (a leading minus allowed), or hex digits after 0x; NaN otherwise. */
function numberAt(text: string, at: number, end: number): number {
  const hex = text.charCodeAt(at) === 0x30 && (text.charCodeAt(at + 1) | 0x20) === 0x78; // 0x
  const negative = !hex && text.charCodeAt(at) === 0x2d;
  let i = hex ? at + 2 : negative ? at + 1 : at;
  if (i >= end) return NaN;
  let value = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    const d =
      c >= 0x30 && c <= 0x39 ? c - 0x30 : hex && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (d < 0) return NaN;
    value = value * (hex ? 16 : 10) + d;
  }
  return negative ? -value : value;
}

/** Unread records are indexed by id in a typed array up to this (ld65 numbers from 0; MAX_RECORDS is 2,000,000). */
const MAX_UNREAD_ID = 1 << 21;

/** Ids an array holds well. */
const MAX_DENSE_ID = 1 << 24;

function isDense(id: number): boolean {
  return Number.isInteger(id) && id >= 0 && id < MAX_DENSE_ID;
}
