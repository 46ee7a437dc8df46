/**
 * The machines the 30 raw MAME abilities are tested on, each with its real SDCC program and what differs between
 * them: the Spectrum's ZX fixture ROM (code in ROM, a loop in main that draws and scans the key matrix) and the
 * Sprinter's DSS .EXE on the project's open ROM (code in RAM, 18-bit physical space, window pages, a key loop that
 * polls the ROM's key call through a C function). Both read the ZX key matrix (port 0xFE, half-row A..G at 0xFDFE)
 * and record typed keys in `typed`/`typed_len`; both count turns of their loop in the byte `counter`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openRomFont } from '../../../src/machines/sprinter/open-rom.js';
import { buildSprinterFixture } from '../../support/sprinter-fixture.js';
import { buildZxFixture, REPO_ROOT } from '../../support/zx-fixture.js';

type Marker = { file: string; line: number };
export interface Built {
  start: Record<string, unknown>;
  markers: Record<string, Marker>;
  rom: Buffer;
}

export interface RawSubject {
  machine: 'spectrum' | 'sprinter';
  /** builds the program: the start_session arguments, the program's LINE markers, the ROM seen at logical 0 */
  build(): Promise<Built>;
  /** where the ROM region holds what logical 0 shows, and the window pages a raw read reports */
  rom: { regionOffset: number; pages?: Record<string, number> };
  /** the size of the physical program space */
  programSize: number;
  videoShare: { tag: string; size: number };
  romRegionSize: number;
  /** a line in main that runs every turn of the endless loop (before `counter` is written) */
  loop: string;
  /** the line that writes `counter` (the stop is on the instruction after the write) */
  counterWriter: string;
  /** the code at the loop is in ROM (a write is refused) or in RAM (a write is allowed) */
  codeInRom: boolean;
  /** what the program itself reads: a global and the line that reads it */
  read: { variable: string; length: number; line: string };
  /** the function reading the key matrix at 0xFDFE (undefined: the ROM's key call, no C function) */
  keyReader?: string;
  /** the first bytes of the video share, once the program drew (undefined: not checked there) */
  vramHead?: string;
  screen: { width: number; height: number; x: number; y: number; hex: string; waitDrawn: boolean };
  /** input port tags: the half-row A..G and the one with SPACE */
  ports: { aToG: string; space: string };
  /** the mouse ports (x axis, buttons); undefined: no mouse */
  mouse?: { x: string; buttons: string };
  /** a line in a C function called from the loop, and that function's caller */
  step: { line: string; caller: string };
}

const rgba = (on: boolean, ink: string, paper: string) => (on ? ink : paper) + 'ff';

export const SPECTRUM: RawSubject = {
  machine: 'spectrum',
  async build() {
    const fx = await buildZxFixture();
    const start = { program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir };
    return { start, markers: fx.markers, rom: readFileSync(fx.rom) };
  },
  rom: { regionOffset: 0 },
  programSize: 0x10000,
  videoShare: { tag: ':video_ram', size: 6912 },
  romRegionSize: 0x10000,
  loop: 'loop_body',
  counterWriter: 'loop_body',
  codeInRom: true,
  read: { variable: 'total', length: 2, line: 'call_draw' },
  keyReader: 'read_row',
  vramHead: '5555555555555555',
  // paper then ink of fill_screen's 0x55 pattern
  screen: { width: 352, height: 296, x: 48, y: 48, hex: 'bfbfbfff000000ff', waitDrawn: false },
  ports: { aToG: ':LINE1', space: ':LINE7' },
  step: { line: 'plot_body', caller: 'draw' },
};

/** The top row of the open ROM font's "R" at the text screen's first cell, white on blue. */
function sprinterR(): string {
  const row = openRomFont()['R'.charCodeAt(0) * 8];
  let hex = '';
  for (let bit = 0; bit < 8; bit++) hex += rgba(((row << bit) & 0x80) !== 0, 'e0e0e0', '102060');
  return hex;
}

export const SPRINTER: RawSubject = {
  machine: 'sprinter',
  async build() {
    const fx = await buildSprinterFixture();
    const start = { program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir };
    // logical 0 is the BIOS page (ROM page 8) of the open ROM
    return { start, markers: fx.markers, rom: readFileSync(join(REPO_ROOT, 'dist', 'sprinter-rom', 'bios.bin')) };
  },
  rom: { regionOffset: 8 * 0x4000, pages: { W0: 0, W1: 5, W2: 2, W3: 0 } },
  programSize: 0x40000,
  videoShare: { tag: ':vram', size: 0x40000 },
  romRegionSize: 0x40000,
  loop: 'key',
  counterWriter: 'poll',
  codeInRom: false,
  read: { variable: 'counter', length: 1, line: 'poll' },
  keyReader: undefined,
  // the 640x256 picture starts at (48, 16); the ROM prints while the program runs, so wait for a frame with it
  screen: { width: 736, height: 288, x: 48, y: 16, hex: sprinterR(), waitDrawn: true },
  ports: { aToG: ':IO_LINE1', space: ':IO_LINE7' },
  mouse: { x: ':mouse_input1', buttons: ':mouse_input3' },
  step: { line: 'poll', caller: 'main' },
};
