/**
 * SDCC .cdb (as written by sdld for `sdcc -mz80 --debug`) → DebugInfo.
 *
 * Facts about SDCC 4.2 z80 output this relies on (checked against real
 * `.asm`/`.rst`, see test/unit/debuginfo-cdb-real.test.ts):
 * - A stack symbol's offset (`B,1,<off>`) is its offset from IX once the
 *   prologue `push ix; ld ix,#0; add ix,sp` ran: parameters positive
 *   (IX+0 saved IX, IX+2 return address, IX+4 first stack parameter), locals
 *   negative. Relative to SP at entry that is `<off> - 2`.
 * - A function with stack locals always sets up IX; one with only stack
 *   parameters may not (it then reads them through IY/SP), which the .cdb
 *   does not say: see z80-frame.ts.
 * - `L:XG$f` marks the start of the last instruction, not the last byte.
 */
import { badDebugInfo } from '../core/errors.js';
import type { CField, CType, DebugInfo, FunctionInfo, Storage, Variable } from './model.js';
import { LineTableBuilder, type LineTable } from './line-table.js';
import { LazyFunction, type FunctionFields } from './lazy-function.js';
import {
  emptyLinkTables,
  keyName,
  parseRecord,
  readLink,
  RecordError,
  type CdbRecord,
  type LinkTables,
  type SymbolName,
} from './sdcc-cdb-records.js';
import { clip, DeferredSymbols } from './sdcc-deferred-symbols.js';
import { ChainError, parseTypeChain, type ParsedChain } from './sdcc-type-chain.js';
import { sizeOf } from './values.js';
import { lowerBound } from './sorted.js';

export interface CdbParseResult {
  info: DebugInfo;
  /** one sentence per line that could not be used, bounded by MAX_WARNINGS */
  warnings: string[];
}

export const MAX_WARNINGS = 200;
/** Longest Z80 instruction; bounds a function's end after its last known instruction start. */
const MAX_Z80_INSTRUCTION = 4;

export function parseCdb(text: string, opts: { fileName?: string } = {}): DebugInfo {
  return parseCdbWithWarnings(text, opts).info;
}

type Rec<K extends CdbRecord['kind']> = Extract<CdbRecord, { kind: K }>;

export function parseCdbWithWarnings(text: string, opts: { fileName?: string } = {}): CdbParseResult {
  const fileName = opts.fileName ?? 'the .cdb text';
  const found: { lineNo: number; msg: string }[] = [];
  const warnInto =
    (list: { lineNo: number; msg: string }[]): Warn =>
    (lineNo, msg) =>
      list.push({ lineNo, msg: `${fileName} line ${lineNo}: ${msg}` });
  const warn = warnInto(found);

  const recs: CdbRecord[] = [];
  const links = emptyLinkTables();
  const symbols = new DeferredSymbols(text);
  let module = '';
  // line by line without an array of them all: each line's string dies young (a split's all live to the end)
  for (let i = 0, from = 0; from <= text.length; i++) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const at = from;
    from = to + 1;
    try {
      // linker records are most of a file: read in place, straight into their tables
      if (isPlainLink(text, at, to)) {
        readLink(text, at, to, links);
        continue;
      }
      if (symbols.defer(at, to, module, i + 1)) continue;
      const line = trimmed(text.slice(at, to));
      if (!line) continue;
      if (line.charCodeAt(0) === 0x4c /* L */ && line.charCodeAt(1) === 0x3a /* : */)
        readLink(line, 0, line.length, links);
      else {
        const r = parseRecord(line, module, i + 1);
        if (r.kind === 'module') module = r.name;
        if (r.kind !== 'symbol') recs.push(r); // a symbol record of no other scope is of no use, once checked
      }
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      warn(i + 1, `${e.message}: ${clip(trimmed(text.slice(at, to)))}`);
    }
  }
  const { asm, lines, namedKeys, ends } = links;
  const nothingElse =
    !recs.some((r) => r.kind !== 'module') && !asm.length && !lines.length && !namedKeys.length && !ends.size;
  // the symbol records are read by the builder; with nothing else, one of them must read for the file to be of use
  const bad: { lineNo: number; msg: string }[] = [];
  if (nothingElse && !symbols.anyReads(warnInto(bad))) {
    found.push(...bad);
    found.sort((a, b) => a.lineNo - b.lineNo);
    const first = found[0]?.msg.slice(fileName.length + 1);
    throw badDebugInfo(
      first
        ? `${fileName} has no usable SDCC debug records; the first bad line is ${first}.`
        : `${fileName} has no SDCC debug records (it is empty).`,
      { file: fileName },
    );
  }

  const info = new CdbBuilder(recs, symbols, warn, links).build();
  found.sort((a, b) => a.lineNo - b.lineNo);
  const warnings = found.slice(0, MAX_WARNINGS).map((w) => w.msg);
  if (found.length > MAX_WARNINGS) warnings.push(`${found.length - MAX_WARNINGS} more warnings were left out.`);
  return { info, warnings };
}

