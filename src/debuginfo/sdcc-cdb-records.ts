/**
 * Line-level reader for SDCC .cdb files: turns each text line into a typed
 * record (linker `L:` records straight into the tables the builder uses), or
 * a reason why it could not. No cross-record resolution here. Big files have
 * hundreds of thousands of lines: fields are read by index and numbers in
 * place, and no record object is made where a table entry does.
 */
import { IntColumn } from './int-column.js';
import { LineTableBuilder } from './line-table.js';

/** `scope$name$level_sub$block`, e.g. `Lmain.f$x$2_0$10` or `G$main$0$0`. */
export class SymbolName {
  constructor(
    /** the symbol as written */
    readonly text: string,
    /** `G` global, `F<module>` file static, `L<module>.<function>` or `L<function>` local */
    readonly scope: string,
    readonly name: string,
    readonly level: number,
    readonly block: number,
    /** the `_sub` of the level, text[subFrom, subTo) (empty: none) */
    private readonly subFrom: number,
    private readonly subTo: number,
    /** where the `$` before the level is */
    private readonly levelDollar: number,
  ) {}

  /** `scope$name`, as the end records (`L:X…`) name a function */
  get scopeAndName(): string {
    return this.text.slice(0, this.levelDollar);
  }

  /**
   * `scope$name$level$block`, the symbol's identity (addresses and declarations are matched by it), made when
   * asked: most symbols are locals, which no address names.
   */
  get key(): string {
    return this.subFrom === this.subTo
      ? this.text
      : `${this.text.slice(0, this.subFrom)}${this.text.slice(this.subTo)}`;
  }
}

/** Where a record stands: the module (`M:`) it follows and its 1-based line. */
interface Located {
  module: string;
  lineNo: number;
}

export type CdbRecord = Located &
  (
    | { kind: 'module'; name: string }
    | {
        kind: 'function';
        sym: SymbolName;
        typeText: string;
        space: string;
        /** the bytes of locals SDCC put on the stack (the record's second number) */
        stackBytes: number;
      }
    | {
        kind: 'symbol';
        sym: SymbolName;
        typeText: string;
        space: string;
        onStack: boolean;
        stackOffset: number;
        /** the register list as written (`l,h`), split when a variable is made of it */
        registers?: string;
      }
    | { kind: 'type'; scope: string; tag: string; fields: { offset: number; name: string; typeText: string }[] }
  );

/** What the linker records (`L:`) say, in file order. */
export interface LinkTables {
  /** start addresses of assembler lines (`L:A$…`) */
  asm: IntColumn;
  /** C lines (`L:C$…`), in file order */
  lines: LineTableBuilder;
  /** symbol key → address */
  addresses: Map<string, number>;
  /** the named addresses, for the label list: symbol keys (`scope$name$level$block`) and their addresses */
  namedKeys: string[];
  namedAddresses: number[];
  /** `scope$name` → start of the function's last instruction (`L:X…`) */
  ends: Map<string, number>;
}

export function emptyLinkTables(): LinkTables {
  return {
    asm: new IntColumn(),
    lines: new LineTableBuilder(),
    addresses: new Map(),
    namedKeys: [],
    namedAddresses: [],
    ends: new Map(),
  };
}

export class RecordError extends Error {}

/** An `M:`, `F:`, `S:` or `T:` record; `module` is the current one (an `M:` record's own name is its module). */
export function parseRecord(line: string, module: string, lineNo: number): CdbRecord {
  // the tag by its characters: a two-character slice per record would be a string copy each
  const tag = line.charCodeAt(1) === 0x3a /* : */ ? line.charCodeAt(0) : -1;
  const body = line.slice(2);
  switch (tag) {
    case 0x4d /* M */: {
      if (!/^[\w.-]+$/.test(body)) throw new RecordError('module name missing or malformed');
      return { kind: 'module', module: body, lineNo, name: body };
    }
    case 0x46 /* F */:
      return parseFunction(body, module, lineNo);
    case 0x53 /* S */:
      return parseSymbol(body, module, lineNo);
    case 0x54 /* T */:
      return parseType(body, module, lineNo);
    default:
      throw new RecordError(`unknown record type "${line.slice(0, 1)}"`);
  }
}

