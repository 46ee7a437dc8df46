/**
 * How a headless MAME run (headless-mame.ts) takes a test program and starts it afresh for each test: the
 * spectrum's ROM starts at PC 0 (its crt0 sets SP and the globals); a Sprinter DSS .EXE is booted and loaded by the
 * open ROM once, then loaded again as DSS would (placeExe: code, PSP, SP/IX/PC), so a test that wrote over the
 * program's code harms no later test.
 */
import { launchFailed } from '../../core/errors.js';
import type { HeadlessStop } from '../../core/headless.js';
import { hex } from '../../core/hex.js';
import { parseExeHeader } from '../../machines/sprinter/exe-header.js';
import { exeCode } from '../../machines/sprinter/open-rom.js';
import { placeExe } from './bridge-load.js';
import type { MameTarget } from './mame-target.js';

export interface EntryMachine {
  target: MameTarget;
  /** runs without the instruction observer: the machine's boot is no part of a test */
  runUnobserved(stops: readonly number[], maxCycles: number, deadline: number): Promise<HeadlessStop>;
}

export interface ProgramEntry {
  /** the program's file name in the run folder: its extension tells the launcher what it is */
  file: string;
  /** Brings the CPU to the program's first instruction; `launched`: MAME was just started with it. */
  restart(m: EntryMachine, program: Uint8Array, launched: boolean): Promise<void>;
}

export const romEntry: ProgramEntry = {
  file: 'program.rom',
  // a fresh launch stands at the reset address already
  restart: async (m, _program, launched) => (launched ? undefined : m.target.writeRegister('PC', 0)),
};

/** cycles the open ROM may take to boot and copy the program (it takes far fewer) */
const DSS_BOOT_CYCLES = 50_000_000;
const DSS_BOOT_SECONDS = 60;

export const dssEntry: ProgramEntry = {
  file: 'program.exe',
  async restart(m, program, launched) {
    const header = parseExeHeader(program);
    const exe = exeCode(program, header, 'the test program');
    if (launched) {
      const boot = await m.runUnobserved([header.start], DSS_BOOT_CYCLES, Date.now() + DSS_BOOT_SECONDS * 1000);
      if (boot.kind !== 'reached')
        throw launchFailed(
          `The open Sprinter ROM did not start the program at ${hex(header.start)} (${boot.kind} at ${hex(boot.pc)}).`,
        );
    }
    const wrong = await placeExe(m.target, exe);
    if (wrong) throw launchFailed(`The test program's code at ${hex(header.load + wrong.offset)} is not RAM.`);
  },
};
