/**
 * C types for cc65 programs, read from the C source: cc65's .dbg names
 * variables but gives them no usable types, so we look for the variable's
 * declaration (`unsigned char x;`, `int *p`, `char buf[40]`, …) in the
 * file that defines it. Scalars, pointers and one-dimensional arrays of
 * scalars are understood; anything else (structs, typedef names) is left
 * to the caller's byte view.
 */
import type { CType } from './model.js';

const SCALARS: Record<string, CType> = {
  char: { kind: 'char', signed: false, name: 'char' }, // cc65: char is unsigned
  'signed char': { kind: 'char', signed: true, name: 'signed char' },
  'unsigned char': { kind: 'char', signed: false, name: 'unsigned char' },
  short: { kind: 'int', size: 2, signed: true, name: 'short' },
  'unsigned short': { kind: 'int', size: 2, signed: false, name: 'unsigned short' },
  int: { kind: 'int', size: 2, signed: true, name: 'int' },
  signed: { kind: 'int', size: 2, signed: true, name: 'int' },
  'signed int': { kind: 'int', size: 2, signed: true, name: 'int' },
  unsigned: { kind: 'int', size: 2, signed: false, name: 'unsigned int' },
  'unsigned int': { kind: 'int', size: 2, signed: false, name: 'unsigned int' },
  long: { kind: 'int', size: 4, signed: true, name: 'long' },
  'unsigned long': { kind: 'int', size: 4, signed: false, name: 'unsigned long' },
  uint8_t: { kind: 'int', size: 1, signed: false, name: 'uint8_t' },
  int8_t: { kind: 'int', size: 1, signed: true, name: 'int8_t' },
  uint16_t: { kind: 'int', size: 2, signed: false, name: 'uint16_t' },
  int16_t: { kind: 'int', size: 2, signed: true, name: 'int16_t' },
  uint32_t: { kind: 'int', size: 4, signed: false, name: 'uint32_t' },
  int32_t: { kind: 'int', size: 4, signed: true, name: 'int32_t' },
  bool: { kind: 'bool', name: 'bool' },
};

const BASE =
  '(?:(?:static|register|volatile|const|extern)\\s+)*((?:signed|unsigned)\\s+(?:char|short|int|long)|(?:signed|unsigned)|char|short|int|long|u?int(?:8|16|32)_t|bool)';
const MAX_ARRAY = 0x10000;

/** Strips comments and string literals so declarations are matched on code only. */
export function codeOnly(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/\/\/[^\n]*/g, '')
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
}

/**
 * The declared type of `name` in `code` (already passed through codeOnly),
 * searching from line `fromLine` (1-based) when given, so a function's
 * locals are found in its own body first.
 */
export function declaredType(code: string, name: string, fromLine?: number): CType | undefined {
  const pattern = new RegExp(`${BASE}\\s*((?:\\*\\s*)*)\\b${name}\\s*(\\[\\s*(\\d*)\\s*\\])?\\s*[;=,)\\[]`, 'g');
  let start = 0;
  if (fromLine && fromLine > 1) {
    let at = 0;
    for (let line = 1; line < fromLine && at >= 0; line++) at = code.indexOf('\n', at) + 1;
    start = Math.max(0, at);
  }
  pattern.lastIndex = start;
  const m = pattern.exec(code) ?? (start > 0 ? ((pattern.lastIndex = 0), pattern.exec(code)) : null);
  if (!m) return undefined;
  const base = SCALARS[m[1].replace(/\s+/g, ' ')];
  if (!base) return undefined;
  let type: CType = base;
  for (let stars = (m[2].match(/\*/g) ?? []).length; stars > 0; stars--)
    type = { kind: 'pointer', size: 2, to: type, name: `${type.name} *` };
  if (m[3] !== undefined) {
    const length = m[4] ? Number(m[4]) : 0;
    if (length > 0 && length <= MAX_ARRAY) type = { kind: 'array', length, of: type, name: `${type.name}[${length}]` };
  }
  return type;
}
