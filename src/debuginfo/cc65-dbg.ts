/**
 * cc65 debug info (`ld65 --dbgfile`, format version 2) → the common model.
 * Records are `kind<TAB>key=value,…`. We use: file, seg, span (addresses),
 * line (type 1 = C source lines), scope + csym (C functions, their
 * parameters and locals by C-stack offset), sym (addresses of functions
 * and globals; cc65 writes no csym for globals, so C globals are the
 * underscore-prefixed labels in data segments of modules with C code).
 * cc65 records no C types: they come from the declarations in the C sources
 * (found through the .dbg's file records, cc65-c-decls.ts); otherwise bytes
 * are shown. `register` variables live in the zero-page register bank
 * (`regbank`, the last 6 bytes of cc65's ZEROPAGE when the .dbg does not
 * say); the prologue saves the bank bytes a function uses on the C stack,
 * which the frame size (FunctionInfo.frameBytes) includes.
 *
 * Locals are 'frame' storage on register CSP: the C stack pointer at
 * function entry (after the caller pushed the arguments), which the 6502
 * unwinder computes from the zero-page `sp`.
 */
import { tooLarge, badDebugInfo } from '../core/errors.js';
import { CSourceTypes, cc65Predefined, type SourceLocator } from './cc65-c-decls.js';
import { parseFields, RecTable, type DbgRec } from './cc65-dbg-fields.js';
import type { CType, DebugInfo, FunctionInfo, Variable } from './model.js';
import { blockLocals, CC65_FRAME_REGISTER, frameSizes, type Local } from './cc65-frame-layout.js';
import { LineTableBuilder } from './line-table.js';
import { upperBound } from './sorted.js';
import { sizeOf } from './values.js';

export { CC65_FRAME_REGISTER };
const MAX_RECORDS = 2_000_000;
/** Line spans overlapping one address (cc65 nests a few: a statement inside its function's line) */
const MAX_OVERLAP = 64;
const DATA_SEGMENTS = new Set(['DATA', 'BSS', 'RODATA', 'ZEROPAGE']);

type Rec = DbgRec;

export interface Cc65Options {
  fileName?: string;
  /** finds the C sources the .dbg names and their includes (source-near.ts) */
  locateSource?: SourceLocator;
}

/** Record kinds whose every use reads `name` (ld65 always writes it, possibly empty). */
const NAMED_KINDS = new Set(['file', 'mod', 'seg', 'scope', 'sym', 'csym']);

export function parseCc65Dbg(text: string, opts: Cc65Options = {}): DebugInfo {
  const where = opts.fileName ?? 'the .dbg text';
  const recs = new Map<string, RecTable>();
  let version: Rec | undefined;
  let count = 0;
  // line by line without an array of them all: each line's string dies young (a split's all live to the end)
  for (let i = 0, from = 0; from <= text.length; i++) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const end = to > from && text.charCodeAt(to - 1) === 0x0d ? to - 1 : to;
    const at = from;
    from = to + 1;
    if (end === at || (text.charCodeAt(at) <= 0x20 && !text.slice(at, end).trim())) continue;
    if (++count > MAX_RECORDS) throw tooLarge(`${where} has more than ${MAX_RECORDS} records.`);
    const tab = text.indexOf('\t', at);
    if (tab <= at || tab >= end)
      throw badDebugInfo(
        `${where} line ${i + 1} is not a cc65 debug record ("kind<TAB>key=value,…"): ${JSON.stringify(text.slice(at, Math.min(end, at + 60)))}`,
      );
    const kind = kindAt(text, at, tab);
    // only C lines (type=1) are used; the assembler's own line records are most of a file
    if (kind === 'line' && !lineIsC(text, tab, end)) continue;
    if (UNUSED_KINDS.has(kind)) continue;
    if (kind === 'span' || kind === 'line') {
      // most spans are the assembler's lines', which nothing reads: kept unread until a C line asks; C lines are
      // read once, by the builder (neither is kept parsed: a record object each would outlive the parse)
      const id = leadingId(text, tab + 1, end);
      if (id >= 0 && tableOf(recs, kind, text).setUnread(id, tab + 1)) continue;
    }
    const rec = parseFields(text, tab + 1, end);
    if (kind === 'version') {
      version = rec;
      continue;
    }
    if (rec.id === undefined) continue; // unknown kinds without ids
    if (NAMED_KINDS.has(kind) && rec.name === undefined)
      throw badDebugInfo(`${where} line ${i + 1}: a ${kind} record without a name.`);
    const id = Number(rec.id);
    if (!Number.isInteger(id)) throw badDebugInfo(`${where} line ${i + 1}: "${rec.id}" is not a number.`);
    tableOf(recs, kind, text).set(id, rec);
  }
  if (!version || version.major !== '2') {
    throw badDebugInfo(
      `${where} is not a cc65 debug file of format version 2 (${version ? `found major=${version.major}` : 'no version record'}).`,
    );
  }
  return new Builder(recs, where, opts.locateSource).build();
}

