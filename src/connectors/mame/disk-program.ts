/**
 * Programs that a machine's own OS loads from disk rather than from a ROM slot:
 * the Sprinter's DSS .EXE files. We check the header (so a wrong file fails at
 * launch, with a reason) and leave the file where the disk image holds it.
 */
import { launchFailed } from '../../core/errors.js';
import { MAX_PROGRAM_BYTES, readRegularFile } from '../../core/files.js';
import { EXE_HEADER_SIZE, parseExeHeader, type ExeHeader } from '../../machines/sprinter/exe-header.js';

const DISK_PROGRAM_MACHINES = new Set(['sprinter']);

/** Undefined when `machine` loads programs from a ROM slot instead; else the parsed header. */
export async function checkDiskProgram(machine: string, path: string): Promise<ExeHeader | undefined> {
  if (!DISK_PROGRAM_MACHINES.has(machine)) return undefined;
  let head: Buffer;
  try {
    head = (await readRegularFile(path, { maxBytes: MAX_PROGRAM_BYTES, what: 'program' })).subarray(0, EXE_HEADER_SIZE);
  } catch (err) {
    throw launchFailed((err as Error).message, { path });
  }
  try {
    return parseExeHeader(head);
  } catch (err) {
    throw launchFailed(
      `${path} is not a DSS program: ${(err as Error).message} Build it as a DSS .EXE: a 512-byte header that ` +
        'starts with "EXE" and gives the load address, start and stack, then the code (docs/sprinter.md; ' +
        "`retro-debug exe program.ihx PROGRAM.EXE` makes one from SDCC's Intel HEX; examples/sprinter-demo).",
      { path },
    );
  }
}
