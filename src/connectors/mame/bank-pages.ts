/** The current bank/window pages of a machine, for reports next to raw reads; undefined where there are none. */
import { badAddress, unsupported } from '../../core/errors.js';
import type { Address } from '../../core/target.js';
import { pageCondition, readWindowPages, WINDOW_SIZE, type WindowPages } from '../../machines/sprinter/windows.js';
import type { MameRaw } from './mame-raw.js';

/** The Sprinter's RAM (256 pages of 16 KiB) as a save-state item of its :ram device, read without side effects. */
export const SPRINTER_RAM_ITEM = ':ram/0/m_pointer';

export async function bankPages(raw: MameRaw): Promise<WindowPages | undefined> {
  if (raw.machine === 'sprinter') return readWindowPages((expr) => raw.evaluate(expr));
  return undefined;
}

/**
 * A breakpoint's MAME condition when its address names a bank: on the Sprinter the RAM page that must be in the
 * address's window (code in a page stops only while that page is mapped); elsewhere there are no windows to name.
 */
export function bankedCondition(
  machine: string,
  offset: number,
  bank: string | number | undefined,
  condition = '1',
): string {
  if (isCpuView(bank)) return condition;
  if (machine !== 'sprinter')
    throw unsupported(`MAME's "${machine}" has no memory windows: give the breakpoint address without a bank.`);
  return `(${pageCondition(offset, ramPage(bank))}) && (${condition})`;
}

/** No bank, or the bank "cpu" (the CPU's own view, as VICE names it and the C64 tools pass on): no page named. */
function isCpuView(bank: string | number | undefined): bank is undefined | 'cpu' {
  return bank === undefined || bank === 'cpu';
}

function ramPage(bank: string | number): number {
  const page = Number(bank);
  if (!Number.isInteger(page) || page < 0 || page > 0xff)
    throw badAddress(`Bank "${bank}" is not a Sprinter RAM page (0-255, e.g. "4" or "0x4").`);
  return page;
}

/**
 * A CPU address with a bank names that RAM page in the address's window, mapped or not: on the Sprinter its bytes
 * in the :ram device (page × 16 KiB + the offset in the window). Other CPU addresses are unchanged.
 */
export function pagedMemory(machine: string, address: Address, length: number): Address {
  if (address?.space !== 'cpu' || isCpuView(address.bank)) return address;
  if (machine !== 'sprinter')
    throw unsupported(`MAME's "${machine}" has no memory windows: give the CPU address without a bank.`);
  const page = ramPage(address.bank);
  const offset = address.offset & (WINDOW_SIZE - 1);
  if (!Number.isInteger(address.offset) || address.offset < 0 || address.offset > 0xffff)
    throw badAddress(`0x${Number(address.offset).toString(16)} is not a 16-bit Z80 address.`);
  if (offset + length > WINDOW_SIZE)
    throw badAddress(
      `${length} bytes from 0x${address.offset.toString(16)} run past the end of page ${page}'s window.`,
    );
  return { space: 'share', bank: SPRINTER_RAM_ITEM, offset: page * WINDOW_SIZE + offset };
}