function tableOf(recs: Map<string, RecTable>, kind: string, text: string): RecTable {
  let table = recs.get(kind);
  if (!table) recs.set(kind, (table = new RecTable(text, { keepParsed: kind !== 'span' && kind !== 'line' })));
  return table;
}

const KINDS = ['line', 'span', 'sym', 'csym', 'scope', 'file', 'mod', 'seg', 'type', 'info', 'lib', 'version'];

/** The record's kind: one of the constant strings when it is a known one (they hash once), else a copy. */
function kindAt(text: string, at: number, tab: number): string {
  for (const k of KINDS) if (k.length === tab - at && text.startsWith(k, at)) return k;
  return text.slice(at, tab);
}

/** The id of a record that starts `id=<digits>` (as ld65 writes every one), else -1. */
function leadingId(text: string, from: number, end: number): number {
  if (!text.startsWith('id=', from)) return -1;
  let i = from + 3;
  let id = 0;
  for (let c = text.charCodeAt(i); i < end && c >= 0x30 && c <= 0x39; c = text.charCodeAt(++i)) id = id * 10 + c - 0x30;
  return i > from + 3 && i - from <= 11 && (i === end || text.charCodeAt(i) === 0x2c) ? id : -1;
}

/** Kinds nothing reads (types: cc65 writes no C types there; the counts): not parsed. */
const UNUSED_KINDS = new Set(['type', 'info']);

/**
 * A line record of C source: a `type=1` field, looked for within the record only, from comma to comma (no string
 * for the record: there is one a line, and the assembler's are most of a file; searching the whole text from here
 * would read ahead to the next C line for every assembler line, quadratic in a real file, where C lines are rare).
 */
function lineIsC(text: string, tab: number, end: number): boolean {
  for (let comma = text.indexOf(',', tab); comma >= 0 && comma < end; comma = text.indexOf(',', comma + 1))
    if (text.startsWith('type=1', comma + 1) && (comma + 7 === end || text.charCodeAt(comma + 7) === 0x2c)) return true;
  return false;
}

/** `where` builds the error's context, only when the number is bad (this runs for every record). */
function num(value: string | undefined, where: () => string): number {
  const n = value === undefined ? NaN : value.startsWith('0x') ? parseInt(value.slice(2), 16) : Number(value);
  if (!Number.isFinite(n)) throw badDebugInfo(`${where()}: "${value}" is not a number.`);
  return n;
}

const REGBANK_BYTES = 6;

class Builder {
  private readonly types?: CSourceTypes;
  private regbank?: number;
  private cByBase?: Map<string, string>;
  private fileScope?: Map<string, CType>;
  /** span id → absolute address and size, computed once (NaN: not yet), sized at the first span read */
  private spanAddresses = new Float64Array(0);
  private spanSizes = new Float64Array(0);
  /** the size of the span spanAddress last returned */
  private spanSize = 0;

  constructor(
    private readonly recs: Map<string, RecTable>,
    private readonly where: string,
    locate?: SourceLocator,
  ) {
    const libs = this.table('lib');
    if (locate) this.types = new CSourceTypes(locate, cc65Predefined(libs.ids().map((id) => libs.get(id)?.name ?? '')));
  }

  private table(kind: string): RecTable {
    return this.recs.get(kind) ?? new RecTable();
  }

  private ref(kind: string, id: string | undefined, from: string): Rec {
    const rec = this.table(kind).get(num(id, () => `${this.where} (${from})`));
    if (!rec) throw badDebugInfo(`${this.where}: ${from} refers to ${kind} ${id}, which is not in the file.`);
    return rec;
  }

