/** MAME reports registers as a name → value map; this gives them an order and widths. */
import type { Register } from '../../core/target.js';

interface CpuRegisters {
  /** shown first, in this order */
  order: string[];
  eightBit: Set<string>;
  /** MAME-internal pseudo registers that only duplicate others */
  hidden: Set<string>;
}

const CPUS: Record<string, CpuRegisters> = {
  z80: {
    order: [
      'PC',
      'SP',
      'AF',
      'BC',
      'DE',
      'HL',
      'IX',
      'IY',
      'AF2',
      'BC2',
      'DE2',
      'HL2',
      'A',
      'B',
      'C',
      'D',
      'E',
      'H',
      'L',
      'I',
      'R',
      'IM',
      'IFF1',
      'IFF2',
      'HALT',
      'WZ',
    ],
    eightBit: new Set(['A', 'B', 'C', 'D', 'E', 'H', 'L', 'I', 'R', 'IM', 'IFF1', 'IFF2', 'HALT']),
    hidden: new Set(['CURPC', 'CURFLAGS']),
  },
};

export function orderRegisters(cpu: string, values: Record<string, number>): Register[] {
  const known = CPUS[cpu];
  const names = Object.keys(values).filter((n) => !known?.hidden.has(n));
  const rank = (n: string) => {
    const i = known ? known.order.indexOf(n) : -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return names.map((name) => ({
    name,
    value: values[name],
    bits: known?.eightBit.has(name) ? 8 : widthOf(values[name]),
  }));
}

function widthOf(value: number): number {
  return value > 0xffff ? 32 : 16;
}

/** The registers a bridge event carries (a stop's), ordered; undefined when it has none. */
export function reportedRegisters(cpu: string, values: unknown): Register[] | undefined {
  return values && typeof values === 'object' ? orderRegisters(cpu, values as Record<string, number>) : undefined;
}
