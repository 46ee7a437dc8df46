/**
 * ZX Spectrum hardware an SDCC program touches: its I/O ports (the ULA at #FE, 128K
 * paging at #7FFD, +2A/+3 paging at #1FFD, the AY at #FFFD/#BFFD, Kempston at #1F) and
 * the fixed memory areas. Sources: Sinclair ZX Spectrum technical manual; 128K/+3 manuals.
 */

export interface BitField {
  bits: string;
  meaning: string;
}

export interface HardwareEntry {
  name: string;
  description: string;
  bits?: BitField[];
}

/** Ports by the low byte the hardware decodes (the ULA answers every even port) or by the full number. */
export const ZX_PORTS: Record<number, HardwareEntry> = {
  0xfe: {
    name: 'ULA',
    description:
      'ULA port (any even address): border colour, MIC and speaker on write; keyboard half-rows and EAR on read (A8–A15 select the half-rows).',
    bits: [
      { bits: '0-2', meaning: 'write: border colour (0 black … 7 white)' },
      { bits: '3', meaning: 'write: MIC output (tape save)' },
      { bits: '4', meaning: 'write: speaker (EAR) output' },
      { bits: '0-4', meaning: 'read: keys of the selected half-rows, 0 = pressed' },
      { bits: '6', meaning: 'read: EAR input (tape load)' },
    ],
  },
  0x7ffd: {
    name: 'PAGING_128',
    description: '128K memory paging (write only).',
    bits: [
      { bits: '0-2', meaning: 'RAM page at #C000-#FFFF' },
      { bits: '3', meaning: 'screen: 0 = normal (page 5), 1 = shadow (page 7)' },
      { bits: '4', meaning: 'ROM: 0 = 128K editor, 1 = 48K BASIC' },
      { bits: '5', meaning: 'lock paging until reset' },
    ],
  },
  0x1ffd: {
    name: 'PAGING_PLUS3',
    description: '+2A/+3 extra paging, disk motor and printer strobe (write only).',
    bits: [
      { bits: '0', meaning: 'special (all-RAM) paging mode' },
      { bits: '1-2', meaning: 'all-RAM configuration, or bit 2 = high bit of the ROM number' },
      { bits: '3', meaning: 'disk motor' },
      { bits: '4', meaning: 'printer strobe' },
    ],
  },
  0xfffd: { name: 'AY_REGISTER', description: 'AY-3-8912 sound chip: select register (write), read its value (read).' },
  0xbffd: { name: 'AY_DATA', description: 'AY-3-8912 sound chip: write the selected register.' },
  0x1f: {
    name: 'KEMPSTON',
    description: 'Kempston joystick (read), 1 = pressed.',
    bits: [
      { bits: '0', meaning: 'right' },
      { bits: '1', meaning: 'left' },
      { bits: '2', meaning: 'down' },
      { bits: '3', meaning: 'up' },
      { bits: '4', meaning: 'fire' },
    ],
  },
};

export interface MemoryArea extends HardwareEntry {
  start: number;
  end: number;
}

export const ZX_MEMORY: MemoryArea[] = [
  { start: 0x0000, end: 0x3fff, name: 'ROM', description: '16 KiB ROM (48K BASIC; the 128K ROMs are paged here).' },
  {
    start: 0x4000,
    end: 0x57ff,
    name: 'SCREEN_BITMAP',
    description: 'Display file: 256×192 pixels, 1 bit each; rows interleaved (y bits 7-6, 2-0, 5-3 form the address).',
  },
  {
    start: 0x5800,
    end: 0x5aff,
    name: 'SCREEN_ATTRIBUTES',
    description: 'Colour attributes, one byte per 8×8 cell (32×24).',
    bits: [
      { bits: '0-2', meaning: 'INK colour' },
      { bits: '3-5', meaning: 'PAPER colour' },
      { bits: '6', meaning: 'BRIGHT' },
      { bits: '7', meaning: 'FLASH' },
    ],
  },
  { start: 0x5b00, end: 0x5bff, name: 'PRINTER_BUFFER', description: 'ZX Printer buffer (128K: paging routines).' },
  { start: 0x5c00, end: 0x5cbf, name: 'SYSTEM_VARIABLES', description: 'BASIC system variables.' },
];

/** The port entry for a port number as written in source (full 16-bit or the decoded low byte). */
export function zxPort(port: number): HardwareEntry | undefined {
  return (
    ZX_PORTS[port] ?? (port <= 0xff ? undefined : port % 2 === 0 && (port & 0xff) === 0xfe ? ZX_PORTS[0xfe] : undefined)
  );
}

export function zxMemoryArea(address: number): MemoryArea | undefined {
  return ZX_MEMORY.find((a) => address >= a.start && address <= a.end);
}