  /** A span's absolute address, read in place (no record made: a C line's are read once); its size in spanSize. */
  private spanAddress(spanId: string, from: string): number {
    const id = num(spanId, () => `${this.where} (${from})`);
    const spans = this.table('span');
    if (this.spanAddresses.length < spans.idLimit) {
      this.spanAddresses = new Float64Array(spans.idLimit).fill(NaN);
      this.spanSizes = new Float64Array(spans.idLimit);
    }
    const known = this.spanAddresses[id];
    if (known === known && known !== undefined) {
      this.spanSize = this.spanSizes[id];
      return known;
    }
    if (!spans.has(id))
      throw badDebugInfo(`${this.where}: ${from} refers to span ${spanId}, which is not in the file.`);
    const segId = spans.numberField(id, 'seg');
    // by number, read in place; a missing or bad one through ref, which says what is wrong
    const seg =
      (Number.isInteger(segId) && this.table('seg').get(segId)) ||
      this.ref('seg', spans.field(id, 'seg'), `span ${spanId}`);
    const address = num(seg.start, () => `seg ${seg.id}`) + numberField(spans, 'span', id, 'start');
    this.spanSize = numberField(spans, 'span', id, 'size');
    this.spanAddresses[id] = address;
    this.spanSizes[id] = this.spanSize;
    return address;
  }

  /** A C line's span: into the line table and the list of spans by file. */
  private addLineSpan(spanId: string, line: number, file: string, lineSpans: LineSpan[], table: LineTableBuilder) {
    const address = this.spanAddress(spanId, `line ${line}`);
    table.add(file, line, address);
    lineSpans.push({ address, last: address + Math.max(1, this.spanSize) - 1, file, order: lineSpans.length });
  }

  build(): DebugInfo {
    const table = new LineTableBuilder();
    const cFiles = new Set<string>();
    // which file's line covers an address, for the functions' files: every C line's spans in file order
    const lineSpans: LineSpan[] = [];
    const lineRecs = this.table('line');
    const lineIds = lineRecs.ids();
    for (let k = 0; k < lineIds.length; k++) {
      const id = lineIds[k];
      const span = lineRecs.field(id, 'span');
      if (lineRecs.field(id, 'type') !== '1' || !span) continue; // type 1: C source lines
      const file = this.ref('file', lineRecs.field(id, 'file'), `line ${id}`).name;
      const lineNo = numberField(lineRecs, 'line', id, 'line');
      cFiles.add(file);
      if (!span.includes('+')) this.addLineSpan(span, lineNo, file, lineSpans, table);
      else for (const spanId of span.split('+')) this.addLineSpan(spanId, lineNo, file, lineSpans, table);
    }
    const lines = table.build({ byLineToo: true });
    const zeroPage = this.table('seg')
      .values()
      .find((s) => s.name === 'ZEROPAGE');
    const syms = this.table('sym').values();
    const bankSym = syms.find((s) => s.name === 'regbank' && s.val !== undefined);
    this.regbank = bankSym
      ? num(bankSym.val, () => 'sym regbank')
      : zeroPage
        ? num(zeroPage.start, () => 'seg ZEROPAGE') + num(zeroPage.size, () => 'seg ZEROPAGE') - REGBANK_BYTES
        : undefined;
    const functions = this.functions(lineSpans);
    const globals = this.globals(cFiles, functions, syms);
    const symbols = syms
      .filter((s) => s.type === 'lab' && s.val !== undefined)
      .map((s) => ({ name: s.name, address: num(s.val, () => `sym ${s.id}`) }));
    // the C stack pointer: exported as `sp` (c_sp in newer cc65); else the first ZEROPAGE word, where the runtime puts it
    const spSym = syms.find((s) => (s.name === 'sp' || s.name === 'c_sp') && s.val !== undefined);
    const cStackPointer = spSym
      ? num(spSym.val, () => 'sym sp')
      : zeroPage
        ? num(zeroPage.start, () => 'seg ZEROPAGE')
        : undefined;
    if (cStackPointer !== undefined) symbols.push({ name: '__cc65_sp__', address: cStackPointer });
    const typedefs = this.types ? Object.fromEntries(this.types.typedefs([...cFiles])) : undefined;
    return { format: 'cc65-dbg', cpu: '6502', files: [...cFiles], lines, functions, globals, symbols, typedefs };
  }

