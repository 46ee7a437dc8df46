/**
 * The Sprinter's I/O ports a program meets, as its port decoder maps them
 * (/work/shared/reference/sprinter.md §1.6, from MAME's sprinter.cpp and the hardware reference).
 */
import { PAGE_PORTS } from './windows.js';

export interface SprinterPort {
  name: string;
  description: string;
}

export const SPRINTER_PORTS: Record<number, SprinterPort> = {
  ...Object.fromEntries(
    PAGE_PORTS.map((port, w) => [
      port,
      {
        name: `PAGE${w}`,
        description: `Page register of window ${w} (#${(w * 0x4000).toString(16).toUpperCase().padStart(4, '0')}-#${(w * 0x4000 + 0x3fff).toString(16).toUpperCase()}), read/write.`,
      },
    ]),
  ),
  0x7ffd: { name: 'PAGE_7FFD', description: 'Spectrum 128 paging (bits 0-2, 6-7 choose the page of window 3).' },
  0x1ffd: {
    name: 'PAGE_1FFD',
    description: 'Spectrum +3 paging; bit 0 with the system-RAM mode makes window 0 writable.',
  },
  0xfe: { name: 'ZX_FE', description: 'ZX keyboard matrix (read) and border colour (write).' },
  0x7c: { name: 'SYS_ROM_ON', description: 'SYS/CNF: writing #7C maps the system ROM into window 0.' },
  0x3c: { name: 'SYS_ROM_OFF', description: 'SYS/CNF: writing #3C maps RAM back into window 0.' },
  0x204e: { name: 'ALL_MODE', description: 'Bit 0: accelerator, keyboard interrupt and ZX-screen shadow off.' },
  0x89: {
    name: 'PORT_Y',
    description: 'VRAM row for the graphics pages #50-#5F (VRAM address = PORT_Y × 1024 + (A & #3FF)).',
  },
  0xc9: { name: 'RGMOD', description: 'Bit 0: video mode page (double buffering).' },
  0xfffd: { name: 'AY_REGISTER', description: 'AY sound chip: register select.' },
  0xbffd: { name: 'AY_DATA', description: 'AY sound chip: register data.' },
  0xfadf: { name: 'MOUSE_BUTTONS', description: 'Kempston mouse buttons.' },
  0xfbdf: { name: 'MOUSE_X', description: 'Kempston mouse X.' },
  0xffdf: { name: 'MOUSE_Y', description: 'Kempston mouse Y.' },
  0xee: { name: 'Z84_SCR_INDEX', description: 'Z84C15 system control register index (MCR, CSBR, …).' },
  0xef: { name: 'Z84_SCR_DATA', description: 'Z84C15 system control register data.' },
};

export function sprinterPort(port: number): SprinterPort | undefined {
  return SPRINTER_PORTS[port];
}