type Warn = (lineNo: number, msg: string) => void;

/** SDCC's spill slots: stack bytes, not variables of the program. */
function isSpillSlot(name: string): boolean {
  return name.startsWith('sloc') && /^sloc\d+$/.test(name);
}

/** A parameter: on the stack above the frame, or (in registers) declared outside the body's block. */
function isParam(r: Rec<'symbol'>, onStack: boolean, bodyBlock: number | undefined): boolean {
  return (
    r.sym.level <= 1 &&
    ((onStack && r.stackOffset > 0) || (bodyBlock !== undefined ? r.sym.block < bodyBlock : r.sym.block === 0))
  );
}

class CdbBuilder {
  /** symbol key → linker address (after the build only the locals', for the variables made later) */
  private addresses: Map<string, number>;
  private readonly ends: Map<string, number>;
  private readonly structs = new Map<string, Rec<'type'>[]>();
  private readonly structCache = new Map<Rec<'type'>, Extract<CType, { kind: 'struct' | 'union' }>>();
  /** parsed type chains by module, then chain text */
  private readonly chains = new Map<string, Map<string, ParsedChain>>();
  private moduleFiles?: Map<string, string>;

  constructor(
    private readonly recs: CdbRecord[],
    private readonly symbols: DeferredSymbols,
    private readonly warn: Warn,
    private readonly links: LinkTables,
  ) {
    this.addresses = links.addresses;
    this.ends = links.ends;
    for (const r of recs) {
      if (r.kind === 'type') {
        const list = this.structs.get(r.tag);
        if (list) list.push(r);
        else this.structs.set(r.tag, [r]);
      }
    }
  }

  build(): DebugInfo {
    // stable: several lines may share an address; file order is kept (the last one owns the code)
    const lines = this.links.lines.build();
    const functions = this.functions(lines);
    const globals = this.globals();
    const symbols: DebugInfo['symbols'] = [];
    const { namedKeys, namedAddresses } = this.links;
    for (let i = 0; i < namedKeys.length; i++) {
      const key = namedKeys[i];
      // scope C (code labels) or L… (locals) are not labels of the program
      if (key.charCodeAt(0) === 0x4c /* L */ || (key.charCodeAt(0) === 0x43 /* C */ && key.charCodeAt(1) === 0x24))
        continue;
      const name = keyName(key);
      const address = namedAddresses[i];
      symbols.push(
        address > 0xffff ? { name, address: address & 0xffff, bank: Math.floor(address / 0x10000) } : { name, address },
      );
    }
    symbols.sort((a, b) => a.address - b.address);
    const files = [...lines.files];
    // the functions' variables are made later from the local records, types and addresses: the rest can go
    this.recs.length = 0;
    this.links.asm.release();
    this.links.namedKeys.length = 0;
    this.links.namedAddresses.length = 0;
    this.symbols.sealed();
    this.links.lines = new LineTableBuilder();
    this.ends.clear();
    this.moduleFiles = undefined;
    const localAddresses = new Map<string, number>();
    for (const [key, address] of this.addresses)
      if (key.charCodeAt(0) === 0x4c /* L */) localAddresses.set(key, address);
    this.addresses = localAddresses;
    return { format: 'sdcc-cdb', cpu: 'z80', files, lines, functions, globals, symbols };
  }

