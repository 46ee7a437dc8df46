/** Unit tests (retro_test.h) on the built-in C64: cc65 builds, exact cycles, instructions observed for coverage. */
import { petsciiChars } from '../../../testing/mailbox.js';
import type { TestMachineSpec } from '../../../testing/run-tests.js';
import { HeadlessC64 } from '../headless-c64.js';
import { CYCLES_PER_FRAME } from '../c64.js';

export const c64TestMachine: TestMachineSpec = {
  machine: 'c64',
  exact: true,
  create: async () => new HeadlessC64(),
  decode: petsciiChars,
  cyclesPerFrame: CYCLES_PER_FRAME,
};