export function parseSymbolName(text: string): SymbolName {
  symbolBounds(text);
  const scope = text.slice(0, symFirst);
  return new SymbolName(
    text,
    scope,
    text.slice(symFirst + 1, symPrev),
    symLevel,
    symBlock,
    symSubFrom,
    symLast,
    symPrev,
  );
}

/** Where symbolBounds found the name's bounds and numbers (module variables: no result object per symbol). */
let symFirst = 0;
let symPrev = 0;
let symLevel = 0;
let symBlock = 0;
/** the sub-level `_sub` is text[symSubFrom, symLast) (empty without one); symLast: the `$` before the block */
let symSubFrom = 0;
let symLast = 0;

/**
 * Checks `scope$name$level[_sub]$block` and sets symFirst/symPrev (the `$` after the scope and before the level),
 * symLevel, symBlock and the sub-level's bounds.
 */
function symbolBounds(text: string): void {
  // by index rather than split: this runs for most records of a big file
  const first = text.indexOf('$');
  const last = dollarBefore(text, text.length, 0);
  const prev = last > 0 ? dollarBefore(text, last, 0) : -1;
  if (first <= 0 || prev <= first + 1) throw badSymbol(text);
  // level[_sub] and block, read in place
  const level = readInt(text, prev + 1);
  const levelEnd = numberEnd;
  if (
    levelEnd !== last &&
    !(text.charCodeAt(levelEnd) === 0x5f /* _ */ && readInt(text, levelEnd + 1) >= 0 && numberEnd === last)
  )
    throw badSymbol(text);
  const block = readInt(text, last + 1);
  if (!(level >= 0) || !(block >= 0) || numberEnd !== text.length) throw badSymbol(text);
  symFirst = first;
  symPrev = prev;
  symLevel = level;
  symBlock = block;
  symSubFrom = levelEnd;
  symLast = last;
}

/** A symbol's identity, `scope$name$level$block`: the sub-level left out (`G$x$0_0$0` and `G$x$0$0` are one). */
function symbolKey(text: string): string {
  symbolBounds(text);
  return symSubFrom === symLast ? text : `${text.slice(0, symSubFrom)}${text.slice(symLast)}`;
}

/** The name of a symbol key (`scope$name$level$block`). */
export function keyName(key: string): string {
  return key.slice(key.indexOf('$') + 1, dollarBefore(key, dollarBefore(key, key.length, 0), 0));
}

function badSymbol(text: string): RecordError {
  return new RecordError(`symbol "${text}" is not scope$name$level$block`);
}

const COMMA = 0x2c;
const MINUS = 0x2d;

/** Where the last readInt/readHex stopped (a module variable: no result object per number on big files). */
let numberEnd = 0;

/** A decimal integer (optionally negative) at `at`; NaN without digits. Sets numberEnd. */
function readInt(text: string, at: number): number {
  const negative = text.charCodeAt(at) === MINUS;
  let i = negative ? at + 1 : at;
  const first = i;
  let value = 0;
  for (let c = text.charCodeAt(i); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++i)) value = value * 10 + c - 0x30;
  numberEnd = i;
  if (i === first) return NaN;
  return negative ? -value : value;
}

/** Hex digits from `at` to `end` (by default the end of `text`); NaN unless all of them are. */
function readHexToEnd(text: string, at: number, end = text.length): number {
  let value = 0;
  if (at >= end) return NaN;
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i) | 0x20; // lower case letters
    const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (d < 0) return NaN;
    value = value * 16 + d;
  }
  return value;
}

