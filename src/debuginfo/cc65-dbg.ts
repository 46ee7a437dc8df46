/**
 * cc65 debug info (`ld65 --dbgfile`, format version 2) → the common model.
 * Records are `kind<TAB>key=value,…`. We use: file, seg, span (addresses),
 * line (type 1 = C source lines), scope + csym (C functions, their
 * parameters and locals by C-stack offset), sym (addresses of functions
 * and globals; cc65 writes no csym for globals, so C globals are the
 * underscore-prefixed labels in data segments of modules with C code).
 * cc65 records no C types: they come from the declarations in the C source
 * when it can be read (cc65-c-decls.ts); otherwise bytes are shown.
 *
 * Locals are 'frame' storage on register CSP: the C stack pointer at
 * function entry (after the caller pushed the arguments), which the 6502
 * unwinder computes from the zero-page `sp`.
 */
import { RetroError } from '../core/errors.js';
import { codeOnly, declaredType } from './cc65-c-decls.js';
import type { CType, DebugInfo, FunctionInfo, LineEntry, Variable } from './model.js';
import { upperBound } from './sorted.js';

/** The frame register name the 6502/cc65 unwinder provides. */
export const CC65_FRAME_REGISTER = 'CSP';
const MAX_RECORDS = 2_000_000;
/** Line spans overlapping one address (cc65 nests a few: a statement inside its function's line) */
const MAX_OVERLAP = 64;
const DATA_SEGMENTS = new Set(['DATA', 'BSS', 'RODATA', 'ZEROPAGE']);

type Rec = Record<string, string>;

export interface Cc65Options {
  fileName?: string;
  /** reads a C source named in the .dbg (relative to where cc65 ran); undefined when unreadable */
  readSource?: (name: string) => string | undefined;
}

/** Record kinds whose every use reads `name` (ld65 always writes it, possibly empty). */
const NAMED_KINDS = new Set(['file', 'mod', 'seg', 'scope', 'sym', 'csym', 'lib']);

export function parseCc65Dbg(text: string, opts: Cc65Options = {}): DebugInfo {
  const where = opts.fileName ?? 'the .dbg text';
  const recs = new Map<string, Map<number, Rec>>();
  let version: Rec | undefined;
  let count = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    if (++count > MAX_RECORDS) throw new RetroError('too_large', `${where} has more than ${MAX_RECORDS} records.`);
    const tab = raw.indexOf('\t');
    if (tab <= 0)
      throw new RetroError(
        'bad_debug_info',
        `${where} line ${i + 1} is not a cc65 debug record ("kind<TAB>key=value,…"): ${JSON.stringify(raw.slice(0, 60))}`,
      );
    const kind = raw.slice(0, tab);
    // only C lines (type=1) are used; the assembler's own line records are most of a file
    if (kind === 'line' && !raw.includes(',type=1', tab)) return;
    const rec = parseFields(raw.slice(tab + 1));
    if (kind === 'version') {
      version = rec;
      return;
    }
    if (rec.id === undefined) return; // 'info' and unknown kinds without ids
    if (NAMED_KINDS.has(kind) && rec.name === undefined)
      throw new RetroError('bad_debug_info', `${where} line ${i + 1}: a ${kind} record without a name.`);
    let table = recs.get(kind);
    if (!table) recs.set(kind, (table = new Map()));
    table.set(num(rec.id, `${where} line ${i + 1}`), rec);
  });
  if (!version || version.major !== '2') {
    throw new RetroError(
      'bad_debug_info',
      `${where} is not a cc65 debug file of format version 2 (${version ? `found major=${version.major}` : 'no version record'}).`,
    );
  }
  return new Builder(recs, where, opts.readSource).build();
}

/** `key=value,key="quoted, with commas",…` by index: this runs once per record of files with millions. */
function parseFields(body: string): Rec {
  const rec: Rec = {};
  const n = body.length;
  let i = 0;
  while (i < n) {
    const eq = body.indexOf('=', i);
    if (eq < 0) break;
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
      rec[key] = escaped ? raw.replace(/\\(.)/g, '$1') : raw;
      i = j + 2; // past the closing quote and its comma
    } else {
      const comma = body.indexOf(',', eq + 1);
      const end = comma < 0 ? n : comma;
      rec[key] = body.slice(eq + 1, end);
      i = end + 1;
    }
  }
  return rec;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function num(value: string | undefined, where: string): number {
  const n = value === undefined ? NaN : value.startsWith('0x') ? parseInt(value.slice(2), 16) : Number(value);
  if (!Number.isFinite(n)) throw new RetroError('bad_debug_info', `${where}: "${value}" is not a number.`);
  return n;
}

class Builder {
  private readonly sources = new Map<string, string | undefined>();
  private cByBase?: Map<string, string>;
  /** span id → absolute address and size, computed once */
  private readonly spans = new Map<string, { address: number; size: number }>();

