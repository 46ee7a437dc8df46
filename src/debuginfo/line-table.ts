/**
 * A program's C line table (address → file:line) as parallel typed arrays
 * sorted by address, not an object per line: a big program has hundreds of
 * thousands of lines, and objects that live as long as the program cost the
 * garbage collector a copy each while loading. `at(i)` builds a LineEntry
 * for the few callers that want one.
 */
import { IntColumn } from './int-column.js';
import { lowerBound } from './sorted.js';

/** One C line's code start, as `LineTable.at` gives it. */
export interface LineEntry {
  file: string; // as written in the debug info (usually relative)
  line: number;
  address: number;
  bank?: number;
  /** C lexical block level and id of the code at this line (SDCC), for scoping locals */
  level?: number;
  block?: number;
}

/** Absent bank, level or block. */
const NONE = -1;

export class LineTable implements Iterable<LineEntry> {
  /** Columns of one length, sorted by address; LineTableBuilder makes them. */
  constructor(
    /** distinct files, in the order the table first names them */
    readonly files: readonly string[],
    private readonly fileIds: Int32Array,
    readonly addresses: Int32Array,
    readonly lineNumbers: Int32Array,
    private readonly banks: Int32Array | undefined,
    private readonly levels: Int32Array | undefined,
    private readonly blocks: Int32Array | undefined,
  ) {}

  static readonly EMPTY = new LineTable(
    [],
    new Int32Array(0),
    new Int32Array(0),
    new Int32Array(0),
    undefined,
    undefined,
    undefined,
  );

  /** A table of `entries`, sorted by address (stable: entries at one address keep their order). */
  static from(entries: Iterable<LineEntry>): LineTable {
    const b = new LineTableBuilder();
    for (const e of entries) b.add(e.file, e.line, e.address, e.bank, e.level, e.block);
    return b.build();
  }

  get length(): number {
    return this.addresses.length;
  }

  address(i: number): number {
    return this.addresses[i];
  }

  line(i: number): number {
    return this.lineNumbers[i];
  }

  file(i: number): string {
    return this.files[this.fileIds[i]];
  }

  /** Index of the line's file in `files`. */
  fileId(i: number): number {
    return this.fileIds[i];
  }

  bank(i: number): number | undefined {
    return optional(this.banks, i);
  }

  level(i: number): number | undefined {
    return optional(this.levels, i);
  }

  block(i: number): number | undefined {
    return optional(this.blocks, i);
  }

  /** First index whose address is >= `address`. */
  lowerBound(address: number): number {
    return lowerBound(this.addresses, address);
  }

  at(i: number): LineEntry | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const e: LineEntry = { file: this.file(i), line: this.lineNumbers[i], address: this.addresses[i] };
    const bank = this.bank(i);
    const level = this.level(i);
    const block = this.block(i);
    if (bank !== undefined) e.bank = bank;
    if (level !== undefined) e.level = level;
    if (block !== undefined) e.block = block;
    return e;
  }

  *[Symbol.iterator](): Iterator<LineEntry> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }

  map<T>(fn: (entry: LineEntry, i: number) => T): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.length; i++) out.push(fn(this.at(i)!, i));
    return out;
  }

  filter(fn: (entry: LineEntry, i: number) => boolean): LineEntry[] {
    const out: LineEntry[] = [];
    for (let i = 0; i < this.length; i++) {
      const e = this.at(i)!;
      if (fn(e, i)) out.push(e);
    }
    return out;
  }
}

function optional(column: Int32Array | undefined, i: number): number | undefined {
  if (!column) return undefined;
  const v = column[i];
  return v === NONE ? undefined : v;
}

/** Growable columns of numbers, in typed arrays. */
export class LineTableBuilder {
  private readonly files: string[] = [];
  private readonly fileIndex = new Map<string, number>();
  private lastFile: string | undefined;
  private lastFileId = 0;
  private readonly fileIds = new IntColumn();
  private readonly addresses = new IntColumn();
  private readonly lines = new IntColumn();
  private banks?: IntColumn;
  private levels?: IntColumn;
  private blocks?: IntColumn;

  get length(): number {
    return this.addresses.length;
  }

  add(file: string, line: number, address: number, bank?: number, level?: number, block?: number): void {
    // runs of one file are the rule: its id looked up once a run
    if (file !== this.lastFile) {
      let id = this.fileIndex.get(file);
      if (id === undefined) {
        id = this.files.length;
        this.files.push(file);
        this.fileIndex.set(file, id);
      }
      this.lastFile = file;
      this.lastFileId = id;
    }
    const i = this.addresses.length;
    this.fileIds.push(this.lastFileId);
    this.addresses.push(address);
    this.lines.push(line);
    this.banks = column(this.banks, i, bank);
    this.levels = column(this.levels, i, level);
    this.blocks = column(this.blocks, i, block);
  }

  /** The file of the last entry added: a reader that finds the same name again can pass this on, not a copy. */
  get lastFileName(): string | undefined {
    return this.lastFile;
  }

  /** The file as `add` was given it, for callers that map files (e.g. SDCC's module files). */
  fileNames(): readonly string[] {
    return this.files;
  }

  /**
   * The table sorted by address; `byLineToo`: entries at one address also by line (cc65's order).
   * Stable otherwise: entries at one address keep the order they were added in.
   */
  build(opts: { byLineToo?: boolean } = {}): LineTable {
    const n = this.addresses.length;
    const addresses = this.addresses.view();
    const lines = this.lines.view();
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) {
      const d = addresses[i] - addresses[i - 1];
      sorted = d > 0 || (d === 0 && (!opts.byLineToo || lines[i] >= lines[i - 1]));
    }
    let order: ArrayLike<number> | undefined;
    if (!sorted) {
      const o = new Array<number>(n);
      for (let i = 0; i < n; i++) o[i] = i;
      o.sort(
        opts.byLineToo
          ? (x, y) => addresses[x] - addresses[y] || lines[x] - lines[y] || x - y
          : (x, y) => addresses[x] - addresses[y] || x - y,
      );
      order = o;
    }
    // files in the order the sorted table names them, as the model's file list always was
    const remap = new Int32Array(this.files.length).fill(NONE);
    const files: string[] = [];
    const fileIds = new Int32Array(n);
    const added = this.fileIds.view();
    for (let k = 0; k < n; k++) {
      const old = added[order ? order[k] : k];
      if (remap[old] === NONE) {
        remap[old] = files.length;
        files.push(this.files[old]);
      }
      fileIds[k] = remap[old];
    }
    return new LineTable(
      files,
      fileIds,
      permuted(addresses, order),
      permuted(lines, order),
      this.banks && permuted(this.banks.view(), order),
      this.levels && permuted(this.levels.view(), order),
      this.blocks && permuted(this.blocks.view(), order),
    );
  }
}

/** A column that is only made once some entry has a value (earlier entries NONE). */
function column(list: IntColumn | undefined, i: number, value: number | undefined): IntColumn | undefined {
  if (value === undefined) {
    list?.push(NONE);
    return list;
  }
  if (!list) {
    list = new IntColumn();
    for (let k = 0; k < i; k++) list.push(NONE);
  }
  list.push(value);
  return list;
}

/** `list` in `order` (its own when none), as a typed array of its own. */
function permuted(list: Int32Array, order: ArrayLike<number> | undefined): Int32Array {
  if (!order) return list.slice();
  const out = new Int32Array(list.length);
  for (let k = 0; k < list.length; k++) out[k] = list[order[k]];
  return out;
}