/** `name(typechain),…`: the index of the type chain's `)`, checked to be followed by a field. */
function typeClose(body: string): number {
  const open = body.indexOf('(');
  const close = body.indexOf(')', open);
  if (open < 0 || close < 0) throw new RecordError('missing (type chain)');
  if (body.charCodeAt(close + 1) !== COMMA) throw new RecordError('missing fields after the type chain');
  return close;
}

function parseFunction(body: string, module: string, lineNo: number): CdbRecord {
  const close = typeClose(body);
  const open = body.indexOf('(');
  // space,numbers…: at least two numbers, all of them whole
  const spaceEnd = body.indexOf(',', close + 2);
  let count = 0;
  let stackBytes = 0;
  let ok = spaceEnd > close + 2;
  for (let at = spaceEnd + 1; ok && at > 0 && at <= body.length; at = numberEnd + 1) {
    const n = readInt(body, at);
    if (Number.isNaN(n) || (numberEnd < body.length && body.charCodeAt(numberEnd) !== COMMA)) ok = false;
    else if (++count === 2) stackBytes = n;
  }
  if (!ok || count < 2) {
    throw new RecordError('function record needs address space, on-stack flag and stack size');
  }
  return {
    kind: 'function',
    module,
    lineNo,
    sym: parseSymbolName(body.slice(0, open)),
    typeText: body.slice(open + 1, close),
    space: body.slice(close + 2, spaceEnd),
    stackBytes,
  };
}

/** Fields after the type: space,onStack,offset[,[registers]][,…] — the register list has commas inside. */
function parseSymbol(body: string, module: string, lineNo: number): CdbRecord {
  const close = typeClose(body);
  const open = body.indexOf('(');
  const at = close + 2;
  const space = body.charCodeAt(at);
  let ok = space >= 0x41 && space <= 0x5a && body.charCodeAt(at + 1) === COMMA && body.charCodeAt(at + 2) !== MINUS;
  const onStack = ok ? readInt(body, at + 2) : NaN;
  const onStackText = numberEnd - (at + 2);
  ok &&= !Number.isNaN(onStack) && body.charCodeAt(numberEnd) === COMMA;
  const offset = ok ? readInt(body, numberEnd + 1) : NaN;
  const end = numberEnd;
  if (!ok || Number.isNaN(offset) || (end < body.length && body.charCodeAt(end) !== COMMA)) {
    throw new RecordError(`symbol fields "${body.slice(at)}" are not space,onStack,offset[,[registers]]`);
  }
  const rec: CdbRecord = {
    kind: 'symbol',
    module,
    lineNo,
    sym: parseSymbolName(body.slice(0, open)),
    typeText: body.slice(open + 1, close),
    space: body[at],
    onStack: onStack === 1 && onStackText === 1,
    stackOffset: offset,
  };
  if (body.charCodeAt(end + 1) === 0x5b /* [ */) {
    const shut = body.indexOf(']', end + 2);
    const list = shut < 0 ? '' : body.slice(end + 2, shut);
    if (shut >= 0 && /^\w*(?:,\w*)*$/.test(list) && (shut + 1 === body.length || body.charCodeAt(shut + 1) === COMMA))
      rec.registers = list;
  }
  return rec;
}

const FIELD = /\(\{(\d+)\}S:S\$([^$()]+)\$\d+(?:_\d+)?\$\d+\(([^()]*)\),[A-Z],-?\d+,-?\d+\)/y;

function parseType(body: string, module: string, lineNo: number): CdbRecord {
  const open = body.indexOf('[');
  if (open < 0 || !body.endsWith(']')) throw new RecordError('type record is not scope$tag[fields]');
  const head = body.slice(0, open);
  const dollar = head.indexOf('$');
  if (dollar <= 0 || dollar === head.length - 1) throw new RecordError(`type name "${head}" is not scope$tag`);
  const inner = body.slice(open + 1, -1);
  const fields: { offset: number; name: string; typeText: string }[] = [];
  FIELD.lastIndex = 0;
  while (FIELD.lastIndex < inner.length) {
    const at = FIELD.lastIndex;
    const m = FIELD.exec(inner);
    if (!m) throw new RecordError(`struct field at "${inner.slice(at, at + 40)}" is malformed`);
    fields.push({ offset: Number(m[1]), name: m[2], typeText: m[3] });
  }
  return { kind: 'type', module, lineNo, scope: head.slice(0, dollar), tag: head.slice(dollar + 1), fields };
}

