/**
 * Disk images MAME takes without a word although it cannot use them (0.276 mounts 1000 bytes of garbage as a
 * hard disk and boots on): checked by their form before the launch, and after the start against what MAME's image
 * slots report; an image MAME refuses outright (a floppy of no known format) ends MAME, and its reason is said.
 */
import { open } from 'node:fs/promises';
import { launchFailed } from '../../core/errors.js';
import type { MediaSlot } from './bridge-ops.js';

const CHD_MAGIC = 'MComprHD';
const SECTOR = 512;
const HOW =
  'give a CHD made by chdman createhd (or createraw) from the disk, or a raw image whose size is a whole number of ' +
  '512-byte sectors';

export interface GivenMedia {
  slot: string;
  path: string;
}

/** A CHD must start with its magic; a raw hard disk image must be whole sectors. */
export async function checkMediaFile({ slot, path }: GivenMedia): Promise<void> {
  const chd = /\.chd$/i.test(path);
  if (!chd && !/^(hard|harddisk)\d*$/i.test(slot)) return;
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(CHD_MAGIC.length);
    await file.read(head, 0, head.length, 0);
    if (chd && head.toString('latin1') !== CHD_MAGIC)
      throw launchFailed(`The ${slot} image ${path} is not a CHD (it does not start with "${CHD_MAGIC}"): ${HOW}.`, {
        path,
        slot,
      });
    if (!chd && (size === 0 || size % SECTOR !== 0))
      throw launchFailed(`The ${slot} image ${path} is ${size} bytes, no raw hard disk image: ${HOW}.`, { path, slot });
  } finally {
    await file.close();
  }
}

/** After the start: each given slot exists and holds an image. */
export function checkMounted(given: GivenMedia[], images: MediaSlot[], machine: string): void {
  for (const { slot, path } of given) {
    const image = images.find((i) => i.slot === slot || i.name === slot);
    if (!image)
      throw launchFailed(
        `MAME's ${machine} has no media slot "${slot}" (it has ${images.map((i) => i.slot).join(', ') || 'none'}).`,
        { slot },
      );
    if (!image.mounted) throw launchFailed(`MAME did not mount ${path} in ${slot}: ${HOW}.`, { path, slot });
  }
}

/** MAME's "Device … load failed: …" as a message naming the files given, or undefined. */
export function mediaLoadFailure(output: string, given: GivenMedia[]): string | undefined {
  const failed = /Device (.+?) load failed: (.+)/.exec(output);
  if (!failed) return undefined;
  const files = given.map((g) => `${g.slot} = ${g.path}`).join(', ');
  return `MAME could not load a media image (${files}): its ${failed[1]} says "${failed[2].trim()}". Check the file's format.`;
}
