/** The current bank/window pages of a machine, for reports next to raw reads; undefined where there are none. */
import { readWindowPages, type WindowPages } from '../../machines/sprinter/windows.js';
import type { MameRaw } from './mame-raw.js';

export async function bankPages(raw: MameRaw): Promise<WindowPages | undefined> {
  if (raw.machine === 'sprinter') return readWindowPages((expr) => raw.evaluate(expr));
  return undefined;
}