const DOLLAR = 0x24;

/**
 * The last `c` in text[from, before), or -1: the fields wanted are a few characters from the end, and V8's
 * lastIndexOf costs far more than this scan there.
 */
function lastBefore(text: string, c: number, before: number, from: number): number {
  let i = before - 1;
  while (i >= from && text.charCodeAt(i) !== c) i--;
  return i >= from ? i : -1;
}

function dollarBefore(text: string, before: number, from: number): number {
  return lastBefore(text, DOLLAR, before, from);
}

/**
 * A linker record (`L:…`) at text[from, to) into `into`, read in place (no string for the line: they are most of
 * a file); RecordError when it is malformed.
 */
export function readLink(text: string, from: number, to: number, into: LinkTables): void {
  const colon = lastBefore(text, 0x3a /* : */, to, from);
  const address = colon < from + 2 ? NaN : readHexToEnd(text, colon + 1, to);
  if (Number.isNaN(address)) throw new RecordError('linker record has no hex address');
  const kind = text.charCodeAt(from + 2);
  if (kind === 0x41 /* A */ && text.charCodeAt(from + 3) === DOLLAR)
    into.asm.push(address); // most records: checked first
  else if (kind === 0x43 /* C */ && text.charCodeAt(from + 3) === DOLLAR) cLine(text, from, colon, address, into.lines);
  else if (kind === 0x58 /* X */) {
    symbolBounds(text.slice(from + 3, colon));
    into.ends.set(text.slice(from + 3, from + 3 + symPrev), address); // scope$name
  } else {
    const key = symbolKey(text.slice(from + 2, colon));
    into.addresses.set(key, address);
    into.namedKeys.push(key);
    into.namedAddresses.push(address);
  }
}

/** `L:C$file$line$level_sub$block:ADDR` at text[from, colon), by index from the right (the file may hold '$'). */
function cLine(text: string, from: number, colon: number, address: number, lines: LineTableBuilder): void {
  const last = dollarBefore(text, colon, from);
  const beforeLevel = dollarBefore(text, last, from);
  const beforeLine = beforeLevel > from + 4 ? dollarBefore(text, beforeLevel, from) : -1;
  const block = beforeLine > from + 4 ? readInt(text, last + 1) : NaN;
  let ok = !Number.isNaN(block) && numberEnd === colon;
  const level = ok ? readInt(text, beforeLevel + 1) : NaN;
  ok &&=
    !Number.isNaN(level) &&
    (numberEnd === last || (text.charCodeAt(numberEnd) === 0x5f && subLevelEndsAt(text, numberEnd + 1, last)));
  const line = ok ? readInt(text, beforeLine + 1) : NaN;
  if (!ok || !(line > 0) || numberEnd !== beforeLevel)
    throw new RecordError('C line record is not C$file$line$level$block');
  const previous = lines.lastFileName; // most C lines follow one of the same file
  const file =
    previous !== undefined && previous.length === beforeLine - from - 4 && text.startsWith(previous, from + 4)
      ? previous
      : text.slice(from + 4, beforeLine);
  if (address > 0xffff) lines.add(file, line, address & 0xffff, Math.floor(address / 0x10000), level, block);
  else lines.add(file, line, address, undefined, level, block);
}

function subLevelEndsAt(text: string, at: number, end: number): boolean {
  return !Number.isNaN(readInt(text, at)) && numberEnd === end;
}
