/**
 * Fast look-ups over a DebugInfo: address ↔ C line, functions, globals and
 * the locals visible at an address. Built once per loaded program, from the
 * line table's typed arrays: segments and the by-file views are index
 * arrays into it (no object per line), and every look-up is a binary search.
 */
import type { DebugInfo, FunctionInfo, LineEntry, Variable } from './model.js';
import type { LineTable } from './line-table.js';
import { lowerBound, upperBound } from './sorted.js';
import { FileLines } from './file-lines.js';

export interface ResolvedLine {
  file: string;
  line: number;
  addresses: number[];
}

export class DebugIndex {
  private readonly lines: LineTable;
  private readonly fnStarts: Float64Array;
  /**
   * Segment k: code from segFirst[k] to segLast[k] (inclusive) belongs to line segLine[k] of the table, in
   * function segFn[k]; ascending by address.
   */
  private readonly segFirst: Int32Array;
  private readonly segLast: Int32Array;
  private readonly segLine: Int32Array;
  private readonly segFn: Int32Array;
  /** per function (by index): its segments are [fnSegFrom[i], fnSegTo[i]) */
  private readonly fnSegFrom: Int32Array;
  private readonly fnSegTo: Int32Array;
  /** the table's lines by file, then line: resolveLine, codeLines and lineRanges */
  private readonly byFile: FileLines;
  private readonly fnByName = new Map<string, FunctionInfo>();
  /** globals and file statics by name, in the debug info's order */
  private readonly globalsByName = new Map<string, Variable[]>();
  /** per function: lowest known lexical level of each block id, on first use (most functions' locals are never shown) */
  private readonly blockLevels = new Map<FunctionInfo, Map<number, number>>();
  /** the program's files by basename, with their paths in / form, in the file list's order */
  private filesByBase?: Map<string, { file: string; norm: string }[]>;
  /** the unbanked labels by address, sorted on first use */
  private labelsByAddress?: { addresses: number[]; names: string[] };

  constructor(readonly info: DebugInfo) {
    this.lines = info.lines;
    const fns = info.functions;
    this.fnStarts = new Float64Array(fns.length);
    for (let i = 0; i < fns.length; i++) this.fnStarts[i] = fns[i].start;
    this.fnSegFrom = new Int32Array(fns.length);
    this.fnSegTo = new Int32Array(fns.length);
    for (const f of fns) if (!this.fnByName.has(f.name)) this.fnByName.set(f.name, f);
    for (const g of info.globals) {
      const list = this.globalsByName.get(g.name);
      if (list) list.push(g);
      else this.globalsByName.set(g.name, [g]);
    }
    const n = this.lines.length;
    const first = new Int32Array(n);
    const last = new Int32Array(n);
    const line = new Int32Array(n);
    const fnOf = new Int32Array(n);
    /** per table line: its function's index, -1 outside functions */
    const lineFn = new Int32Array(n).fill(-1);
    const count = this.buildSegments(first, last, line, fnOf, lineFn);
    this.segFirst = first.subarray(0, count);
    this.segLast = last.subarray(0, count);
    this.segLine = line.subarray(0, count);
    this.segFn = fnOf.subarray(0, count);
    this.byFile = new FileLines(this.lines, lineFn);
  }

  /** The C line whose code contains `address`; undefined outside functions with line info. */
  lineAt(address: number): LineEntry | undefined {
    const s = this.segmentAt(address);
    return s < 0 ? undefined : this.lines.at(this.segLine[s]);
  }

  /**
   * Where the body of `fn` starts: the first line after the one holding its
   * prologue (frame set-up), as debuggers place function breakpoints and
   * land step-ins. The function's start when it has a single line.
   */
  bodyStart(fn: FunctionInfo): number {
    const [from, to] = this.segmentsOf(fn);
    const t = this.lines;
    if (from === to || fn.noPrologue) return fn.start;
    const opening = this.segLine[from];
    // Without a prologue the body's first line shares the start address with the declaration line and owns it.
    const declaration = t.lowerBound(fn.start);
    if (
      this.segFirst[from] === fn.start &&
      declaration < t.length &&
      t.address(declaration) === fn.start &&
      t.line(declaration) !== t.line(opening)
    )
      return fn.start;
    for (let s = from; s < to; s++) {
      const l = this.segLine[s];
      if (t.line(l) !== t.line(opening) || t.fileId(l) !== t.fileId(opening)) return this.segFirst[s];
    }
    return fn.start;
  }

  isLineStart(address: number): boolean {
    const t = this.lines;
    const i = t.lowerBound(address);
    return i < t.length && t.address(i) === address;
  }