  private functions(lines: LineTable): FunctionInfo[] {
    const seen = new Set<string>();
    const found: { rec: Rec<'function'>; start: number }[] = [];
    for (const r of this.recs) {
      if (r.kind !== 'function') continue;
      const key = r.sym.scopeAndName;
      const start = this.addresses.get(symKey(r.sym));
      if (seen.has(key) || start === undefined) continue;
      seen.add(key);
      found.push({ rec: r, start });
    }
    found.sort((a, b) => a.start - b.start);

    // every known address, as sorted lists (the next one after a function's last instruction bounds its end)
    const asmSorted = ascending(this.links.asm.view());
    const starts = found.map((f) => f.start);
    const named = ascending(this.addresses.values());
    const boundaries = [starts, named, asmSorted, lines.addresses];
    const lineAddrs = lines.addresses;

    // a function's ranges of assembler and C lines start where the one before's ended (its limit is this start)
    let asmFrom = found.length ? lowerBound(asmSorted, found[0].start) : 0;
    let lineFrom = found.length ? lowerBound(lineAddrs, found[0].start) : 0;
    return found.map(({ rec, start }, i) => {
      const limit = i + 1 < found.length ? found[i + 1].start : Infinity;
      const endMark = this.ends.get(rec.sym.scopeAndName);
      const markInside = endMark !== undefined && endMark >= start && endMark < limit;
      // this function's assembler lines and C lines, as index ranges (no copies)
      const asmEnd = lowerBound(asmSorted, limit, asmFrom);
      const hasAsm = asmEnd > asmFrom;
      const firstLine = lineFrom;
      const lineEnd = lowerBound(lineAddrs, limit, lineFrom);
      asmFrom = asmEnd;
      lineFrom = lineEnd;
      // With asm records or an XG mark we know where the last instruction starts;
      // otherwise the function runs on to the next known address.
      const exactLast = hasAsm || markInside;
      let lastStart = start;
      if (hasAsm) lastStart = Math.max(lastStart, asmSorted[asmEnd - 1]);
      if (lineEnd > firstLine) lastStart = Math.max(lastStart, lineAddrs[lineEnd - 1]);
      if (markInside) lastStart = Math.max(lastStart, endMark);
      const next = nextAddress(boundaries, lastStart + 1);
      let end = next !== undefined ? next - 1 : lastStart + MAX_Z80_INSTRUCTION - 1;
      if (exactLast) end = Math.min(end, lastStart + MAX_Z80_INSTRUCTION - 1);
      let bodyBlock: number | undefined;
      for (let k = firstLine; k < lineEnd; k++) {
        const block = lines.block(k) ?? 0;
        if (lines.level(k) === 1 && !(bodyBlock !== undefined && bodyBlock <= block)) bodyBlock = block;
      }
      // the frame's layout now (and every record's type checked, for the warnings); the Variables on first use
      const owner = `${rec.module}.${rec.sym.name}`;
      const { stackLocals, stackParams } = this.frameFacts(owner, bodyBlock);
      const chain = this.chain(rec.typeText, rec.module, `function ${rec.sym.name}`, rec.lineNo);
      const fn: FunctionFields = { name: rec.sym.name, start: split(start).address, end: split(end).address };
      const bank = split(start).bank;
      if (bank !== undefined) fn.bank = bank;
      if (lineEnd > firstLine) fn.file = lines.file(firstLine);
      if (chain?.type.kind === 'function') fn.returnType = chain.type.returns;
      if (stackLocals || rec.stackBytes > 0) fn.hasFramePointer = true;
      else if (!stackParams) fn.hasFramePointer = false;
      const undecided = fn.hasFramePointer === undefined;
      return new LazyFunction(fn, this.variablesLater(owner, bodyBlock, undecided));
    });
  }

  /**
   * The recipe for a function's variables. Made here, not in functions(): a closure there would keep that scope's
   * lists (every function record, every assembler address) alive as long as the program is loaded.
   */
  private variablesLater(owner: string, bodyBlock: number | undefined, undecided: boolean) {
    return () => {
      const { params, locals } = this.variablesOf(owner, bodyBlock);
      if (undecided) for (const p of params) toEntryStack(p); // unknown until the prologue is seen: z80-frame.ts
      return { params, locals };
    };
  }

