/**
 * What a 6502 assembler's listing tells a debugger, for assemblers that write no debug-info file of their own
 * (ACME's --report, 64tass's --list): each listed source line with its address and bytes. From those rows this
 * builds the common model: a line table of the instruction lines, one "function" per global code label (from its
 * address up to the next code label), data labels as globals (a byte, or their line's bytes), the labels as symbols, and the
 * entry the program's BASIC stub SYSes to.
 */
import type { CType, DebugInfo, FunctionInfo } from './model.js';
import { LineTable } from './line-table.js';
import { BASIC_START, basicSysAddress } from '../core/basic-stub.js';

/** The listed bytes from `start` on, up to the first address the listing gives none for. */
function bytesFrom(memory: Map<number, number>, start: number): Uint8Array {
  const out: number[] = [];
  for (let a = start; memory.has(a) && out.length < 80; a++) out.push(memory.get(a)!);
  return Uint8Array.from(out);
}

/** One listed source line that holds bytes or a label. */
export interface ListingRow {
  file: string;
  line: number;
  address: number;
  bytes: number[];
  /** an instruction (not data, not a label alone) */
  code: boolean;
  /** a global label defined on this line */
  label?: string;
}

const MNEMONICS = new Set(
  (
    'adc and asl bcc bcs beq bit bmi bne bpl brk bvc bvs clc cld cli clv cmp cpx cpy dec dex dey eor inc inx iny ' +
    'jmp jsr lda ldx ldy lsr nop ora pha php pla plp rol ror rti rts sbc sec sed sei sta stx sty tax tay tsx txa ' +
    'txs tya'
  ).split(' '),
);

/** Whether `word` is a 6502 mnemonic (either case). */
export function isMnemonic(word: string): boolean {
  return MNEMONICS.has(word.toLowerCase());
}

/**
 * The line's source text split into a label at column 0 (if it is a global one: not local, cheap or anonymous)
 * and whether the statement after it is an instruction.
 */
export function splitStatement(source: string, localPrefixes: string): { label?: string; instruction: boolean } {
  const m = /^([A-Za-z_.@][\w.@]*):?(?=\s|$)/.exec(source);
  const labelText = m && !isMnemonic(m[1]) ? m[1] : undefined;
  const rest = (labelText ? source.slice(m![0].length) : source).replace(/;.*$/, '').trim();
  const word = /^[A-Za-z]{3}(?=\s|$)/.exec(rest)?.[0];
  const label = labelText && !localPrefixes.includes(labelText[0]) ? labelText : undefined;
  return { label, instruction: word !== undefined && isMnemonic(word) };
}

export function debugInfoFromListing(format: string, rows: ListingRow[]): DebugInfo {
  const memory = new Map<number, number>();
  for (const r of rows) r.bytes.forEach((b, i) => memory.set(r.address + i, b));
  const codeLines = rows.filter((r) => r.code);
  const codeAt = new Set(codeLines.map((r) => r.address));
  const lastCode = Math.max(-1, ...codeLines.map((r) => r.address + r.bytes.length - 1));
  const labels = rows.filter((r): r is ListingRow & { label: string } => r.label !== undefined);
  const codeLabels = labels.filter((r) => codeAt.has(r.address)).sort((a, b) => a.address - b.address);
  const functions: FunctionInfo[] = [];
  codeLabels.forEach((r, i) => {
    if (functions.at(-1)?.start === r.address) return; // a second name for the same code
    const next = codeLabels.slice(i + 1).find((n) => n.address > r.address);
    const end = next ? next.address - 1 : lastCode;
    functions.push({ name: r.label, file: r.file, start: r.address, end, params: [], locals: [], noPrologue: true });
  });
  const sys = basicSysAddress(bytesFrom(memory, BASIC_START), BASIC_START);
  const entry = functions.find((f) => f.start === sys)?.name;
  return {
    format,
    cpu: '6502',
    files: [...new Set(rows.map((r) => r.file))],
    lines: LineTable.from(codeLines.map((r) => ({ file: r.file, line: r.line, address: r.address }))),
    functions,
    // a data label is shown as the bytes of its line (an assembler knows no types)
    globals: labels
      .filter((r) => !codeAt.has(r.address))
      .map((r) => {
        const size = Math.min(256, Math.max(1, r.bytes.length));
        const type: CType =
          size === 1
            ? { kind: 'int', size: 1, signed: false, name: 'byte' }
            : { kind: 'bytes', size, name: `byte[${size}]` };
        return {
          name: r.label,
          type,
          storage: { kind: 'static' as const, address: r.address },
        };
      }),
    symbols: labels.map((r) => ({ name: r.label, address: r.address })),
    ...(entry ? { entry } : {}),
  };
}