  /**
   * Addresses of `file`:`line`. The file is matched by exact path, then path
   * suffix, then basename; a line without code moves to the next line with
   * code in the same function.
   */
  resolveLine(file: string, line: number): ResolvedLine | undefined {
    const matched = this.matchFile(file);
    if (matched === undefined) return undefined;
    const found = this.byFile.resolve(matched, line);
    return found && { file: matched, line: found.line, addresses: found.addresses };
  }

  /** Every [first, last] range whose code belongs to the same file:line as `address`. */
  lineRanges(address: number): [number, number][] {
    const here = this.segmentAt(address);
    if (here < 0) return [];
    const t = this.lines;
    const l = this.segLine[here];
    const out: [number, number][] = [];
    // the segments of that file:line, ascending: one per table entry that owns its code
    for (const i of this.byFile.entriesOf(t.fileId(l), t.line(l))) {
      const s = this.segmentStartingAt(t.address(i));
      if (s < 0 || this.segLine[s] !== i) continue;
      const prev = out[out.length - 1];
      if (prev && this.segFirst[s] <= prev[1] + 1) prev[1] = Math.max(prev[1], this.segLast[s]);
      else out.push([this.segFirst[s], this.segLast[s]]);
    }
    return out;
  }

  functionAt(address: number): FunctionInfo | undefined {
    const i = upperBound(this.fnStarts, address) - 1;
    const f = this.info.functions[i];
    return f && address <= f.end ? f : undefined;
  }

  /** The debug info's label at exactly `address` (cc65's runtime `pushax`, an assembler label); banked ones not. */
  symbolAt(address: number): string | undefined {
    const { addresses, names } = this.labelsSorted();
    const i = lowerBound(addresses, address);
    return addresses[i] === address ? names[i] : undefined;
  }

  /**
   * The nearest label at or below `address`, as `name` or `name+offset` (a stop inside cc65's `pushax`), within
   * `maxOffset` bytes: a runtime routine is short, and a label further down names something else.
   */
  symbolCovering(address: number, maxOffset = 0x100): string | undefined {
    const { addresses, names } = this.labelsSorted();
    const i = upperBound(addresses, address) - 1;
    if (i < 0 || address - addresses[i] >= maxOffset) return undefined;
    return address === addresses[i] ? names[i] : `${names[i]}+${address - addresses[i]}`;
  }

  /** The address of the unbanked label `name` (cc65's runtime `tosumula0`, an assembler label). */
  labelAddress(name: string): number | undefined {
    const { addresses, names } = this.labelsSorted();
    const i = names.indexOf(name);
    return i < 0 ? undefined : addresses[i];
  }

  private labelsSorted(): { addresses: number[]; names: string[] } {
    if (!this.labelsByAddress) {
      const list = this.info.symbols.filter((s) => s.bank === undefined).sort((a, b) => a.address - b.address);
      this.labelsByAddress = { addresses: list.map((s) => s.address), names: list.map((s) => s.name) };
    }
    return this.labelsByAddress;
  }

  /** By C name; SDCC's assembler name with a leading underscore is accepted too. */
  functionByName(name: string): FunctionInfo | undefined {
    return this.fnByName.get(name) ?? (name.startsWith('_') ? this.fnByName.get(name.slice(1)) : undefined);
  }

  /**
   * A global or file static by name, as C sees it from code in `file` (the
   * frame's function's): that file's static, else the external global; a
   * static of another file is not visible from there. Without a file: the
   * external one, else the first static.
   */
  global(name: string, file?: string): Variable | undefined {
    const list =
      this.globalsByName.get(name) ?? (name.startsWith('_') ? this.globalsByName.get(name.slice(1)) : undefined);
    if (!list) return undefined;
    const external = list.find((v) => v.file === undefined);
    if (file === undefined) return external ?? list[0];
    // as a debugger does: another file's static when it is the only one of that name
    return list.find((v) => v.file === file) ?? external ?? (list.length === 1 ? list[0] : undefined);
  }

  /**
   * Parameters and locals of `fn` in scope at `address`: function-level ones
   * always, block-level ones inside their block (or blocks nested in it);
   * an inner name hides an outer one.
   */
  locals(fn: FunctionInfo, address: number): Variable[] {
    const here = this.segmentAt(address);
    const current =
      here >= 0 && this.info.functions[this.segFn[here]] === fn ? this.lines.block(this.segLine[here]) : undefined;
    let levels = this.blockLevels.get(fn);
    if (!levels) this.blockLevels.set(fn, (levels = this.blocksOf(fn)));
    const line = fn.blocks ? this.lineAt(address)?.line : undefined;
    const visible = [...fn.params, ...fn.locals].filter(
      (v) =>
        inScope(v, current, levels) &&
        (!v.lines || (line !== undefined && v.lines.first <= line && line <= v.lines.last)),
    );
    const best = new Map<string, Variable>();
    for (const v of visible) {
      const old = best.get(v.name);
      if (!old || (v.level ?? 0) > (old.level ?? 0)) best.set(v.name, v);
    }
    return visible.filter((v) => best.get(v.name) === v);
  }

