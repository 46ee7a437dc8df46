/**
 * Programs that a machine's own OS loads from disk rather than from a ROM slot:
 * the Sprinter's DSS .EXE files. We check the header (so a wrong file fails at
 * launch, with a reason) and leave the file where the disk image holds it. SDCC's
 * Intel HEX is taken too, written as the .EXE `retro-debug exe` would make.
 */
import { extname } from 'node:path';
import { asRetroError, launchFailed } from '../../core/errors.js';
import { MAX_PROGRAM_BYTES, readRegularFile } from '../../core/files.js';
import { exeFromIntelHex, parseExeHeader } from '../../machines/sprinter/exe-header.js';
import { exeCode, type StagedExe } from '../../machines/sprinter/open-rom.js';

const DISK_PROGRAM_MACHINES = new Set(['sprinter']);

/** Undefined when `machine` loads programs from a ROM slot instead; else the program's header and code. */
export async function diskProgram(machine: string, path: string): Promise<StagedExe | undefined> {
  if (!DISK_PROGRAM_MACHINES.has(machine)) return undefined;
  let file: Buffer;
  try {
    file = await readRegularFile(path, { maxBytes: MAX_PROGRAM_BYTES, what: 'program' });
    if (/^\.(ihx|hex)$/i.test(extname(path))) file = exeFromIntelHex(file.toString('latin1'), path);
  } catch (err) {
    throw launchFailed(asRetroError(err).message, { path });
  }
  let header;
  try {
    header = parseExeHeader(file);
  } catch (err) {
    throw launchFailed(
      `${path} is not a DSS program: ${(err as Error).message} Build it as a DSS .EXE: a 512-byte header that ` +
        'starts with "EXE" and gives the load address, start and stack, then the code (docs/sprinter.md; ' +
        "`retro-debug exe program.ihx PROGRAM.EXE` makes one from SDCC's Intel HEX, or give the .ihx itself).",
      { path },
    );
  }
  try {
    return exeCode(file, header, path);
  } catch (err) {
    throw launchFailed(asRetroError(err).message, { path });
  }
}
