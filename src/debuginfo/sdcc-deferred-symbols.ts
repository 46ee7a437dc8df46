/**
 * SDCC's symbol records (`S:`) of locals and globals, kept as where they are in the text until the builder reads
 * them. A big program has thousands, most of them locals of functions nobody looks at: read at once, each was a
 * record object and several strings that outlived the parse (and a young generation's worth of copying).
 */
import { IntColumn } from './int-column.js';
import { parseRecord, RecordError, type CdbRecord } from './sdcc-cdb-records.js';

type SymbolRecord = Extract<CdbRecord, { kind: 'symbol' }>;

export class DeferredSymbols {
  private readonly from = new IntColumn();
  private readonly to = new IntColumn();
  private readonly lineNo = new IntColumn();
  private readonly module: string[] = [];
  /** the globals' and file statics' records, in file order */
  readonly globals: number[] = [];
  /** each function's locals, in file order, as a chain: its first and last record by `module.function`, the next */
  private readonly firstOf = new Map<string, number>();
  private readonly lastOf = new Map<string, number>();
  private readonly next = new IntColumn();

  constructor(private readonly text: string) {}

  get count(): number {
    return this.from.length;
  }

  /** Keeps the line text[at, to) for later when it is a local's or a global's symbol record; else false. */
  defer(at: number, to: number, module: string, lineNo: number): boolean {
    const text = this.text;
    while (at < to && isSpace(text.charCodeAt(at))) at++;
    while (to > at && isSpace(text.charCodeAt(to - 1))) to--;
    if (text.charCodeAt(at) !== 0x53 /* S */ || text.charCodeAt(at + 1) !== 0x3a /* : */) return false;
    const scope = text.charCodeAt(at + 2);
    const k = this.from.length;
    if (scope === 0x47 /* G */ || scope === 0x46 /* F */) this.globals.push(k);
    else if (scope === 0x4c /* L */) {
      const dollar = text.indexOf('$', at + 3);
      if (dollar < 0 || dollar >= to) return false; // malformed: read now, for its warning
      const key = ownerKey(text.slice(at + 3, dollar), module);
      const last = this.lastOf.get(key);
      if (last === undefined) this.firstOf.set(key, k);
      else this.next.set(last, k);
      this.lastOf.set(key, k);
    } else return false;
    this.next.push(-1);
    this.from.push(at);
    this.to.push(to);
    this.lineNo.push(lineNo);
    this.module.push(module);
    return true;
  }

  /** Whether any record reads; each bad one before it is told to `warn`. */
  anyReads(warn: (lineNo: number, msg: string) => void): boolean {
    for (let k = 0; k < this.count; k++) if (this.read(k, warn)) return true;
    return false;
  }

  /** The first record of a function's locals, by `module.function`; -1: none. */
  firstLocal(owner: string): number {
    return this.firstOf.get(owner) ?? -1;
  }

  /** The record after local record `k` of the same function; -1: none. */
  nextLocal(k: number): number {
    return this.next.at(k)!;
  }

  /** Once every function's locals have been found: the chain's ends are not needed to read them. */
  sealed(): void {
    this.lastOf.clear();
  }

  /** Record `k`; a malformed one is undefined, and told to `warn` with its line. */
  read(k: number, warn?: (lineNo: number, msg: string) => void): SymbolRecord | undefined {
    const line = this.text.slice(this.from.at(k)!, this.to.at(k)!);
    try {
      const r = parseRecord(line, this.module[k], this.lineNo.at(k)!);
      return r.kind === 'symbol' ? r : undefined;
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      warn?.(this.lineNo.at(k)!, `${e.message}: ${clip(line)}`);
      return undefined;
    }
  }
}

/** White space as String.prototype.trim takes it, within Latin-1. */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0;
}

/**
 * `<module>.<function>` (SDCC ≥ 3.x) or `<function>` (older), the scope of a local without its `L` →
 * `module.function`, unambiguous as a function name has no dot.
 */
function ownerKey(owner: string, symModule: string): string {
  return owner.includes('.') ? owner : `${symModule}.${owner}`;
}

/** A line as a warning quotes it. */
export function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
