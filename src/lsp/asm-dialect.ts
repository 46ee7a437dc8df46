/**
 * The assembler dialects of the project's toolchains — ca65 (cc65), sdas/asz80 (SDCC),
 * nasm (DOS), ACME and 64tass (C64) — as VS Code languages, and which one a file is
 * written in. Shared by the manifest, the extension (file association), the project
 * detection and the language server.
 */
import { extname } from 'node:path';

export type AsmDialect = 'ca65' | 'sdas' | 'nasm' | 'acme' | '64tass';
export type MachineFamily = 'c64' | 'zx' | 'dos';

export interface AsmLanguage {
  dialect: AsmDialect;
  /** VS Code language id; prefixed so it does not collide with other extensions' "asm" ids */
  id: string;
  alias: string;
  scopeName: string;
  grammar: string;
  /** extensions only these languages use; the common .s/.asm/.inc go through detection */
  extensions: string[];
  /** hardware the dialect's toolchain builds for in this project */
  machine: MachineFamily;
}

export const ASM_LANGUAGES: Record<AsmDialect, AsmLanguage> = {
  ca65: {
    dialect: 'ca65',
    id: 'retro-ca65',
    alias: 'ca65 Assembly (cc65)',
    scopeName: 'source.retro.ca65',
    grammar: './syntaxes/ca65.tmLanguage.json',
    extensions: ['.ca65', '.s65'],
    machine: 'c64',
  },
  sdas: {
    dialect: 'sdas',
    id: 'retro-sdas',
    alias: 'sdas/asz80 Assembly (SDCC)',
    scopeName: 'source.retro.sdas',
    grammar: './syntaxes/sdas.tmLanguage.json',
    extensions: ['.asz80', '.sdas'],
    machine: 'zx',
  },
  nasm: {
    dialect: 'nasm',
    id: 'retro-nasm',
    alias: 'NASM Assembly (DOS)',
    scopeName: 'source.retro.nasm',
    grammar: './syntaxes/nasm.tmLanguage.json',
    extensions: ['.nasm'],
    machine: 'dos',
  },
  // `.a` is ACME's own convention; 64tass sources are mostly `.asm`/`.s` (content decides), `.tas` is its own
  acme: {
    dialect: 'acme',
    id: 'retro-acme',
    alias: 'ACME Assembly (C64)',
    scopeName: 'source.retro.acme',
    grammar: './syntaxes/acme.tmLanguage.json',
    extensions: ['.a'],
    machine: 'c64',
  },
  '64tass': {
    dialect: '64tass',
    id: 'retro-64tass',
    alias: '64tass Assembly (C64)',
    scopeName: 'source.retro.64tass',
    grammar: './syntaxes/64tass.tmLanguage.json',
    extensions: ['.tas'],
    machine: 'c64',
  },
};

/** Comments, brackets and quotes: the same for every dialect (all comment with `;`). */
export const ASM_LANGUAGE_CONFIGURATION = './syntaxes/asm.language-configuration.json';

/** Extensions shared by many assemblers: these files get a dialect only by their content. */
export const AMBIGUOUS_ASM_EXTENSIONS = ['.s', '.asm', '.inc', '.a65', '.z80', '.i'];

export function dialectOfLanguage(languageId: string): AsmDialect | undefined {
  return Object.values(ASM_LANGUAGES).find((l) => l.id === languageId)?.dialect;
}

/** Tell-tale lines of each dialect; each line that matches counts one point. */
const SIGNS: Record<Exclude<AsmDialect, 'acme' | '64tass'>, RegExp[]> = {
  ca65: [
    /^\s*\.(segment|proc|endproc|import|importzp|export|exportzp|include|macpack|setcpu|autoimport|zeropage|code|rodata|bss)\b/i,
    /^\s*(?:[\w@]+:)?\s*(lda|sta|ldx|stx|ldy|sty|jsr|rts|bne|beq|inx|iny|dex|dey|cmp|adc|sbc)\b/i,
    /#\$[0-9a-f]+|\$[0-9a-f]{4}\b/i,
  ],
  sdas: [
    /^\s*\.(area|module|globl|optsdcc|ds|db|dw|dbs|ascii|asciz)\b/i,
    /^\s*(?:[\w$]+:)?\s*(ld|jp|jr|djnz|push|pop|ldir|exx|halt|out|in)\s+[^;]*\b(hl|de|bc|ix|iy|sp|a)\b/i,
    /\(\s*(hl|ix|iy)\s*[)+-]/i,
  ],
  nasm: [
    /^\s*(bits|org|section|segment|cpu|global|extern)\s+\S/i,
    /^\s*%\s*(define|include|macro|endmacro|assign|ifdef|if|endif)\b/i,
    /^\s*(?:[\w.]+:)?\s*(mov|int|push|pop|xor|cmp|lea)\s+[^;]*\b(ax|bx|cx|dx|ah|al|dh|dl|si|di|ds|es|bp)\b/i,
    /\b[0-9][0-9a-f]*h\b/i,
  ],
};

/** A 6502 instruction after a label with or without a colon (ACME and 64tass need none). */
const MNEMONIC_6502 = /^\s*(?:[\w.@]+:?\s+)?(lda|sta|ldx|stx|ldy|sty|jsr|rts|inc|dec|bne|beq)\b/i;

/**
 * Lines only ACME or only 64tass write (a directive ca65 lacks, `* = $0801` where ca65 says `.org`, a label
 * without a colon in the first column): a 6502 file with one is theirs. ACME's `!` pseudo-ops decide first, since
 * the other signs are both's.
 */
const OWN_6502: [AsmDialect, RegExp][] = [
  [
    'acme',
    /^\s*(?:[\w.@]+\s+)?!(to|source|src|byte|by|word|wo|text|tx|pet|scr|zone|zn|macro|cpu|binary|bin|fill|fi|if|for|set|align|pseudopc)\b/i,
  ],
  [
    '64tass',
    /^\s*(?:[\w]+\s+)?\.(null|shift|text|block|bend|pend|binclude|enc|cdef|dsection|section|send|logical|here)\b|^\s*\*\s*=|^[a-z_]\w*(\s+\.(byte|word)\b.*)?\s*$/i,
  ],
];

/**
 * The dialect a source file is written in, from its extension and its first lines;
 * undefined when nothing tells (then the file keeps whatever language it had).
 */
export function detectAsmDialect(fileName: string, text: string): AsmDialect | undefined {
  const ext = extname(fileName).toLowerCase();
  const own = Object.values(ASM_LANGUAGES).find((l) => l.extensions.includes(ext));
  if (own) return own.dialect;
  if (!AMBIGUOUS_ASM_EXTENSIONS.includes(ext)) return undefined;
  const lines = text.split('\n', 400).map((l) => l.replace(/;.*$/, ''));
  let best: AsmDialect | undefined;
  let bestScore = 0;
  for (const dialect of Object.keys(SIGNS) as (keyof typeof SIGNS)[]) {
    const score = lines.filter((l) => SIGNS[dialect].some((re) => re.test(l))).length;
    if (score > bestScore) [best, bestScore] = [dialect, score];
  }
  if (best !== undefined && best !== 'ca65') return best;
  // 64tass's signs are plain words too ("milk" alone on a line): they count only in a file of 6502 code
  const code6502 = best === 'ca65' || lines.some((l) => MNEMONIC_6502.test(l));
  return OWN_6502.find(([d, re]) => (d === 'acme' || code6502) && lines.some((l) => re.test(l)))?.[0] ?? best;
}
