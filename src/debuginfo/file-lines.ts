/**
 * A line table's entries by file, then line number (then address): the
 * breakpoint side of the index (file:line → addresses, the lines with code,
 * the next line with code in the same function). One permutation of the
 * table's indices, no object per line; binary searches.
 */
import type { LineTable } from './line-table.js';
import { lowerBound, upperBound } from './sorted.js';

/** Position keys fit a double exactly below this many entries of one file. */
const KEYED_SORT_LIMIT = 1 << 22;

/** One function's lines with code in one file, ascending and distinct. */
interface FunctionSpan {
  lines: number[];
}

export class FileLines {
  private readonly fileIds = new Map<string, number>();
  /** table indices ordered by file, line, address */
  private readonly order: Int32Array;
  /** the line number of each entry of `order` */
  private readonly orderLines: Int32Array;
  /** per file id: its entries are order[fileFrom[f] … fileFrom[f + 1]) */
  private readonly fileFrom: Int32Array;
  /** per file id: its functions' line spans by first line, on first use */
  private readonly spans = new Map<number, { firsts: number[]; list: FunctionSpan[] }>();

  /** `lineFn`: per table entry, the index of its function, -1 outside functions. */
  constructor(
    private readonly table: LineTable,
    private readonly lineFn: Int32Array,
  ) {
    table.files.forEach((f, i) => this.fileIds.set(f, i));
    const n = table.length;
    const files = table.files.length;
    // counting sort by file (stable: address order within a file), then each file's run by line
    this.fileFrom = new Int32Array(files + 1);
    for (let i = 0; i < n; i++) this.fileFrom[table.fileId(i) + 1]++;
    for (let f = 0; f < files; f++) this.fileFrom[f + 1] += this.fileFrom[f];
    const next = this.fileFrom.slice(0, files);
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[next[table.fileId(i)]++] = i;
    for (let f = 0; f < files; f++) this.sortRunByLine(this.fileFrom[f], this.fileFrom[f + 1]);
    this.orderLines = new Int32Array(n);
    for (let k = 0; k < n; k++) this.orderLines[k] = table.line(this.order[k]);
  }

  /** The addresses of `line` in `file`, else of the next line with code in the same function. */
  resolve(file: string, line: number): { line: number; addresses: number[] } | undefined {
    const f = this.fileIds.get(file);
    if (f === undefined) return undefined;
    const exact = this.addressesOf(f, line);
    if (exact.length) return { line, addresses: exact };
    // the function whose lines in this file start last at or before `line`, when they reach past it
    const spans = this.spansOf(f);
    const span = spans.list[upperBound(spans.firsts, line) - 1];
    if (!span || line > span.lines[span.lines.length - 1]) return undefined;
    const nextLine = span.lines[upperBound(span.lines, line)];
    if (nextLine === undefined) return undefined;
    return { line: nextLine, addresses: this.addressesOf(f, nextLine) };
  }

  /** The distinct lines with entries in `file`, ascending. */
  codeLines(file: string): number[] {
    const f = this.fileIds.get(file);
    const out: number[] = [];
    if (f === undefined) return out;
    for (let k = this.fileFrom[f]; k < this.fileFrom[f + 1]; k++) {
      const l = this.orderLines[k];
      if (out[out.length - 1] !== l) out.push(l);
    }
    return out;
  }

  /** Table indices of the entries of file id `f` at `line`, ascending (address order). */
  entriesOf(f: number, line: number): number[] {
    const [from, to] = this.range(f, line);
    return Array.from(this.order.subarray(from, to));
  }

  private range(f: number, line: number): [number, number] {
    const from = lowerBound(this.orderLines, line, this.fileFrom[f], this.fileFrom[f + 1]);
    return [from, upperBound(this.orderLines, line, from, this.fileFrom[f + 1])];
  }

  /** Distinct addresses, ascending. */
  private addressesOf(f: number, line: number): number[] {
    const [from, to] = this.range(f, line);
    const out: number[] = [];
    for (let k = from; k < to; k++) {
      const a = this.table.address(this.order[k]);
      if (out[out.length - 1] !== a) out.push(a);
    }
    return out;
  }

  private spansOf(f: number): { firsts: number[]; list: FunctionSpan[] } {
    const known = this.spans.get(f);
    if (known) return known;
    // per function of this file (in function order), its lines: the run is in line order, so each comes sorted
    const byFn = new Map<number, FunctionSpan>();
    for (let k = this.fileFrom[f]; k < this.fileFrom[f + 1]; k++) {
      const fn = this.lineFn[this.order[k]];
      if (fn < 0) continue;
      let span = byFn.get(fn);
      if (!span) byFn.set(fn, (span = { lines: [] }));
      const l = this.orderLines[k];
      if (span.lines[span.lines.length - 1] !== l) span.lines.push(l);
    }
    const list = [...byFn.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
    list.sort((a, b) => a.lines[0] - b.lines[0]);
    const made = { firsts: list.map((s) => s.lines[0]), list };
    this.spans.set(f, made);
    return made;
  }

  /** Sorts order[from … to) by line, stably (entries of one line stay in address order). */
  private sortRunByLine(from: number, to: number): void {
    const run = this.order.subarray(from, to);
    if (run.length < 2) return;
    if (run.length >= KEYED_SORT_LIMIT) {
      const sorted = Array.from(run).sort((x, y) => this.table.line(x) - this.table.line(y) || x - y);
      run.set(sorted);
      return;
    }
    // line × 2^22 + position: one numeric sort of doubles, no comparator
    const keys = new Float64Array(run.length);
    for (let k = 0; k < run.length; k++) keys[k] = this.table.line(run[k]) * KEYED_SORT_LIMIT + k;
    keys.sort();
    const copy = run.slice();
    for (let k = 0; k < run.length; k++) run[k] = copy[keys[k] % KEYED_SORT_LIMIT];
  }
}
