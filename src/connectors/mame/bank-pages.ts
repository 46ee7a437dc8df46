/** The current bank/window pages of a machine, for reports next to raw reads; undefined where there are none. */
import { badAddress, unsupported } from '../../core/errors.js';
import { pageCondition, readWindowPages, type WindowPages } from '../../machines/sprinter/windows.js';
import type { MameRaw } from './mame-raw.js';

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
  if (bank === undefined) return condition;
  if (machine !== 'sprinter')
    throw unsupported(`MAME's "${machine}" has no memory windows: give the breakpoint address without a bank.`);
  const page = Number(bank);
  if (!Number.isInteger(page) || page < 0 || page > 0xff)
    throw badAddress(`Bank "${bank}" is not a Sprinter RAM page (0-255, e.g. "4" or "0x4").`);
  return `(${pageCondition(offset, page)}) && (${condition})`;
}
