/**
 * Device 8 served from a .d64 image (d64-image.ts): the host-folder drive's
 * channels, command channel and `$` listing over the image's directory;
 * reading only. Opening a file for writing, SAVE, scratch and rename answer
 * 26, WRITE PROTECT ON, and say in the machine's messages that writing
 * .d64 images is unsupported.
 */
import { dirname } from 'node:path';
import { readRegularFileSync } from '../../core/files.js';
import { directoryListing, matchesPattern, petsciiToHost } from './cbm-dos.js';
import { D64Image, type D64Entry } from './d64-image.js';
import { HostFolderDrive, type DriveLog } from './host-drive.js';

/** a .d64 with error bytes is 175,531 bytes; nothing larger is read */
const MAX_IMAGE = 200_000;

export class D64Drive extends HostFolderDrive {
  private readonly image: D64Image;
  private readonly byName = new Map<string, D64Entry>();

  constructor(
    readonly imagePath: string,
    log: DriveLog = () => undefined,
  ) {
    super(dirname(imagePath), log);
    const bytes = readRegularFileSync(imagePath, { maxBytes: MAX_IMAGE, what: 'drive 8 image' });
    this.image = new D64Image(bytes, imagePath);
    for (const entry of this.image.entries) {
      const name = petsciiToHost(entry.name);
      if (!this.byName.has(name)) this.byName.set(name, entry);
    }
  }

  protected override writable(): boolean {
    return false;
  }

  protected override names(): string[] {
    return [...this.byName.keys()];
  }

  protected override size(name: string): number {
    return (this.byName.get(name)?.blocks ?? 0) * 254;
  }

  protected override readHost(name: string): Uint8Array | undefined {
    const entry = this.byName.get(name);
    return entry ? this.image.read(entry) : undefined;
  }

  protected override listing(pattern: string): Uint8Array {
    const entries = this.image.entries
      .map((e) => ({ name: petsciiToHost(e.name), bytes: e.blocks * 254, type: e.type }))
      .filter((e) => matchesPattern(pattern, e.name));
    return directoryListing(petsciiToHost(this.image.diskName), entries);
  }
}

/** Device 8 for a launch's `drive8`: a `.d64` image, or else a host folder. */
export function openDrive8(path: string, log: DriveLog): HostFolderDrive {
  return /\.d64$/i.test(path) ? new D64Drive(path, log) : new HostFolderDrive(path, log);
}
