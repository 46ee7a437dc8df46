/**
 * The ROM files a MAME machine needs, as `mame -listroms <machine>` names them (asked once per binary and machine),
 * and, for the Sprinter with a user's rompath, a check before the launch that each required file is there with its
 * size: MAME's own "NOT FOUND"/"WRONG LENGTH" lines come after a start-up and name no setting to change.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launchFailed } from '../../core/errors.js';
import { OPEN_ROM_FILE } from '../../machines/sprinter/open-rom.js';

export interface ListedRom {
  name: string;
  size: number;
}

interface RomList {
  roms: ListedRom[];
  /** the devices whose ROMs the list includes: MAME also looks for those in a folder named after the device */
  devices: string[];
}

const listed = new Map<string, Promise<RomList>>();
const LIST_TIMEOUT_MS = 20_000;

export function listRoms(mamePath: string, machine: string): Promise<RomList> {
  const key = `${mamePath}\0${machine}`;
  let list = listed.get(key);
  if (!list) {
    list = new Promise((done) =>
      execFile(mamePath, ['-listroms', machine], { timeout: LIST_TIMEOUT_MS }, (_err, stdout) =>
        done({
          roms: [...stdout.matchAll(/^(\S+)\s+(\d+)\s/gm)].map((m) => ({ name: m[1], size: Number(m[2]) })),
          devices: [...(/including devices ([^)]*)\)/.exec(stdout)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]),
        }),
      ),
    );
    listed.set(key, list);
  }
  return list;
}

/** Which listed ROMs a start needs, and a hint per file; machines without an entry are left to MAME. */
const REQUIRED: Record<string, (rom: ListedRom, extraArgs: string[]) => string | undefined> = {
  sprinter: ({ name }, extraArgs) => {
    if (name.startsWith('sp2k-')) {
      // another BIOS chosen with -bios: which file that is, MAME says
      if (name !== OPEN_ROM_FILE || extraArgs.includes('-bios')) return undefined;
      return 'the Sprinter BIOS: put your dump of it there';
    }
    if (name === 'natural.bin')
      return extraArgs.includes('-kbd') ? undefined : 'the keyboard controller: add it, or extraArgs ["-kbd", ""]';
    return 'a Beta Disk ROM: MAME needs every one "mame -listroms sprinter" lists';
  },
};

/**
 * Refuses a launch whose rompath `folders` lack a ROM the machine needs, or hold one of the wrong size, naming the
 * file and what to do. A zipped set (<set>.zip/.7z) is MAME's to read.
 */
export async function checkRomSet(
  mamePath: string,
  machine: string,
  folders: string[],
  extraArgs: string[] = [],
): Promise<void> {
  const required = REQUIRED[machine];
  if (!required || !folders.length) return;
  const { roms, devices } = await listRoms(mamePath, machine);
  const sets = [machine, ...devices];
  if (folders.some((f) => sets.some((s) => existsSync(join(f, `${s}.zip`)) || existsSync(join(f, `${s}.7z`))))) return;
  const orOpen = machine === 'sprinter' ? ", or leave rompath out to run the project's open ROM" : '';
  for (const rom of roms) {
    const hint = required(rom, extraArgs);
    if (!hint) continue;
    const found = folders.flatMap((f) => sets.map((s) => join(f, s, rom.name))).find((p) => existsSync(p));
    if (!found) {
      const looked = folders.map((f) => join(f, machine)).join(', ');
      throw launchFailed(
        `${rom.name} (${rom.size} bytes) is not in the rompath (looked in ${looked}): it is ${hint}${orOpen}.`,
        { file: rom.name, size: rom.size, folders },
      );
    }
    const size = statSync(found).size;
    if (size !== rom.size) {
      throw launchFailed(
        `${found} is ${size} bytes, but MAME's ${machine} needs ${rom.size} bytes for ${rom.name}: it is not that ` +
          `ROM (a bad or partial dump?). Replace it with a good dump${orOpen}.`,
        { path: found, size, expected: rom.size },
      );
    }
  }
}
