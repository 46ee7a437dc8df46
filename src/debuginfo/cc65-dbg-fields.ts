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

/** Named stores (a computed key would be looked up in V8's string table for every field); other keys are dropped. */
function setField(rec: DbgFields, key: string, value: string): void {
  switch (key) {
    case 'id':
      rec.id = value;
      break;
    case 'name':
      rec.name = value;
      break;
    case 'file':
      rec.file = value;
      break;
    case 'line':
      rec.line = value;
      break;
    case 'type':
      rec.type = value;
      break;
    case 'span':
      rec.span = value;
      break;
    case 'seg':
      rec.seg = value;
      break;
    case 'start':
      rec.start = value;
      break;
    case 'size':
      rec.size = value;
      break;
    case 'scope':
      rec.scope = value;
      break;
    case 'sym':
      rec.sym = value;
      break;
    case 'sc':
      rec.sc = value;
      break;
    case 'offs':
      rec.offs = value;
      break;
    case 'val':
      rec.val = value;
      break;
    case 'mod':
      rec.mod = value;
      break;
    case 'major':
      rec.major = value;
  }
}

/**
 * `key=value,key="quoted, with commas",…` from `from`, by index: this runs
 * once per record of files with millions. Keys we never read are skipped.
 */
export function parseFields(body: string, from: number, end = body.length): DbgRec {
  const rec = emptyRec();
  const n = end;
  let i = from;
  while (i < n) {
    const eq = body.indexOf('=', i);
    if (eq < 0 || eq >= n) break;
    const key = body.slice(i, eq);
    if (body.charCodeAt(eq + 1) === QUOTE) {
      let j = eq + 2;
      let escaped = false;
      for (; j < n && body.charCodeAt(j) !== QUOTE; j++) {
        if (body.charCodeAt(j) === BACKSLASH) {
          escaped = true;
          j++;
        }
      }
      const raw = body.slice(eq + 2, j);
      setField(rec, key, escaped ? raw.replace(/\\(.)/g, '$1') : raw);
      i = j + 2; // past the closing quote and its comma
    } else {
      const comma = body.indexOf(',', eq + 1);
      const stop = comma < 0 || comma > n ? n : comma;
      setField(rec, key, body.slice(eq + 1, stop));
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
 * record's id was the reader's hottest line). A record may be kept as its text's bounds and read on first use
 * (spans: most are the assembler's, which nothing reads).
 */
export class RecTable {
  private readonly byId: (DbgRec | number | undefined)[] = [];
  /** the text bounds of records kept unread: byId holds the index into these */
  private readonly from: number[] = [];
  private readonly end: number[] = [];
  private readonly order: number[] = [];
  /** ids an array should not hold (negative, fractional, huge) */
  private other?: Map<number, DbgRec>;

  constructor(private readonly text = '') {}

  set(id: number, rec: DbgRec): void {
    if (!isDense(id)) {
      this.other ??= new Map();
      if (!this.other.has(id)) this.order.push(id);
      this.other.set(id, rec);
      return;
    }
    if (this.byId[id] === undefined) this.order.push(id);
    this.byId[id] = rec;
  }

  /** A record whose fields are read from text[from, end) when first asked for. */
  setUnread(id: number, from: number, end: number): void {
    if (this.byId[id] === undefined) this.order.push(id);
    this.byId[id] = this.from.length;
    this.from.push(from);
    this.end.push(end);
  }

  get(id: number): DbgRec | undefined {
    if (!isDense(id)) return this.other?.get(id);
    const r = this.byId[id];
    if (typeof r !== 'number') return r;
    const rec = parseFields(this.text, this.from[r], this.end[r]);
    this.byId[id] = rec;
    return rec;
  }

  *entries(): IterableIterator<[number, DbgRec]> {
    for (const id of this.order) yield [id, this.get(id)!];
  }

  *values(): IterableIterator<DbgRec> {
    for (const id of this.order) yield this.get(id)!;
  }

  [Symbol.iterator](): IterableIterator<[number, DbgRec]> {
    return this.entries();
  }
}

/** Ids an array holds well. */
const MAX_DENSE_ID = 1 << 24;

function isDense(id: number): boolean {
  return Number.isInteger(id) && id >= 0 && id < MAX_DENSE_ID;
}
