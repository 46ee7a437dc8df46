/** The built-in C64's power-on RAM, the BASIC stub's SYS address, and checkpoint ranges: pure helpers of c64.ts. */
import type { CheckpointInfo } from '../vice/protocol.js';
import type { Cpu6502 } from '../../cpu/6502/cpu6502.js';
import { CYCLES_PER_LINE, type C64Bus } from './c64-bus.js';

/**
 * VICE's C64 power-on RAM (ram.c, x64sc defaults): 0 inverted every 4
 * bytes from offset 2 (00 00 FF FF FF FF 00 00 …), the whole pattern
 * inverted in every other 16 KiB. VICE also flips 0.1 % of the bits at
 * random; that part is left out so runs repeat.
 */
export function fillPowerOnPattern(ram: Uint8Array): void {
  for (let offset = 0; offset < ram.length; offset++) {
    const value = ((offset + 2) >> 2) & 1 ? 0xff : 0x00;
    ram[offset] = value ^ ((offset >> 14) & 1 ? 0xff : 0x00);
  }
}

export function inRange(cp: CheckpointInfo, address: number): boolean {
  return cp.start <= cp.end ? address >= cp.start && address <= cp.end : address >= cp.start || address <= cp.end;
}

/** A register by the monitor condition language's name (condition.ts). */
export function registerValue(cpu: Cpu6502, bus: C64Bus, name: string): number {
  switch (name) {
    case 'A':
      return cpu.a;
    case 'X':
      return cpu.x;
    case 'Y':
      return cpu.y;
    case 'PC':
      return cpu.pc;
    case 'SP':
      return cpu.s;
    case 'FL':
      return cpu.p | 0x20;
    case 'RL':
      return bus.rasterLine();
    case 'CY':
      return cpu.cycles % CYCLES_PER_LINE;
    default:
      return 0;
  }
}
