/**
 * Fast look-ups over a DebugInfo: address ↔ C line, functions, globals and
 * the locals visible at an address. Built once per loaded program.
 */
import type { DebugInfo, FunctionInfo, LineEntry, Variable } from './model.js';
import { lowerBound, upperBound } from './sorted.js';

/** The lines with code of one function in one file, ascending. */
interface FunctionLines {
  lines: number[];
}

/** Code from `first` to `last` (inclusive) belongs to `entry`'s line. */
interface Segment {
  first: number;
  last: number;
  entry: LineEntry;
  fn: FunctionInfo;
}

export interface ResolvedLine {
  file: string;
  line: number;
  addresses: number[];
}

export class DebugIndex {
  private readonly fnStarts: number[];
  private readonly segments: Segment[] = [];
  private readonly segStarts: number[] = [];
  /** addresses by file, then line (ascending); nested maps, so building them makes no key strings */
  private readonly byFileLine = new Map<string, Map<number, number[]>>();
  /** segments by file, then line, ascending; on first use (stepping) */
  private segmentsByLine?: Map<string, Map<number, Segment[]>>;
  /** per file: the line span of each function with code in it, by first line */
  private readonly spansByFile = new Map<string, { firsts: number[]; list: FunctionLines[] }>();
  private readonly lineAddrs: number[];
  /** per function (by index): its segments are segments[segFirst[i] … segEnd[i]) (both sorted by address) */
  private readonly segFirst: Int32Array;
  private readonly segEnd: Int32Array;
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
    this.fnStarts = info.functions.map((f) => f.start);
    this.lineAddrs = info.lines.map((l) => l.address);
    this.segFirst = new Int32Array(info.functions.length);
    this.segEnd = new Int32Array(info.functions.length);
    for (const f of info.functions) if (!this.fnByName.has(f.name)) this.fnByName.set(f.name, f);
    for (const g of info.globals) {
      const list = this.globalsByName.get(g.name);
      if (list) list.push(g);
      else this.globalsByName.set(g.name, [g]);
    }
    this.buildSegments();
    this.buildLineSpans();
  }

  /** The C line whose code contains `address`; undefined outside functions with line info. */
  lineAt(address: number): LineEntry | undefined {
    return this.segmentAt(address)?.entry;
  }

  /**
   * Where the body of `fn` starts: the first line after the one holding its
   * prologue (frame set-up), as debuggers place function breakpoints and
   * land step-ins. The function's start when it has a single line.
   */
  bodyStart(fn: FunctionInfo): number {
    const own = this.segmentsOf(fn);
    const opening = own[0];
    // Without a prologue the body's first line shares the start address with the declaration line and owns it.
    const declaration = this.info.lines[lowerBound(this.lineAddrs, fn.start)];
    if (
      opening &&
      opening.first === fn.start &&
      declaration?.address === fn.start &&
      declaration.line !== opening.entry.line
    )
      return fn.start;
    const body = own.find((s) => s.entry.line !== opening?.entry.line || s.entry.file !== opening?.entry.file);
    return body?.first ?? fn.start;
  }

  isLineStart(address: number): boolean {
    return this.lineAddrs[lowerBound(this.lineAddrs, address)] === address;
  }

  /**
   * Addresses of `file`:`line`. The file is matched by exact path, then path
   * suffix, then basename; a line without code moves to the next line with
   * code in the same function.
   */
  resolveLine(file: string, line: number): ResolvedLine | undefined {
    const matched = this.matchFile(file);
    if (!matched) return undefined;
    const exact = this.byFileLine.get(matched)?.get(line);
    if (exact) return { file: matched, line, addresses: exact };
    // the function whose lines in this file start last at or before `line`, when they reach past it
    const spans = this.spansByFile.get(matched);
    const span = spans?.list[upperBound(spans.firsts, line) - 1];
    if (!span || line > span.lines[span.lines.length - 1]) return undefined;
    const next = span.lines[upperBound(span.lines, line)];
    if (next === undefined) return undefined;
    return { file: matched, line: next, addresses: this.byFileLine.get(matched)?.get(next) ?? [] };
  }

  /** Every [first, last] range whose code belongs to the same file:line as `address`. */
  lineRanges(address: number): [number, number][] {
    const here = this.segmentAt(address);
    if (!here) return [];
    const out: [number, number][] = [];
    if (!this.segmentsByLine) {
      this.segmentsByLine = new Map();
      for (const s of this.segments) listAt(this.segmentsByLine, s.entry.file, s.entry.line).push(s);
    }
    for (const s of this.segmentsByLine.get(here.entry.file)?.get(here.entry.line) ?? []) {
      const prev = out[out.length - 1];
      if (prev && s.first <= prev[1] + 1) prev[1] = Math.max(prev[1], s.last);
      else out.push([s.first, s.last]);
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
    if (!this.labelsByAddress) {
      const list = this.info.symbols.filter((s) => s.bank === undefined).sort((a, b) => a.address - b.address);
      this.labelsByAddress = { addresses: list.map((s) => s.address), names: list.map((s) => s.name) };
    }
    const { addresses, names } = this.labelsByAddress;
    const i = lowerBound(addresses, address);
    return addresses[i] === address ? names[i] : undefined;
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
    const current = here && here.fn === fn ? here.entry.block : undefined;
    let levels = this.blockLevels.get(fn);
    if (!levels) this.blockLevels.set(fn, (levels = this.blocksOf(fn)));
    const visible = [...fn.params, ...fn.locals].filter((v) => inScope(v, current, levels));
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
    if (!matched) return undefined;
    const lines = [...(this.byFileLine.get(matched)?.keys() ?? [])];
    return { file: matched, lines: lines.sort((a, b) => a - b) };
  }

  functionNames(): string[] {
    return [...this.fnByName.keys()];
  }

  private segmentAt(address: number): Segment | undefined {
    const s = this.segments[upperBound(this.segStarts, address) - 1];
    return s && address <= s.last ? s : undefined;
  }

  private buildSegments(): void {
    const lines = this.info.lines;
    let file: string | undefined;
    let ofFile: Map<number, number[]> | undefined;
    for (let i = 0; i < lines.length; i++) {
      const e = lines[i];
      // runs of lines of one file: its map looked up once a run
      if (e.file !== file) {
        file = e.file;
        ofFile = this.byFileLine.get(file);
        if (!ofFile) this.byFileLine.set(file, (ofFile = new Map()));
      }
      const list = ofFile!.get(e.line);
      if (!list) ofFile!.set(e.line, [e.address]);
      else if (list[list.length - 1] !== e.address) list.push(e.address); // ascending: lines are sorted by address
      // Several lines may share an address: the last one listed owns the code.
      if (i + 1 < lines.length && lines[i + 1].address === e.address) continue;
      const at = upperBound(this.fnStarts, e.address) - 1;
      const fn = this.info.functions[at];
      if (!fn || e.address > fn.end) continue;
      const next = lines[i + 1]?.address; // lines are sorted and e is the last at its address
      const last = next !== undefined ? Math.min(next - 1, fn.end) : fn.end;
      // functions do not overlap and segments come in address order: a function's are contiguous
      if (this.segEnd[at] === 0) this.segFirst[at] = this.segments.length;
      this.segments.push({ first: e.address, last, entry: e, fn });
      this.segEnd[at] = this.segments.length;
      this.segStarts.push(e.address);
    }
  }

  private segmentsOf(fn: FunctionInfo): Segment[] {
    const at = upperBound(this.fnStarts, fn.start) - 1;
    if (this.info.functions[at] !== fn) return [];
    return this.segments.slice(this.segFirst[at], this.segEnd[at]);
  }

  /** Per file and function: the sorted lines with code, so resolveLine is two binary searches. */
  private buildLineSpans(): void {
    const byFileFn = new Map<string, Map<FunctionInfo, Set<number>>>();
    for (const e of this.info.lines) {
      const fn = this.functionAt(e.address);
      if (!fn) continue;
      let fns = byFileFn.get(e.file);
      if (!fns) byFileFn.set(e.file, (fns = new Map()));
      const lines = fns.get(fn) ?? new Set<number>();
      lines.add(e.line);
      fns.set(fn, lines);
    }
    for (const [file, fns] of byFileFn) {
      const list = [...fns.values()].map((set) => ({ lines: [...set].sort((a, b) => a - b) }));
      list.sort((a, b) => a.lines[0] - b.lines[0]);
      this.spansByFile.set(file, { firsts: list.map((f) => f.lines[0]), list });
    }
  }

  private blocksOf(fn: FunctionInfo): Map<number, number> {
    const levels = new Map<number, number>();
    const note = (block: number | undefined, level: number | undefined) => {
      if (block === undefined || level === undefined) return;
      levels.set(block, Math.min(level, levels.get(block) ?? Infinity));
    };
    for (const v of [...fn.params, ...fn.locals]) note(v.block, v.level);
    for (const s of this.segmentsOf(fn)) note(s.entry.block, s.entry.level);
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

/** The list at `file`, `line` of a by-file-then-line map, created empty when missing. */
function listAt<T>(map: Map<string, Map<number, T[]>>, file: string, line: number): T[] {
  let lines = map.get(file);
  if (!lines) map.set(file, (lines = new Map()));
  let list = lines.get(line);
  if (!list) lines.set(line, (list = []));
  return list;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
