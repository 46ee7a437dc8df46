/**
 * Which screen a ZX Spectrum 128K shows and where its bytes are. Port $7FFD is
 * write-only: bit 3 shows the shadow screen (RAM page 7) instead of the normal
 * one (page 5, always at $4000), bits 0-2 page RAM into $C000, bit 5 locks the
 * port until reset. MAME 0.251's spec128 driver keeps the last value it took in
 * a save-state item and the 128 KiB in its RAM device, both read through the
 * bridge's `share` space by item (no memory share holds them). Pure.
 */

/** The driver's latch of port $7FFD, as MAME 0.251's spectrum_128_state saves it (a 4-byte int, low byte first). */
export const ZX128_PORT_ITEM = ':/0/m_port_7ffd_data';
/** The RAM device's storage: page n at n * $4000. */
export const ZX128_RAM_ITEM = ':ram/0/m_pointer';
export const ZX_PAGE_SIZE = 0x4000;

/** Drivers with the 128K's own paging (MAME's spectrum_128_state): spec128 and the +2. */
export const ZX128_MACHINES: ReadonlySet<string> = new Set(['spec128', 'specpls2']);
/** 128K-type drivers whose paging differs (+2A/+3 special modes, clones with more RAM): not decoded here. */
export const ZX128_LIKE_MACHINES: ReadonlySet<string> = new Set(['specpl2a', 'specpls3', 'pentagon', 'scorpion']);

export interface Zx128Paging {
  /** the port's last value the machine took */
  port: number;
  shadow: boolean;
  /** the RAM page at $C000 */
  pageAtC000: number;
  locked: boolean;
}

export function zx128Paging(port: number): Zx128Paging {
  return { port, shadow: (port & 0x08) !== 0, pageAtC000: port & 0x07, locked: (port & 0x20) !== 0 };
}

/** Where the bytes of the screen shown are: CPU addresses from `cpuBase`, or only RAM page `page` (not paged in). */
export interface ZxScreenPlace {
  page: 5 | 7;
  /** $4000 (page 5) or $C000 (page 7 paged in there); undefined when the CPU cannot address it now */
  cpuBase?: number;
}

export function zxScreenPlace(p: Zx128Paging): ZxScreenPlace {
  if (!p.shadow) return { page: 5, cpuBase: 0x4000 };
  return p.pageAtC000 === 7 ? { page: 7, cpuBase: 0xc000 } : { page: 7 };
}

/** One line saying which screen is shown and why, e.g. "shadow screen (page 7, $7FFD = $0F): at $C000". */
export function describeZxScreen(p: Zx128Paging, place: ZxScreenPlace = zxScreenPlace(p)): string {
  const port = `$7FFD = $${p.port.toString(16).toUpperCase().padStart(2, '0')}${p.locked ? ', locked' : ''}`;
  const name = p.shadow ? 'shadow screen' : 'normal screen';
  const where =
    place.cpuBase !== undefined
      ? `at $${place.cpuBase.toString(16).toUpperCase()}`
      : `not paged in (page ${p.pageAtC000} at $C000): RAM page ${place.page} offsets`;
  return `${name} (page ${place.page}, ${port}): ${where}`;
}
