/**
 * The status flags of a CPU's flags register, decoded bit by bit for the
 * Registers view (6502 `N V - B D I Z C`, Z80 `S Z H P/V N C`).
 */

export interface Flag {
  name: string;
  bit: number;
  set: boolean;
}

interface FlagLayout {
  /** register names that hold the flags, the first one present is used; `low` = the flags are its low byte */
  registers: { name: string; low?: boolean }[];
  /** names by bit, 7 first; undefined = a bit with no meaning of its own */
  bits: (string | undefined)[];
}

const LAYOUTS: Record<string, FlagLayout> = {
  '6502': { registers: [{ name: 'FL' }, { name: 'P' }], bits: ['N', 'V', '-', 'B', 'D', 'I', 'Z', 'C'] },
  // bits 5 and 3 (Y, X) are undocumented copies of result bits
  z80: {
    registers: [{ name: 'F' }, { name: 'AF', low: true }],
    bits: ['S', 'Z', undefined, 'H', undefined, 'P/V', 'N', 'C'],
  },
};

/** Which register of `names` carries the flags of `cpu`, or undefined when the CPU's layout is unknown. */
export function flagsRegister(cpu: string, names: string[]): string | undefined {
  const layout = LAYOUTS[cpu.toLowerCase()];
  const upper = new Set(names.map((n) => n.toUpperCase()));
  return layout?.registers.find((r) => upper.has(r.name))?.name;
}

/** The flags in `value` of register `register` (as chosen by flagsRegister). */
export function decodeFlags(cpu: string, register: string, value: number): Flag[] {
  const layout = LAYOUTS[cpu.toLowerCase()];
  const reg = layout?.registers.find((r) => r.name === register.toUpperCase());
  if (!layout || !reg) return [];
  const byte = value & 0xff; // AF: F is the low byte
  const out: Flag[] = [];
  layout.bits.forEach((name, i) => {
    const bit = 7 - i;
    if (name) out.push({ name, bit, set: ((byte >> bit) & 1) === 1 });
  });
  return out;
}
