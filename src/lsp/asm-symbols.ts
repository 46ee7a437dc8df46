import type { AsmDialect } from './asm-dialect.js';

/**
 * Labels, procedures, macros and equates an assembly file defines (ca65, sdas, nasm, ACME, 64tass),
 * and where a name occurs: what definitions, references and symbols are built from.
 */

export type AsmSymbolKind = 'label' | 'proc' | 'macro' | 'constant';

export interface AsmSymbol {
  name: string;
  kind: AsmSymbolKind;
  /** 0-based, as LSP counts */
  line: number;
  character: number;
}

const DEFINITIONS: { re: RegExp; kind: AsmSymbolKind }[] = [
  { re: /^\s*\.proc\s+([A-Za-z_@][\w@]*)/i, kind: 'proc' },
  { re: /^\s*\.macro\s+([A-Za-z_@][\w@]*)/i, kind: 'macro' },
  { re: /^\s*%\s*macro\s+([A-Za-z_.][\w.]*)/i, kind: 'macro' },
  { re: /^\s*%\s*define\s+([A-Za-z_][\w]*)/i, kind: 'constant' },
  { re: /^\s*([A-Za-z_.][\w.]*)\s*(?:=|:=|\s\.?equ\s)/i, kind: 'constant' },
  { re: /^\s*([A-Za-z_.@?$][\w.@$?]*)::?/, kind: 'label' },
];

/** ACME and 64tass labels need no colon: a name in the first column (`start   ldx #0`, `counter !byte 0`). */
const COLUMN_ONE_LABEL = { re: /^([A-Za-z_][\w.]*)(?=\s|$)/, kind: 'label' as const };

export function asmSymbols(text: string, dialect?: AsmDialect): AsmSymbol[] {
  const out: AsmSymbol[] = [];
  const definitions = dialect === 'acme' || dialect === '64tass' ? [...DEFINITIONS, COLUMN_ONE_LABEL] : DEFINITIONS;
  text.split('\n').forEach((raw, line) => {
    const code = raw.replace(/;.*$/, '');
    for (const { re, kind } of definitions) {
      const m = re.exec(code);
      if (!m) continue;
      // numeric local labels (sdas 00001$) and ca65 unnamed labels are not worth a symbol
      if (/^\d/.test(m[1])) break;
      out.push({ name: m[1], kind, line, character: code.indexOf(m[1]) });
      break;
    }
  });
  return out;
}

export interface Occurrence {
  line: number;
  character: number;
}

/** Whole-word occurrences of `name` outside comments. */
export function occurrencesOf(text: string, name: string, commentStart = ';'): Occurrence[] {
  const out: Occurrence[] = [];
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<![\\w@.$?])${escaped}(?![\\w@$?])`, 'g');
  text.split('\n').forEach((raw, line) => {
    const cut = raw.indexOf(commentStart);
    const code = cut >= 0 ? raw.slice(0, cut) : raw;
    for (const m of code.matchAll(re)) out.push({ line, character: m.index });
  });
  return out;
}

/** The assembler name of a C function or global (cc65 and SDCC both prefix an underscore), and back. */
export function asmNameOfC(name: string): string {
  return `_${name}`;
}
export function cNameOfAsm(name: string): string | undefined {
  return name.startsWith('_') && name.length > 1 ? name.slice(1) : undefined;
}
