/**
 * Line-level reader for SDCC .cdb files: turns each text line into a typed
 * record, or a reason why it could not. No cross-record resolution here.
 */

/** `scope$name$level_sub$block`, e.g. `Lmain.f$x$2_0$10` or `G$main$0$0`. */
export interface SymbolName {
  /** `G` global, `F<module>` file static, `L<module>.<function>` or `L<function>` local */
  scope: string;
  name: string;
  level: number;
  block: number;
  /** `scope$name$level$block`, the symbol's identity (addresses and declarations are matched by it) */
  key: string;
}

export type CdbRecord =
  | { kind: 'module'; name: string }
  | { kind: 'function'; sym: SymbolName; typeText: string; space: string; numbers: number[] }
  | {
      kind: 'symbol';
      sym: SymbolName;
      typeText: string;
      space: string;
      onStack: boolean;
      stackOffset: number;
      registers?: string[];
    }
  | { kind: 'type'; scope: string; tag: string; fields: { offset: number; name: string; typeText: string }[] }
  | { kind: 'line'; file: string; line: number; level: number; block: number; address: number }
  | { kind: 'asm'; address: number }
  | { kind: 'end'; scope: string; name: string; address: number }
  | { kind: 'address'; sym: SymbolName; address: number };

export class RecordError extends Error {}

export function parseRecord(line: string): CdbRecord {
  const tag = line.slice(0, 2);
  const body = line.slice(2);
  switch (tag) {
    case 'M:': {
      if (!/^[\w.-]+$/.test(body)) throw new RecordError('module name missing or malformed');
      return { kind: 'module', name: body };
    }
    case 'F:':
      return parseFunction(body);
    case 'S:':
      return parseSymbol(body);
    case 'T:':
      return parseType(body);
    case 'L:':
      return parseLink(body);
    default:
      throw new RecordError(`unknown record type "${line.slice(0, 1)}"`);
  }
}

export function parseSymbolName(text: string): SymbolName {
  // by index rather than split: this runs for most records of a big file
  const first = text.indexOf('$');
  const last = text.lastIndexOf('$');
  const prev = last > 0 ? text.lastIndexOf('$', last - 1) : -1;
  const bad = () => new RecordError(`symbol "${text}" is not scope$name$level$block`);
  if (first <= 0 || prev <= first + 1) throw bad();
  const levelText = text.slice(prev + 1, last);
  const underscore = levelText.indexOf('_');
  const level = Number(underscore < 0 ? levelText : levelText.slice(0, underscore));
  const block = Number(text.slice(last + 1));
  if (!Number.isInteger(block) || !Number.isInteger(level)) throw bad();
  const scope = text.slice(0, first);
  const name = text.slice(first + 1, prev);
  return { scope, name, level, block, key: `${scope}$${name}$${level}$${block}` };
}

/** `name(typechain),rest` → its three parts. */
function splitTyped(body: string): { name: string; typeText: string; rest: string[] } {
  const open = body.indexOf('(');
  const close = body.indexOf(')', open);
  if (open < 0 || close < 0) throw new RecordError('missing (type chain)');
  const after = body.slice(close + 1);
  if (!after.startsWith(',')) throw new RecordError('missing fields after the type chain');
  return { name: body.slice(0, open), typeText: body.slice(open + 1, close), rest: after.slice(1).split(',') };
}

function parseFunction(body: string): CdbRecord {
  const { name, typeText, rest } = splitTyped(body);
  const numbers = rest.slice(1).map(Number);
  if (!rest[0] || numbers.length < 2 || numbers.some((n) => !Number.isInteger(n))) {
    throw new RecordError('function record needs address space, on-stack flag and stack size');
  }
  return { kind: 'function', sym: parseSymbolName(name), typeText, space: rest[0], numbers };
}

function parseSymbol(body: string): CdbRecord {
  const { name, typeText } = splitTyped(body);
  // Fields after the type: space,onStack,stack[,[regs]] — the register list has commas inside.
  const tail = body.slice(body.indexOf(')') + 2);
  const m = /^([A-Z]),(\d+),(-?\d+)(?:,\[([\w,]*)\])?(?:,.*)?$/.exec(tail);
  if (!m) throw new RecordError(`symbol fields "${tail}" are not space,onStack,offset[,[registers]]`);
  const rec: CdbRecord = {
    kind: 'symbol',
    sym: parseSymbolName(name),
    typeText,
    space: m[1],
    onStack: m[2] === '1',
    stackOffset: Number(m[3]),
  };
  if (m[4] !== undefined) rec.registers = m[4] ? m[4].split(',') : [];
  return rec;
}

const FIELD = /\(\{(\d+)\}S:S\$([^$()]+)\$\d+(?:_\d+)?\$\d+\(([^()]*)\),[A-Z],-?\d+,-?\d+\)/y;

function parseType(body: string): CdbRecord {
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
  return { kind: 'type', scope: head.slice(0, dollar), tag: head.slice(dollar + 1), fields };
}

const HEX = /^[0-9A-Fa-f]+$/;

/** The address of an `L:A$module$line:ADDR` record; RecordError when it has none. */
export function asmAddress(line: string): number {
  const r = parseLink(line.slice(2));
  if (r.kind !== 'asm') throw new RecordError('assembler line record is not A$module$line:address');
  return r.address;
}

function parseLink(body: string): CdbRecord {
  const colon = body.lastIndexOf(':');
  const digits = body.slice(colon + 1);
  const address = colon < 0 || !HEX.test(digits) ? NaN : parseInt(digits, 16);
  if (Number.isNaN(address)) throw new RecordError('linker record has no hex address');
  if (body.startsWith('A$')) return { kind: 'asm', address }; // most records: checked first
  const name = body.slice(0, colon);
  if (name.startsWith('C$')) {
    // by index: C$file$line$level_sub$block, the file possibly holding '$'
    const last = name.lastIndexOf('$');
    const beforeLevel = name.lastIndexOf('$', last - 1);
    const beforeLine = beforeLevel > 1 ? name.lastIndexOf('$', beforeLevel - 1) : -1;
    if (beforeLine < 1) throw new RecordError('C line record is not C$file$line$level$block');
    const block = Number(name.slice(last + 1));
    const levelText = name.slice(beforeLevel + 1, last);
    const underscore = levelText.indexOf('_');
    const level = Number(underscore < 0 ? levelText : levelText.slice(0, underscore));
    const line = Number(name.slice(beforeLine + 1, beforeLevel));
    const file = name.slice(2, beforeLine);
    if (!file || !(line > 0) || !Number.isInteger(line) || !Number.isInteger(level) || !Number.isInteger(block)) {
      throw new RecordError('C line record is not C$file$line$level$block');
    }
    return { kind: 'line', file, line, level, block, address };
  }
  if (name.startsWith('X')) {
    const sym = parseSymbolName(name.slice(1));
    return { kind: 'end', scope: sym.scope, name: sym.name, address };
  }
  return { kind: 'address', sym: parseSymbolName(name), address };
}
