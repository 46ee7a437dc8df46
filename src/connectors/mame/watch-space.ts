/**
 * Where a watchpoint goes in MAME: watchpoints live on a space's own (physical) addresses, breakpoints on the CPU's
 * logical ones. On a 16-bit Z80 they are the same; the Sprinter's Z84C15 puts logical A at 0x10000 + A (or
 * 0x20000 + A) in its 18-bit program space, by its chip selects (MCR, CSBR), so a CPU-address watchpoint must be
 * translated there — and its hits reported back at the logical address the user gave.
 */
import { badAddress, badRequest, unsupported } from '../../core/errors.js';
import type { Address, Register } from '../../core/target.js';
import { translateZ84 } from '../../machines/sprinter/windows.js';

export type Translate = (logical: number) => number;

function checkInteger(v: unknown, what: string): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw badRequest(`${what} must be a non-negative integer, not ${String(v)}.`);
  }
}

/** The 16-bit CPU address of a cpu/program address (breakpoints and CPU watchpoints take only those). */
export function cpuOffset(address: Address, what: string): number {
  if (address.space !== 'cpu' && address.space !== 'program') {
    throw unsupported(`${what} are set on CPU addresses; "${address.space}" is not one.`);
  }
  checkInteger(address.offset, 'The address offset');
  if (address.offset > 0xffff) throw badAddress(`0x${address.offset.toString(16)} is outside the 16-bit CPU space.`);
  return address.offset;
}

/** The bridge's space and address for a watchpoint; `translate` maps a CPU address into a wider program space. */
export function watchSpace(address: Address, translate?: Translate): { space: string; address: number } {
  if (address.space === 'cpu')
    return { space: 'program', address: (translate ?? ((a) => a))(cpuOffset(address, 'Watchpoints')) };
  if (address.space === 'program') return { space: 'program', address: cpuOffset(address, 'Watchpoints') };
  if (address.space === 'io' || address.space === 'data') {
    checkInteger(address.offset, 'The address offset');
    return { space: address.space, address: address.offset };
  }
  throw unsupported(`Watchpoints are set on CPU, program, data or io addresses; "${address.space}" is not one.`);
}

/** The CPU's logical → program translation now, for machines whose program space is wider than the CPU's. */
export async function cpuTranslation(
  machine: string,
  registers: () => Promise<Register[]>,
): Promise<Translate | undefined> {
  if (machine !== 'sprinter') return undefined;
  const regs = await registers();
  const value = (name: string) => regs.find((r) => r.name.toUpperCase() === name)?.value;
  // MAME < 0.276 has no Z84C15 state entries: the chip's reset values (everything in CS0, at 0x10000 + A)
  const [mcr, csbr] = [value('MCR') ?? 0x01, value('CSBR') ?? 0xff];
  return (logical) => translateZ84(logical, mcr, csbr);
}
