/** Unit tests (retro_test.h) on MAME's spectrum: SDCC builds as its 16 KiB ROM, MAME's cycle count, traced instructions. */
import { asciiChars } from '../../../testing/mailbox.js';
import type { TestMachineSpec } from '../../../testing/run-tests.js';
import { HeadlessMame } from '../headless-mame.js';

/** a 48K Spectrum frame: 224 T-states a line, 312 lines */
const SPECTRUM_CYCLES_PER_FRAME = 69_888;

export const spectrumTestMachine: TestMachineSpec = {
  machine: 'spectrum',
  toolchain: 'sdcc',
  exact: false,
  create: async () => new HeadlessMame('spectrum'),
  decode: asciiChars,
  cyclesPerFrame: SPECTRUM_CYCLES_PER_FRAME,
  // the program is the ROM at address 0: what the CPU runs there
  code: (program) => (address) => program[address],
};
