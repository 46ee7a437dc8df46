/**
 * Reading the source around a position: the token under the cursor, the constants a file
 * defines (#define, ca65/sdas `=`, nasm `equ`/%define), the machine a file is written for,
 * and what AH holds at an `int` instruction.
 */
import { ASM_LANGUAGES, dialectOfLanguage } from './asm-dialect.js';
import { parseNumber, type Machine } from './hardware-lookup.js';

export interface Token {
  text: string;
  start: number;
  end: number;
}

const TOKEN_CHAR = /[\w$#%.:]/;

/** The token at `character`, with `$`/`#`/`%` prefixes, `h` suffixes, `a.b` members and `seg:off`. */
export function tokenAt(line: string, character: number): Token | undefined {
  let start = character;
  let end = character;
  while (start > 0 && TOKEN_CHAR.test(line[start - 1])) start--;
  while (end < line.length && TOKEN_CHAR.test(line[end])) end++;
  let text = line.slice(start, end);
  // trim punctuation that only joins tokens: "sta $D020," ".word" ":"
  const lead = /^[#:.]+/.exec(text)?.[0].length ?? 0;
  const trail = /[:.]+$/.exec(text)?.[0].length ?? 0;
  text = text.slice(lead, text.length - trail);
  if (!text || character < start + lead || character > end - trail) return undefined;
  return { text, start: start + lead, end: end - trail };
}

/** Whether a file is C source or a C header. */
export const isCSource = (path: string): boolean => /\.[ch]$/i.test(path);

/** An identifier (C or assembler) at `character`. */
export function wordAt(line: string, character: number): Token | undefined {
  let start = character;
  let end = character;
  while (start > 0 && /[\w@.$?]/.test(line[start - 1])) start--;
  while (end < line.length && /[\w@.$?]/.test(line[end])) end++;
  const text = line.slice(start, end).replace(/[.:]+$/, '');
  return /^[A-Za-z_.@][\w@.$?]*$/.test(text) ? { text, start, end: start + text.length } : undefined;
}

/** Object-like constants the file defines, name → replacement text. */
export function fileConstants(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const patterns = [
    /^\s*#\s*define\s+([A-Za-z_]\w*)\s+(.+?)\s*(?:\/\/.*|\/\*.*)?$/,
    /^\s*%\s*define\s+([A-Za-z_]\w*)\s+(.+?)\s*(?:;.*)?$/i,
    /^\s*([A-Za-z_][\w.]*)\s*(?:=|:=|\s\.?equ\s|\sequ\s)\s*(.+?)\s*(?:;.*)?$/i,
  ];
  for (const line of text.split('\n'))
    for (const re of patterns) {
      const m = re.exec(line);
      if (m && !out.has(m[1])) {
        out.set(m[1], m[2]);
        break;
      }
    }
  return out;
}

/** Expands constants (bounded depth); returns the final text, e.g. BORDER_REG → (*(unsigned char *)0xD020). */
export function expandConstant(name: string, constants: Map<string, string>): string | undefined {
  const first = constants.get(name);
  if (first === undefined) return undefined;
  let text: string = first;
  for (let depth = 0; depth < 8; depth++) {
    const next: string = text.replace(/\b[A-Za-z_]\w*\b/g, (w) =>
      constants.has(w) && w !== name ? constants.get(w)! : w,
    );
    if (next === text) break;
    text = next;
  }
  return text;
}

/** The one address-like number in an expansion such as `(*(unsigned char *)0xD020)`, as source text. */
export function soleNumber(expansion: string): string | undefined {
  const numbers = expansion.match(/\$[0-9a-f]+\b|\b0x[0-9a-f]+\b|\b[0-9][0-9a-f]*h\b|\b[0-9]+\b/gi) ?? [];
  return numbers.length === 1 ? numbers[0] : undefined;
}

/** The machine a file is written for: assembler dialect, else what a C file includes or declares. */
export function machineOf(languageId: string, text: string): Machine[] {
  const dialect = dialectOfLanguage(languageId);
  if (dialect) {
    const family = ASM_LANGUAGES[dialect].machine;
    if (family === 'zx') return /sprinter/i.test(text) ? ['sprinter', 'zx'] : ['zx', 'sprinter'];
    return [family];
  }
  if (/#\s*include\s*[<"](c64|cbm|c128|6502)\.h[>"]|\bVIC\.|\bSID\./.test(text)) return ['c64'];
  if (/sprinter/i.test(text)) return ['sprinter', 'zx'];
  if (/__sfr|__at\s*\(?\s*0x|\bz80\b|spectrum/i.test(text)) return ['zx', 'sprinter'];
  if (/#\s*include\s*[<"](dos|i86|bios|conio)\.h[>"]|\bint86\b|\bMK_FP\b|far\s*\*/.test(text)) return ['dos'];
  return ['c64', 'zx', 'dos'];
}

/** The value an `int` on line `lineNo` runs with in AH: the nearest `mov ah, N` above it in the same routine. */
export function ahBefore(lines: string[], lineNo: number): number | undefined {
  for (let i = lineNo - 1; i >= 0 && i >= lineNo - 12; i--) {
    const line = lines[i].replace(/;.*$/, '');
    const m = /\bmov\s+ah\s*,\s*([0-9][0-9a-f]*h|0x[0-9a-f]+|[0-9]+)\b/i.exec(line);
    if (m) return parseNumber(m[1]);
    const ax = /\bmov\s+ax\s*,\s*(0x[0-9a-f]{3,4}|[0-9][0-9a-f]{2,3}h)\b/i.exec(line);
    if (ax) return (parseNumber(ax[1]) ?? 0) >> 8;
    if (/^\s*[\w.]+:|\b(ret|jmp|int)\b/i.test(line)) return undefined;
  }
  return undefined;
}