  constructor(
    private readonly recs: Map<string, Map<number, Rec>>,
    private readonly where: string,
    private readonly readSource?: (name: string) => string | undefined,
  ) {}

  private table(kind: string): Map<number, Rec> {
    return this.recs.get(kind) ?? new Map();
  }

  private ref(kind: string, id: string | undefined, from: string): Rec {
    const rec = this.table(kind).get(num(id, `${this.where} (${from})`));
    if (!rec)
      throw new RetroError(
        'bad_debug_info',
        `${this.where}: ${from} refers to ${kind} ${id}, which is not in the file.`,
      );
    return rec;
  }

  private spanAddress(spanId: string, from: string): { address: number; size: number } {
    const known = this.spans.get(spanId);
    if (known) return known;
    const found = this.readSpan(spanId, from);
    this.spans.set(spanId, found);
    return found;
  }

  private readSpan(spanId: string, from: string): { address: number; size: number } {
    const span = this.ref('span', spanId, from);
    const seg = this.ref('seg', span.seg, `span ${spanId}`);
    return {
      address: num(seg.start, `seg ${span.seg}`) + num(span.start, `span ${spanId}`),
      size: num(span.size, `span ${spanId}`),
    };
  }

  build(): DebugInfo {
    const files = this.table('file');
    const lines: LineEntry[] = [];
    const cFiles = new Set<string>();
    for (const [id, line] of this.table('line')) {
      if (line.type !== '1' || !line.span) continue; // type 1: C source lines
      const file = this.ref('file', line.file, `line ${id}`).name;
      cFiles.add(file);
      for (const spanId of line.span.split('+')) {
        const { address } = this.spanAddress(spanId, `line ${id}`);
        lines.push({ file, line: num(line.line, `line ${id}`), address });
      }
    }
    lines.sort((a, b) => a.address - b.address || a.line - b.line);
    const functions = this.functions(files);
    const globals = this.globals(cFiles, functions);
    const symbols = [...this.table('sym').values()]
      .filter((s) => s.type === 'lab' && s.val !== undefined)
      .map((s) => ({ name: s.name, address: num(s.val, `sym ${s.id}`) }));
    // the C stack pointer: exported as `sp` (c_sp in newer cc65); else the first ZEROPAGE word, where the runtime puts it
    const zp = [...this.table('seg').values()].find((s) => s.name === 'ZEROPAGE');
    const spSym = [...this.table('sym').values()].find(
      (s) => (s.name === 'sp' || s.name === 'c_sp') && s.val !== undefined,
    );
    const cStackPointer = spSym ? num(spSym.val, 'sym sp') : zp ? num(zp.start, 'seg ZEROPAGE') : undefined;
    if (cStackPointer !== undefined) symbols.push({ name: '__cc65_sp__', address: cStackPointer });
    return { format: 'cc65-dbg', cpu: '6502', files: [...cFiles], lines, functions, globals, symbols };
  }

  private functions(files: Map<number, Rec>): FunctionInfo[] {
    const out: FunctionInfo[] = [];
    // one pass over the C symbols: by the assembler symbol they name and by their scope
    const fnCsymBySym = new Map<string, Rec>();
    const csymsByScope = new Map<string, Rec[]>();
    for (const c of this.table('csym').values()) {
      if (c.sym !== undefined && (c.sc === 'ext' || c.sc === 'static') && !fnCsymBySym.has(c.sym))
        fnCsymBySym.set(c.sym, c);
      const list = csymsByScope.get(c.scope) ?? [];
      list.push(c);
      csymsByScope.set(c.scope, list);
    }
    const lineSpans = this.lineSpans(files);
    for (const scope of this.table('scope').values()) {
      if (scope.type !== 'scope' || !scope.sym) continue;
      const sym = this.ref('sym', scope.sym, `scope ${scope.id}`);
      const fnCsym = fnCsymBySym.get(scope.sym);
      if (!fnCsym || sym.val === undefined) continue;
      const start = num(sym.val, `sym ${sym.id}`);
      const size = num(sym.size ?? scope.size ?? '1', `sym ${sym.id}`);
      const own = (csymsByScope.get(scope.id) ?? []).filter((c) => c !== fnCsym);
      const file = lineSpans.fileAt(start);
      const source = file ? this.source(file) : undefined;
      const declLine = file ? lineSpans.firstLine(file, start) : undefined;
      const vars = own
        .map((c) => this.local(c, source, declLine))
        .filter((v): v is Variable & { isParam: boolean } => v !== undefined);
      out.push({
        name: fnCsym.name,
        file,
        start,
        end: start + Math.max(1, size) - 1,
        params: vars.filter((v) => v.isParam).map(strip),
        locals: vars.filter((v) => !v.isParam).map(strip),
      });
    }
    return out.sort((a, b) => a.start - b.start);
  }

