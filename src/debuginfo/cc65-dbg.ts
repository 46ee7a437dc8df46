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

/** The frame register name the 6502/cc65 unwinder provides. */
export const CC65_FRAME_REGISTER = 'CSP';
const MAX_RECORDS = 2_000_000;
const DATA_SEGMENTS = new Set(['DATA', 'BSS', 'RODATA', 'ZEROPAGE']);

type Rec = Record<string, string>;

export interface Cc65Options {
  fileName?: string;
  /** reads a C source named in the .dbg (relative to where cc65 ran); undefined when unreadable */
  readSource?: (name: string) => string | undefined;
}

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
    const rec = parseFields(raw.slice(tab + 1), () => `${where} line ${i + 1}`);
    if (kind === 'version') {
      version = rec;
      return;
    }
    if (rec.id === undefined) return; // 'info' and unknown kinds without ids
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

function parseFields(body: string, where: () => string): Rec {
  const rec: Rec = {};
  // values may be quoted strings containing commas
  const re = /([a-z]+)=("(?:[^"\\]|\\.)*"|[^,]*)(,|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < body.length && (m = re.exec(body))) {
    rec[m[1]] = m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\(.)/g, '$1') : m[2];
    if (!m[3]) break;
  }
  if (re.lastIndex < body.length && re.lastIndex !== 0 && !rec.id && Object.keys(rec).length === 0)
    throw new RetroError('bad_debug_info', `${where()}: cannot read its fields.`);
  return rec;
}

function num(value: string | undefined, where: string): number {
  const n = value === undefined ? NaN : value.startsWith('0x') ? parseInt(value.slice(2), 16) : Number(value);
  if (!Number.isFinite(n)) throw new RetroError('bad_debug_info', `${where}: "${value}" is not a number.`);
  return n;
}

class Builder {
  private readonly sources = new Map<string, string | undefined>();

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
    const csyms = [...this.table('csym').values()];
    for (const scope of this.table('scope').values()) {
      if (scope.type !== 'scope' || !scope.sym) continue;
      const sym = this.ref('sym', scope.sym, `scope ${scope.id}`);
      const fnCsym = csyms.find((c) => c.sym === scope.sym && (c.sc === 'ext' || c.sc === 'static'));
      if (!fnCsym || sym.val === undefined) continue;
      const start = num(sym.val, `sym ${sym.id}`);
      const size = num(sym.size ?? scope.size ?? '1', `sym ${sym.id}`);
      const own = csyms.filter((c) => c.scope === scope.id && c !== fnCsym);
      const file = this.fileOfFunction(start, files);
      const source = file ? this.source(file) : undefined;
      const declLine = file ? this.firstLine(file, start) : undefined;
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
      const declared = file ? declaredType(this.source(file) ?? '', name) : undefined;
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
    const base = file.replace(/\.[^./]+$/, '');
    return [...this.table('file').values()]
      .map((f) => f.name)
      .find((n) => n.replace(/\.[^./]+$/, '') === base && /\.c$/i.test(n));
  }

  private fileOfFunction(start: number, files: Map<number, Rec>): string | undefined {
    for (const line of this.table('line').values()) {
      if (line.type !== '1' || !line.span) continue;
      for (const spanId of line.span.split('+')) {
        const { address, size } = this.spanAddress(spanId, `line ${line.id}`);
        if (start >= address && start < address + Math.max(1, size)) return files.get(Number(line.file))?.name;
      }
    }
    return undefined;
  }

  private firstLine(file: string, start: number): number | undefined {
    let best: number | undefined;
    for (const line of this.table('line').values()) {
      if (line.type !== '1' || !line.span) continue;
      if (this.table('file').get(Number(line.file))?.name !== file) continue;
      for (const spanId of line.span.split('+')) {
        if (this.spanAddress(spanId, `line ${line.id}`).address === start)
          best = Math.min(best ?? Infinity, Number(line.line));
      }
    }
    return best;
  }

  private source(file: string): string | undefined {
    if (!this.sources.has(file)) {
      const text = this.readSource?.(file);
      this.sources.set(file, text === undefined ? undefined : codeOnly(text));
    }
    return this.sources.get(file);
  }
}

function bytes(size: number): CType {
  return { kind: 'bytes', size: Math.max(1, size), name: `byte[${Math.max(1, size)}]` };
}

function strip(v: Variable & { isParam: boolean }): Variable {
  const { isParam: _unused, ...rest } = v;
  return rest;
}