  private functions(spans: LineSpan[]): FunctionInfo[] {
    const out: FunctionInfo[] = [];
    // one pass over the C symbols: by the assembler symbol they name and by their scope
    const fnCsymBySym = new Map<string, Rec>();
    const csymsByScope = new Map<string, Rec[]>();
    const csyms = this.table('csym');
    // by id, which is declaration order, which the frame size depends on (ld65 lists them so: no sort then)
    let ids = csyms.ids();
    if (!ascendingIds(ids)) ids = [...ids].sort((a, b) => a - b);
    for (const id of ids) {
      const c = csyms.get(id)!;
      if (c.sym !== undefined && (c.sc === 'ext' || c.sc === 'static') && !fnCsymBySym.has(c.sym))
        fnCsymBySym.set(c.sym, c);
      const list = csymsByScope.get(c.scope);
      if (list) list.push(c);
      else csymsByScope.set(c.scope, [c]);
    }
    const lineSpans = coveringFile(spans);
    for (const scope of this.table('scope').values()) {
      if (scope.type !== 'scope' || !scope.sym) continue;
      const sym = this.ref('sym', scope.sym, `scope ${scope.id}`);
      const fnCsym = fnCsymBySym.get(scope.sym);
      if (!fnCsym || sym.val === undefined) continue;
      const start = num(sym.val, () => `sym ${sym.id}`);
      const size = num(sym.size ?? scope.size ?? '1', () => `sym ${sym.id}`);
      const file = lineSpans.fileAt(start);
      const vars: Local[] = [];
      const params: Variable[] = [];
      const locals: Variable[] = [];
      for (const c of csymsByScope.get(scope.id) ?? []) {
        const v = c === fnCsym ? undefined : this.local(c, file, fnCsym.name);
        if (!v) continue;
        vars.push(v);
        (v.isParam ? params : locals).push(v.v);
      }
      const sizes = frameSizes(vars);
      const inBlocks = file ? this.types?.declarations(file)?.functions.get(fnCsym.name)?.locals : undefined;
      const blocks = inBlocks && blockLocals(inBlocks, sizes.frameBytes, locals);
      out.push({
        name: fnCsym.name,
        file,
        start,
        end: start + Math.max(1, size) - 1,
        params,
        locals,
        ...sizes,
        ...(blocks?.length ? { blocks } : {}),
      });
    }
    return out.sort((a, b) => a.start - b.start);
  }

  private local(c: Rec, file: string | undefined, fn: string): Local | undefined {
    const declared = file ? this.types?.local(file, fn, c.name) : undefined;
    const isParam = declared
      ? this.types?.declarations(file!)?.functions.get(fn)?.params.includes(declared)
      : undefined;
    if (c.sc === 'auto') {
      const offset = num(c.offs ?? '0', () => `csym ${c.id}`); // cc65 leaves out offs=0
      return {
        v: {
          name: c.name,
          type: declared?.type ?? bytes(2),
          storage: { kind: 'frame', register: CC65_FRAME_REGISTER, offset },
        },
        isParam: isParam ?? offset >= 0,
      };
    }
    if ((c.sc === 'static' || c.sc === 'ext') && c.sym) {
      const sym = this.ref('sym', c.sym, `csym ${c.id}`);
      if (sym.val === undefined) return undefined;
      return {
        v: {
          name: c.name,
          type:
            declared?.type ??
            (file ? this.types?.global(file, c.name)?.type : undefined) ??
            bytes(num(sym.size ?? '2', () => `sym ${sym.id}`)),
          storage: { kind: 'static', address: num(sym.val, () => `sym ${sym.id}`) },
        },
        isParam: false,
      };
    }
    if (c.sc === 'reg') {
      // register variables live in the zero-page register bank at offs while their function runs
      const offset = num(c.offs ?? '0', () => `csym ${c.id}`);
      const type = declared?.type ?? bytes(2);
      return {
        v: {
          name: c.name,
          type,
          storage:
            this.regbank === undefined
              ? { kind: 'optimized_out' }
              : { kind: 'zp-register', address: this.regbank + offset },
        },
        isParam: isParam ?? false,
        registerBytes: sizeOf(type),
      };
    }
    return undefined;
  }

  /** C globals: `_name` labels in data segments of modules that have C lines. */
  private globals(cFiles: Set<string>, functions: FunctionInfo[], syms: Rec[]): Variable[] {
    const segs = this.table('seg');
    const fnNames = new Set(functions.map((f) => `_${f.name}`));
    const labels = syms.filter(
      (s) => s.type === 'lab' && s.name.startsWith('_') && s.val !== undefined && s.seg !== undefined,
    );
    const inData = labels.filter(
      (s) =>
        DATA_SEGMENTS.has(segs.get(Number(s.seg))?.name ?? '') &&
        !fnNames.has(s.name) &&
        (this.definedInC(s, cFiles) || this.externInC(s.name.slice(1), cFiles) !== undefined),
    );
    const sorted = inData
      .map((s) => ({ s, address: num(s.val, () => `sym ${s.id}`) }))
      .sort((a, b) => a.address - b.address);
    const definitions = new Map<string, number>();
    for (const s of inData) definitions.set(s.name, (definitions.get(s.name) ?? 0) + 1);
    return sorted.map(({ s, address }, i) => {
      const name = s.name.slice(1);
      const file = this.fileOfSym(s);
      const own = file ? this.types?.global(file, name) : undefined;
      const declared = own?.type ?? this.externInC(name, cFiles);
      const gap = (sorted[i + 1]?.address ?? address + 2) - address;
      const size = s.size ? num(s.size, () => `sym ${s.id}`) : Math.max(1, Math.min(gap, 64));
      const v: Variable = { name, type: declared ?? bytes(size), storage: { kind: 'static', address } };
      // a file static: declared so in its file, or (sources not found) a name several modules define
      const isStatic = own ? own.linkage === 'static' : definitions.get(s.name)! > 1;
      if (isStatic && file) v.file = file;
      return v;
    });
  }

