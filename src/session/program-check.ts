/**
 * Programs their machine loads itself (a DSS .EXE that a BIOS or DSS copies into RAM) are not in memory at
 * power-on. Their code is read from the file until then (to settle SDCC frames), and a stop at main counts only
 * once the program's own bytes are at its start and at main: other code (a BIOS in RAM) can run at that address.
 */
import { launchFailed } from '../core/errors.js';
import { hex } from '../core/hex.js';
import type { LoadedProgram, Target } from '../core/target.js';

const CHECKED = 32;

/** The program's bytes where the file covers [offset, offset + length), else undefined. */
export function programBytes(
  program: LoadedProgram | undefined,
  offset: number,
  length: number,
): Uint8Array | undefined {
  if (!program) return undefined;
  const at = offset - program.load;
  return at >= 0 && at + length <= program.code.length ? program.code.subarray(at, at + length) : undefined;
}

/** Throws launch_failed "the program was not loaded" unless the program's bytes are at `addresses`. */
export async function checkProgramLoaded(target: Target, addresses: number[]): Promise<void> {
  const program = target.loadedProgram;
  if (!program) return;
  for (const address of addresses) {
    const want = programBytes(program, address, Math.min(CHECKED, program.load + program.code.length - address));
    if (!want || want.length === 0) continue;
    const got = await target.memory.read({ space: 'cpu', offset: address }, want.length);
    if (!want.every((b, i) => b === got[i]))
      throw launchFailed(
        `The program was not loaded: the machine reached ${hex(address)}, but the bytes there are not ${program.path}'s ` +
          `(it loads at ${hex(program.load)}). Another program ran at that address — check that the disk image holds ` +
          'this program and starts it (e.g. from AUTOEXEC), or use the open ROM (leave rompath unset).',
        { path: program.path, address },
      );
  }
}