  /** A function's local symbol records, in file order; a malformed one is warned of when `warn`, else left out. */
  private localRecords(owner: string, warn: boolean): Rec<'symbol'>[] {
    const out: Rec<'symbol'>[] = [];
    for (let k = this.symbols.firstLocal(owner); k >= 0; k = this.symbols.nextLocal(k)) {
      const r = this.symbols.read(k, warn ? this.warn : undefined);
      if (r) out.push(r);
    }
    return out;
  }

  /** What the frame's layout needs of a function's locals (and every record's type checked, for the warnings). */
  private frameFacts(owner: string, bodyBlock: number | undefined) {
    let stackLocals = false;
    let stackParams = false;
    for (const r of this.localRecords(owner, true)) {
      const onStack = r.space === 'B' || r.onStack;
      if (onStack && r.stackOffset < 0) stackLocals = true; // includes SDCC's spill slots (sloc)
      if (isSpillSlot(r.sym.name) || !this.chain(r.typeText, r.module, r.sym.name, r.lineNo)) continue;
      if (onStack && isParam(r, onStack, bodyBlock)) stackParams = true;
    }
    return { stackLocals, stackParams };
  }

  /** `owner`: the function as `module.function` */
  private variablesOf(owner: string, bodyBlock: number | undefined) {
    const params: { v: Variable; order: number }[] = [];
    const locals: Variable[] = [];
    this.localRecords(owner, false).forEach((r, order) => {
      const v = isSpillSlot(r.sym.name) ? undefined : this.variable(r);
      if (!v) return;
      const onStack = r.space === 'B' || r.onStack;
      // SDCC lists register parameters last-first, stack parameters by offset.
      if (isParam(r, onStack, bodyBlock)) params.push({ v, order: onStack ? 1000 + r.stackOffset : -order });
      else locals.push(v);
    });
    params.sort((a, b) => a.order - b.order);
    return { params: params.map((p) => p.v), locals };
  }

  /** Runs after functions(): it takes each global's address out of the table (a second definition finds none). */
  private globals(): Variable[] {
    const out: Variable[] = [];
    for (const k of this.symbols.globals) {
      const r = this.symbols.read(k, this.warn);
      if (!r) continue;
      if (/^\{\d+\}DF,/.test(r.typeText)) continue; // functions are not variables
      const key = symKey(r.sym);
      const address = this.addresses.get(key);
      if (address === undefined) continue; // declared here, defined elsewhere (or not linked), or seen
      const v = this.variable(r, address);
      if (v) {
        this.addresses.delete(key);
        // F<module>: a file static, seen from its module's C file
        const file = r.sym.scope.startsWith('F') ? this.moduleFile(r.sym.scope.slice(1)) : undefined;
        if (file !== undefined) v.file = file;
        out.push(v);
      }
    }
    return out;
  }

  /**
   * A module's C file: SDCC names a module after its source, so the C line
   * records' file whose name without folder and extension is the module's
   * (the linker writes line records after every module's, so they carry no module).
   */
  private moduleFile(module: string): string | undefined {
    if (!this.moduleFiles) {
      this.moduleFiles = new Map();
      for (const file of this.links.lines.fileNames()) {
        const stem = file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
        if (!this.moduleFiles.has(stem)) this.moduleFiles.set(stem, file);
      }
    }
    return this.moduleFiles.get(module);
  }

  /** `address`: the symbol's linker address, when the caller has looked it up already. */
  private variable(r: Rec<'symbol'>, address?: number): Variable | undefined {
    const chain = this.chain(r.typeText, r.module, r.sym.name, r.lineNo);
    if (!chain) return undefined;
    const v: Variable = {
      name: r.sym.name,
      type: chain.type,
      storage: this.storage(r, address),
      level: r.sym.level,
      block: r.sym.block,
    };
    return v;
  }

  private storage(r: Rec<'symbol'>, known?: number): Storage {
    const address = known ?? this.addresses.get(symKey(r.sym));
    if (address !== undefined) return { kind: 'static', ...split(address) };
    if (r.space === 'B' || r.onStack) return { kind: 'frame', register: 'IX', offset: r.stackOffset };
    if (r.registers) return { kind: 'register', registers: r.registers.toUpperCase().split(',') };
    return { kind: 'optimized_out' };
  }