  private local(
    c: Rec,
    source: string | undefined,
    fromLine: number | undefined,
  ): (Variable & { isParam: boolean }) | undefined {
    const declared = source ? declaredType(source, c.name, fromLine) : undefined;
    if (c.sc === 'auto') {
      const offset = num(c.offs ?? '0', `csym ${c.id}`); // cc65 leaves out offs=0
      return {
        name: c.name,
        type: declared ?? bytes(2),
        storage: { kind: 'frame', register: CC65_FRAME_REGISTER, offset },
        isParam: offset >= 0,
      };
    }
    if ((c.sc === 'static' || c.sc === 'ext') && c.sym) {
      const sym = this.ref('sym', c.sym, `csym ${c.id}`);
      if (sym.val === undefined) return undefined;
      return {
        name: c.name,
        type: declared ?? bytes(num(sym.size ?? '2', `sym ${sym.id}`)),
        storage: { kind: 'static', address: num(sym.val, `sym ${sym.id}`) },
        isParam: false,
      };
    }
    if (c.sc === 'reg') {
      // register variables live in the zero-page register bank at offs; shown as bytes there
      return { name: c.name, type: declared ?? bytes(2), storage: { kind: 'optimized_out' }, isParam: false };
    }
    return undefined;
  }

  /** C globals: `_name` labels in data segments of modules that have C lines. */
  private globals(cFiles: Set<string>, functions: FunctionInfo[]): Variable[] {
    const segs = this.table('seg');
    const fnNames = new Set(functions.map((f) => `_${f.name}`));
    const labels = [...this.table('sym').values()].filter(
      (s) => s.type === 'lab' && s.name.startsWith('_') && s.val !== undefined && s.seg !== undefined,
    );
    const inData = labels.filter(
      (s) =>
        DATA_SEGMENTS.has(segs.get(Number(s.seg))?.name ?? '') && !fnNames.has(s.name) && this.definedInC(s, cFiles),
    );
    const sorted = inData.map((s) => ({ s, address: num(s.val, `sym ${s.id}`) })).sort((a, b) => a.address - b.address);
    return sorted.map(({ s, address }, i) => {
      const name = s.name.slice(1);
      const file = this.fileOfSym(s);
      const source = file ? this.source(file) : undefined;
      const declared = source ? declaredType(source, name) : undefined;
      const gap = (sorted[i + 1]?.address ?? address + 2) - address;
      const size = s.size ? num(s.size, `sym ${s.id}`) : Math.max(1, Math.min(gap, 64));
      return { name, type: declared ?? bytes(size), storage: { kind: 'static', address } };
    });
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

  /**
   * The C line spans, indexed once: which file's line covers an address (the
   * first line record listed, as cc65 writes the function's own line first)
   * and the lowest line of a file starting exactly at an address.
   */
  private lineSpans(files: Map<number, Rec>) {
    const spans: { address: number; last: number; file: string; order: number }[] = [];
    const lowest = new Map<string, number>();
    let order = 0;
    for (const line of this.table('line').values()) {
      if (line.type !== '1' || !line.span) continue;
      const file = files.get(Number(line.file))?.name;
      if (file === undefined) continue;
      for (const spanId of line.span.split('+')) {
        const { address, size } = this.spanAddress(spanId, `line ${line.id}`);
        spans.push({ address, last: address + Math.max(1, size) - 1, file, order: order++ });
        const key = `${file}\u0000${address}`;
        lowest.set(key, Math.min(lowest.get(key) ?? Infinity, Number(line.line)));
      }
    }
    spans.sort((a, b) => a.address - b.address || a.order - b.order);
    const starts = spans.map((x) => x.address);
    return {
      fileAt: (address: number): string | undefined => {
        // the first-listed span covering `address`; line spans are short, so only the nearest starts are looked at
        const end = upperBound(starts, address);
        let best: (typeof spans)[number] | undefined;
        for (let i = end - 1; i >= Math.max(0, end - MAX_OVERLAP); i--) {
          const x = spans[i];
          if (x.last >= address && (!best || x.order < best.order)) best = x;
        }
        return best?.file;
      },
      firstLine: (file: string, address: number): number | undefined => lowest.get(`${file}\u0000${address}`),
    };
  }

  private source(file: string): string | undefined {
    if (!this.sources.has(file)) {
      const text = this.readSource?.(file);
      this.sources.set(file, text === undefined ? undefined : codeOnly(text));
    }
    return this.sources.get(file);
  }
}

function stem(file: string): string {
  return file.replace(/\.[^./]+$/, '');
}

function bytes(size: number): CType {
  return { kind: 'bytes', size: Math.max(1, size), name: `byte[${Math.max(1, size)}]` };
}

function strip(v: Variable & { isParam: boolean }): Variable {
  const { isParam: _unused, ...rest } = v;
  return rest;
}
