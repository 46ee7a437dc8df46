/**
 * Unit tests (retro_test.h) on MAME's Z80 machines: SDCC builds as the spectrum's 16 KiB ROM or as a Sprinter DSS
 * .EXE the open ROM loads; MAME's cycle count, traced instructions.
 */
import { parseExeHeader } from '../../../machines/sprinter/exe-header.js';
import { exeCode } from '../../../machines/sprinter/open-rom.js';
import { asciiChars } from '../../../testing/mailbox.js';
import type { TestMachineSpec } from '../../../testing/run-tests.js';
import { dssEntry } from '../headless-entry.js';
import { HeadlessMame } from '../headless-mame.js';

/** a 48K Spectrum frame: 224 T-states a line, 312 lines */
const SPECTRUM_CYCLES_PER_FRAME = 69_888;
/** MAME 0.276's sprinter: a 3.5 MHz Z84C15, 896 × 320 pixels at 14 MHz a frame (48.83 Hz) */
const SPRINTER_CYCLES_PER_FRAME = 71_680;

export const spectrumTestMachine: TestMachineSpec = {
  machine: 'spectrum',
  exact: false,
  create: async () => new HeadlessMame('spectrum'),
  decode: asciiChars,
  cyclesPerFrame: SPECTRUM_CYCLES_PER_FRAME,
  // the program is the ROM at address 0: what the CPU runs there
  code: (program) => (address) => program[address],
};

export const sprinterTestMachine: TestMachineSpec = {
  machine: 'sprinter',
  exact: false,
  create: async () => new HeadlessMame('sprinter', dssEntry),
  decode: asciiChars,
  cyclesPerFrame: SPRINTER_CYCLES_PER_FRAME,
  code: (program) => {
    const header = parseExeHeader(program);
    const { code } = exeCode(program, header, 'the test program');
    return (address) => (address >= header.load ? code[address - header.load] : undefined);
  },
};