  private chain(typeText: string, module: string, what: string, lineNo: number) {
    // the same chains recur for every variable of a module; types are never mutated once built
    let ofModule = this.chains.get(module);
    if (!ofModule) this.chains.set(module, (ofModule = new Map()));
    const known = ofModule.get(typeText);
    if (known) return known;
    try {
      const parsed = parseTypeChain(typeText, (tag) => this.struct(tag, module));
      ofModule.set(typeText, parsed);
      return parsed;
    } catch (e) {
      if (!(e instanceof ChainError)) throw e;
      this.warn(lineNo, `${what}: ${e.message}`);
      return undefined;
    }
  }

  /** Struct/union by tag, preferring the T record of the same module. Cyclic through pointers. */
  private struct(tag: string, module: string): CType | undefined {
    const list = this.structs.get(tag);
    if (!list) return undefined;
    const rec = list.find((t) => t.scope === `F${module}`) ?? list[0];
    const cached = this.structCache.get(rec);
    if (cached) return cached;
    const t: Extract<CType, { kind: 'struct' | 'union' }> = {
      kind: 'struct',
      size: 0,
      name: `struct ${tag}`,
      fields: [],
    };
    this.structCache.set(rec, t);
    for (const f of rec.fields) {
      const c = this.chain(f.typeText, rec.module, `field ${tag}.${f.name}`, rec.lineNo);
      if (!c) continue;
      const field: CField = { name: f.name, offset: f.offset, type: c.type };
      if (c.bits) {
        field.bitOffset = c.bits.offset;
        field.bitWidth = c.bits.width;
      }
      t.fields.push(field);
    }
    t.size = Math.max(0, ...t.fields.map((f) => f.offset + sizeOf(f.type)));
    // .cdb does not say union; overlapping plain members at offset 0 do.
    if (
      t.fields.length > 1 &&
      t.fields.every((f) => f.offset === 0) &&
      t.fields.some((f) => f.bitWidth === undefined)
    ) {
      t.kind = 'union';
      t.name = `union ${tag}`;
    }
    return t;
  }
}

function symKey(s: SymbolName): string {
  return s.key;
}

/** Banked builds put the bank above bit 16 of linker addresses. */
function split(address: number): { address: number; bank?: number } {
  return address > 0xffff ? { address: address & 0xffff, bank: Math.floor(address / 0x10000) } : { address };
}

/** IX-relative offset → offset from SP at function entry (IX = SP_entry - 2). */
function toEntryStack(v: Variable): void {
  if (v.storage.kind === 'frame') v.storage = { kind: 'stack', offset: v.storage.offset - 2 };
}

/** `list` ascending: itself when it already is (linker records mostly come in address order), else a sorted copy. */
function ascending(list: Iterable<number> | Int32Array): ArrayLike<number> {
  const a = Array.isArray(list) || list instanceof Int32Array ? (list as ArrayLike<number>) : [...list];
  for (let i = 1; i < a.length; i++) if (a[i] < a[i - 1]) return Float64Array.from(a).sort(); // no comparator
  return a;
}

/** The least address >= `from` in any of the sorted lists. */
function nextAddress(lists: ArrayLike<number>[], from: number): number | undefined {
  let best: number | undefined;
  for (const list of lists) {
    const i = lowerBound(list, from);
    if (i < list.length && (best === undefined || list[i] < best)) best = list[i];
  }
  return best;
}

/** An `L:` record with no white space around it at text[from, to). */
function isPlainLink(text: string, from: number, to: number): boolean {
  const last = text.charCodeAt(to - 1);
  return (
    text.charCodeAt(from) === 0x4c /* L */ && text.charCodeAt(from + 1) === 0x3a /* : */ && last > 0x20 && last !== 0xa0
  );
}

/** `raw` without surrounding white space, copied only when it has some (most lines have none). */
function trimmed(raw: string): string {
  if (!raw) return raw;
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  return first > 0x20 && last > 0x20 && first !== 0xa0 && last !== 0xa0 ? raw : raw.trim();
}
