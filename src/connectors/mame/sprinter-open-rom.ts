/**
 * The Sprinter without its copyrighted BIOS: when a session gives no rompath, the program's run folder gets the
 * open ROM (built from rom/sprinter by npm run build) as MAME's BIOS file, with the program's code in it, and empty
 * stand-ins for the Beta Disk ROMs the driver insists on (names and sizes as this MAME lists them). MAME warns that
 * their checksums are wrong and runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { asRetroError, launchFailed } from '../../core/errors.js';
import { OPEN_ROM_FILE, openRomImage, type StagedExe } from '../../machines/sprinter/open-rom.js';
import { listRoms, type ListedRom } from './rom-set.js';

/** The Beta Disk ROMs `mame -listroms sprinter` names (every one is required, whatever its BIOS choice). */
async function betaDiskRoms(mamePath: string): Promise<ListedRom[]> {
  return (await listRoms(mamePath, 'sprinter')).roms.filter((r) => /^trd\S+\.rom$/.test(r.name));
}

function openRomPages(): { boot: Uint8Array; bios: Uint8Array } {
  const dirs = [join(__dirname, 'sprinter-rom'), resolve(__dirname, '..', '..', '..', 'dist', 'sprinter-rom')];
  const dir = dirs.find((d) => existsSync(join(d, 'bios.bin')) && existsSync(join(d, 'boot.bin')));
  if (!dir)
    throw launchFailed(
      `The open Sprinter ROM is not built (looked in ${dirs.join(', ')}): install Debian's sdcc and run npm run build, ` +
        `or set rompath to a folder holding your Sprinter BIOS (${OPEN_ROM_FILE}).`,
    );
  return { boot: readFileSync(join(dir, 'boot.bin')), bios: readFileSync(join(dir, 'bios.bin')) };
}

/** Writes the open ROM set into `romDir`/sprinter (without `exe` it boots to a "no program" loop); returns MAME's extra arguments. */
export async function stageOpenSprinterRom(
  mamePath: string,
  romDir: string,
  exe: StagedExe | undefined,
  path: string,
): Promise<string[]> {
  const { boot, bios } = openRomPages();
  let image: Uint8Array;
  try {
    image = openRomImage(boot, bios, exe);
  } catch (err) {
    throw launchFailed(`${path}: ${asRetroError(err).message}`, { path });
  }
  const dir = join(romDir, 'sprinter');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, OPEN_ROM_FILE), image);
  for (const rom of await betaDiskRoms(mamePath)) await writeFile(join(dir, rom.name), new Uint8Array(rom.size));
  // no PC keyboard (its controller's firmware is not ours to ship): the open ROM reads the ZX key matrix
  return ['-kbd', ''];
}