  /** The type a C file's `extern` declaration gives a name defined elsewhere (in assembler, say). */
  private externInC(name: string, cFiles: Set<string>): CType | undefined {
    if (!this.types) return undefined;
    if (!this.fileScope) {
      // every C file's file-scope objects, the first file naming one winning (one pass, not one per global)
      this.fileScope = new Map();
      for (const file of cFiles)
        for (const [n, o] of this.types.declarations(file)?.objects ?? [])
          if (!this.fileScope.has(n)) this.fileScope.set(n, o.type);
    }
    return this.fileScope.get(name);
  }

  /** A label's defining module has C source when one of its files is a C file. */
  private definedInC(sym: Rec, cFiles: Set<string>): boolean {
    const file = this.fileOfSym(sym);
    return file !== undefined && cFiles.has(file);
  }

  private fileOfSym(sym: Rec): string | undefined {
    const scope = this.table('scope').get(Number(sym.scope));
    if (!scope?.mod) return undefined;
    const mod = this.table('mod').get(Number(scope.mod));
    if (!mod?.file) return undefined;
    const file = this.table('file').get(Number(mod.file))?.name;
    // mod.file is the module's main source (the .s cc65 wrote); its C file shares the base name
    return file ? this.cSibling(file) : undefined;
  }

  private cSibling(file: string): string | undefined {
    if (/\.c$/i.test(file)) return file;
    if (!this.cByBase) {
      this.cByBase = new Map();
      for (const f of this.table('file').values())
        if (/\.c$/i.test(f.name) && !this.cByBase.has(stem(f.name))) this.cByBase.set(stem(f.name), f.name);
    }
    return this.cByBase.get(stem(file));
  }
}

interface LineSpan {
  address: number;
  last: number;
  file: string;
  /** its place in the file's list of C lines */
  order: number;
}

/**
 * The C line spans, indexed once: which file's line covers an address (the first line record listed, as cc65
 * writes the function's own line first): a function's file.
 */
function coveringFile(spans: LineSpan[]) {
  spans.sort((a, b) => a.address - b.address || a.order - b.order);
  const starts = spans.map((x) => x.address);
  return {
    fileAt: (address: number): string | undefined => {
      // the first-listed span covering `address`; line spans are short, so only the nearest starts are looked at
      const end = upperBound(starts, address);
      let best: LineSpan | undefined;
      for (let i = end - 1; i >= Math.max(0, end - MAX_OVERLAP); i--) {
        const x = spans[i];
        if (x.last >= address && (!best || x.order < best.order)) best = x;
      }
      return best?.file;
    },
  };
}

function ascendingIds(ids: ArrayLike<number>): boolean {
  for (let k = 1; k < ids.length; k++) if (ids[k] < ids[k - 1]) return false;
  return true;
}

/** A numeric field of record `id` of a `kind`, read in place; bad_debug_info when it is not a number. */
function numberField(table: RecTable, kind: string, id: number, key: string): number {
  const n = table.numberField(id, key);
  if (!Number.isFinite(n)) throw badDebugInfo(`${kind} ${id}: "${table.field(id, key)}" is not a number.`);
  return n;
}

function stem(file: string): string {
  return file.replace(/\.[^./]+$/, '');
}

/** The type of `size` bytes shown as they are (one object per size: types are never changed once made). */
function bytes(size: number): CType {
  return BYTES[size] ?? bytesType(size);
}

const BYTES = Array.from({ length: 9 }, (_, size) => Object.freeze(bytesType(size)) as CType);

function bytesType(size: number): CType {
  return { kind: 'bytes', size: Math.max(1, size), name: `byte[${Math.max(1, size)}]` };
}