  sourceFiles(): string[] {
    return [...this.info.files];
  }

  /** The lines with code in `file` (matched as resolveLine matches it), ascending; undefined for an unknown file. */
  codeLines(file: string): { file: string; lines: number[] } | undefined {
    const matched = this.matchFile(file);
    if (matched === undefined) return undefined;
    return { file: matched, lines: this.byFile.codeLines(matched) };
  }

  functionNames(): string[] {
    return [...this.fnByName.keys()];
  }

  /** The segment containing `address`, -1 for none. */
  private segmentAt(address: number): number {
    const s = upperBound(this.segFirst, address) - 1;
    return s >= 0 && address <= this.segLast[s] ? s : -1;
  }

  private segmentStartingAt(address: number): number {
    const s = lowerBound(this.segFirst, address);
    return s < this.segFirst.length && this.segFirst[s] === address ? s : -1;
  }

  /** Fills the segment columns from the line table; returns their count. */
  private buildSegments(
    first: Int32Array,
    last: Int32Array,
    line: Int32Array,
    fnOf: Int32Array,
    lineFn: Int32Array,
  ): number {
    const t = this.lines;
    const fns = this.info.functions;
    const addrs = t.addresses;
    let count = 0;
    let at = -1; // the function whose start is the last at or before the current address (both ascend)
    for (let i = 0; i < addrs.length; i++) {
      const a = addrs[i];
      while (at + 1 < fns.length && this.fnStarts[at + 1] <= a) at++;
      const fn = fns[at];
      if (!fn || a > fn.end) continue;
      lineFn[i] = at;
      // Several lines may share an address: the last one listed owns the code.
      if (i + 1 < addrs.length && addrs[i + 1] === a) continue;
      const next = i + 1 < addrs.length ? addrs[i + 1] : undefined; // lines are sorted and i is the last at a
      // functions do not overlap and segments come in address order: a function's are contiguous
      if (this.fnSegTo[at] === 0) this.fnSegFrom[at] = count;
      first[count] = a;
      last[count] = next !== undefined ? Math.min(next - 1, fn.end) : fn.end;
      line[count] = i;
      fnOf[count] = at;
      this.fnSegTo[at] = ++count;
    }
    return count;
  }

  /** The segment index range [from, to) of `fn`. */
  private segmentsOf(fn: FunctionInfo): [number, number] {
    const at = upperBound(this.fnStarts, fn.start) - 1;
    if (this.info.functions[at] !== fn) return [0, 0];
    return [this.fnSegFrom[at], this.fnSegTo[at]];
  }

  private blocksOf(fn: FunctionInfo): Map<number, number> {
    const levels = new Map<number, number>();
    const note = (block: number | undefined, level: number | undefined) => {
      if (block === undefined || level === undefined) return;
      levels.set(block, Math.min(level, levels.get(block) ?? Infinity));
    };
    for (const v of [...fn.params, ...fn.locals]) note(v.block, v.level);
    const [from, to] = this.segmentsOf(fn);
    for (let s = from; s < to; s++) note(this.lines.block(this.segLine[s]), this.lines.level(this.segLine[s]));
    return levels;
  }

  /**
   * The program's file `file` names: exact path, then path suffix, then
   * basename (each the first in the file list). A suffix match has the same
   * basename, so only the files of that basename are looked at.
   */
  private matchFile(file: string): string | undefined {
    if (!this.filesByBase) {
      this.filesByBase = new Map();
      for (const f of this.info.files) {
        const norm = f.replace(/\\/g, '/');
        const base = basename(norm);
        const list = this.filesByBase.get(base) ?? [];
        list.push({ file: f, norm });
        this.filesByBase.set(base, list);
      }
    }
    const want = file.replace(/\\/g, '/');
    const same = this.filesByBase.get(basename(want)) ?? [];
    return (
      same.find((f) => f.norm === want)?.file ??
      same.find((f) => want.endsWith(`/${f.norm}`) || f.norm.endsWith(`/${want}`))?.file ??
      same[0]?.file
    );
  }
}

/**
 * SDCC numbers blocks in source order, so block X lies inside block B when
 * X > B and no block between them opens at B's level or shallower.
 */
function inScope(v: Variable, current: number | undefined, levels: Map<number, number>): boolean {
  const level = v.level ?? 0;
  if (level <= 1 || v.block === undefined) return true;
  if (current === undefined) return false;
  if (current === v.block) return true;
  if (current < v.block) return false;
  for (const [block, l] of levels) if (block > v.block && block <= current && l <= level) return false;
  return true;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
