/**
 * Sprinter (Sp2000) memory windows: four 16 KiB windows over a 256-page RAM,
 * page registers behind ports #82/#A2/#C2/#E2, and the Z84C15's 18-bit
 * program space (logical A normally at 0x10000 + A). Pure functions.
 */
import { badAddress, badRequest } from '../../core/errors.js';

export const WINDOW_SIZE = 0x4000;
/** Page register ports of windows 0..3. */
export const PAGE_PORTS = [0x82, 0xa2, 0xc2, 0xe2] as const;
/** RAM pages whose writes go to VRAM (row from PORT_Y). */
export const GRAPHICS_PAGES: readonly [number, number] = [0x50, 0x5f];

export type WindowPages = Record<'W0' | 'W1' | 'W2' | 'W3', number>;

export interface PagedAddress {
  window: 0 | 1 | 2 | 3;
  page: number;
  /** offset inside the 16 KiB page */
  offset: number;
  /** byte offset of that page's byte in the :ram device (page × 0x4000 + offset) */
  ramOffset: number;
}

function checkLogical(logical: number): void {
  if (!Number.isInteger(logical) || logical < 0 || logical > 0xffff) {
    throw badAddress(`0x${Number(logical).toString(16)} is not a 16-bit Z80 address.`);
  }
}

export function windowOf(logical: number): 0 | 1 | 2 | 3 {
  checkLogical(logical);
  return (logical >> 14) as 0 | 1 | 2 | 3;
}

/** Where a logical address lives with the given window pages. */
export function pagedAddress(logical: number, pages: WindowPages): PagedAddress {
  const window = windowOf(logical);
  const page = pages[`W${window}` as keyof WindowPages];
  if (!Number.isInteger(page) || page < 0 || page > 0xff)
    throw badRequest(`Window ${window} has no valid page (${page}).`);
  const offset = logical & (WINDOW_SIZE - 1);
  return { window, page, offset, ramOffset: page * WINDOW_SIZE + offset };
}

/** The logical address of a page byte, if that page is mapped in some window now. */
export function logicalFor(page: number, offset: number, pages: WindowPages): number | undefined {
  const w = (['W0', 'W1', 'W2', 'W3'] as const).findIndex((k) => pages[k] === page);
  return w < 0 ? undefined : w * WINDOW_SIZE + (offset & (WINDOW_SIZE - 1));
}

/**
 * Z84C15 chip-select translation of a logical address into the 18-bit program
 * space (MCR bit 0 = /CS0 enable, bit 1 = /CS1; CSBR low/high nibbles are the
 * upper bounds in 4 KiB units). At reset MCR = 0x01, CSBR = 0xFF: A → 0x10000 + A.
 */
export function translateZ84(logical: number, mcr = 0x01, csbr = 0xff): number {
  checkLogical(logical);
  const block = logical >> 12;
  if (mcr & 1 && (csbr & 0x0f) >= block) return 0x10000 | logical;
  if (mcr & 2 && ((csbr >> 4) & 0x0f) >= block && block > (csbr & 0x0f)) return 0x20000 | logical;
  return logical;
}

/** MAME breakpoint condition: only when `page` is in the window holding `logical`. */
export function pageCondition(logical: number, page: number): string {
  const port = PAGE_PORTS[windowOf(logical)];
  return `ib@${port.toString(16)} == ${page.toString(16)}`;
}

export function isGraphicsPage(page: number): boolean {
  return page >= GRAPHICS_PAGES[0] && page <= GRAPHICS_PAGES[1];
}

/** Reads the four page registers through a side-effect-free debugger expression evaluator. */
export async function readWindowPages(evaluate: (expression: string) => Promise<number>): Promise<WindowPages> {
  const [W0, W1, W2, W3] = await Promise.all(
    PAGE_PORTS.map((p) => evaluate(`ib@${p.toString(16)}`).then((v) => v & 0xff)),
  );
  return { W0, W1, W2, W3 };
}
