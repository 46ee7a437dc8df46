/**
 * Device 8 of the built-in C64 served from a host folder, channel by
 * channel as a 1541 answers on the serial bus: channels 0-14 carry files
 * (0 loads, 1 saves), 15 is the command/error channel (status text,
 * `I`, `UI`/`UJ`, `S:` scratch, `R:new=old` rename). `$` reads the folder
 * as the drive's directory listing. Files are used only inside the
 * folder (core/files.ts roots check on real paths): names with path
 * characters are refused, a file is written at CLOSE through a temporary
 * file and a rename, and a link that leaves the folder is "file not found".
 */
import { closeSync, openSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkInsideRoots, readRegularFileSync, resolveInsideRoots } from '../../core/files.js';
import {
  directoryListing,
  DOS,
  type DosStatus,
  hasWildcard,
  matchesPattern,
  parseFileSpec,
  petsciiToHost,
  statusLine,
  typeOfHostName,
} from './cbm-dos.js';

/** A 1541 disk holds 170 KiB; a file here may be larger, but not without bound. */
export const MAX_DRIVE_FILE = 4 * 1024 * 1024;
const COMMAND_CHANNEL = 15;

type Channel =
  | { kind: 'read'; data: Uint8Array; at: number }
  | { kind: 'write'; name: string; chunks: number[]; existing?: Uint8Array };

export interface DriveLog {
  (text: string): void;
}

export class HostFolderDrive {
  private readonly channels = new Map<number, Channel>();
  private status: number[] = statusLine(DOS.POWER_ON);
  private statusAt = 0;
  private command: number[] = [];

  constructor(
    readonly folder: string,
    private readonly log: DriveLog = () => undefined,
  ) {}

  /** The drive was reset (UI, or the machine's reset): channels closed, power-on message. */
  reset(): void {
    this.channels.clear();
    this.setStatus(DOS.POWER_ON);
  }

  /** SECOND $Fx with the name: opens channel `channel`. */
  open(channel: number, name: number[]): void {
    if (channel === COMMAND_CHANNEL) {
      if (name.length) this.execute(name);
      return;
    }
    this.channels.delete(channel);
    const spec = parseFileSpec(name, channel);
    if (!spec) return this.setStatus(DOS.NO_NAME);
    if (spec.directory) {
      this.channels.set(channel, { kind: 'read', data: this.listing(spec.name || '*'), at: 0 });
      return this.setStatus(DOS.OK);
    }
    if (!safeName(spec.name)) return this.setStatus(DOS.BAD_NAME);
    if (spec.mode === 'read') {
      const file = this.find(spec.name);
      if (!file) return this.setStatus(DOS.NOT_FOUND);
      const data = this.readHost(file);
      if (!data) return this.setStatus(DOS.NOT_FOUND);
      this.channels.set(channel, { kind: 'read', data, at: 0 });
      return this.setStatus(DOS.OK);
    }
    if (hasWildcard(spec.name)) return this.setStatus(DOS.BAD_NAME);
    if (!this.writable()) return this.refuseWrite(spec.name);
    const existing = this.find(spec.name);
    if (spec.mode === 'write' && existing && !spec.replace) return this.setStatus(DOS.EXISTS);
    if (spec.mode === 'append' && !existing) return this.setStatus(DOS.NOT_FOUND);
    const prior = spec.mode === 'append' && existing ? this.readHost(existing) : undefined;
    this.channels.set(channel, { kind: 'write', name: existing ?? spec.name, chunks: [], existing: prior });
    this.setStatus(DOS.OK);
  }

  /** SECOND $Ex: closes the channel; a written file reaches the folder now. Closing 15 closes every channel. */
  close(channel: number): void {
    if (channel === COMMAND_CHANNEL) {
      for (const n of [...this.channels.keys()]) this.close(n);
      return;
    }
    const ch = this.channels.get(channel);
    this.channels.delete(channel);
    if (ch?.kind === 'write') this.writeHost(ch);
  }

  /** CIOUT after LISTEN/SECOND $6x. */
  write(channel: number, byte: number): void {
    if (channel === COMMAND_CHANNEL) {
      this.command.push(byte);
      return;
    }
    const ch = this.channels.get(channel);
    if (ch?.kind !== 'write') return;
    if (ch.chunks.length + (ch.existing?.length ?? 0) >= MAX_DRIVE_FILE) return this.setStatus(DOS.DISK_FULL);
    ch.chunks.push(byte);
  }

  /** UNLSN after data to channel 15: the collected bytes are a command. */
  endCommand(): void {
    if (!this.command.length) return;
    const bytes = this.command;
    this.command = [];
    this.execute(bytes);
  }

  /** ACPTR after TALK/TKSA $6x: the next byte and whether it is the last; undefined when there is nothing to send. */
  read(channel: number): { byte: number; last: boolean } | undefined {
    if (channel === COMMAND_CHANNEL) {
      const byte = this.status[this.statusAt++];
      const last = this.statusAt >= this.status.length;
      if (last) this.setStatus(DOS.OK);
      return { byte, last };
    }
    const ch = this.channels.get(channel);
    if (ch?.kind !== 'read' || ch.at >= ch.data.length) return undefined;
    const byte = ch.data[ch.at++];
    return { byte, last: ch.at >= ch.data.length };
  }

  /** The whole file for LOAD (channel 0), or undefined with the status set. */
  load(name: number[]): Uint8Array | undefined {
    this.open(0, name);
    const ch = this.channels.get(0);
    this.channels.delete(0);
    return ch?.kind === 'read' ? ch.data : undefined;
  }

  /** SAVE (channel 1): true when written. */
  save(name: number[], data: Uint8Array): boolean {
    this.open(1, name);
    const ch = this.channels.get(1);
    if (ch?.kind !== 'write') return false;
    ch.chunks = [...data];
    this.close(1);
    return this.status[0] === 0x30 && this.status[1] === 0x30;
  }

  /** false: a read-only medium (a .d64 image); writes answer 26, WRITE PROTECT ON. */
  protected writable(): boolean {
    return true;
  }

  private refuseWrite(what: string): void {
    this.log(
      `Drive 8: "${what}" would write to the disk image, and writing .d64 images is unsupported on the built-in C64.`,
    );
    this.setStatus(DOS.WRITE_PROTECT);
  }

  protected setStatus(status: DosStatus, track = 0, sector = 0): void {
    this.status = statusLine(status, track, sector);
    this.statusAt = 0;
  }

  private execute(bytes: number[]): void {
    const text = petsciiToHost(bytes).replace(/\r$/, '');
    const verb = text[0]?.toLowerCase();
    if (verb === 'i') return this.setStatus(DOS.OK);
    if (verb === 'u' && /^u[ij9:]/i.test(text)) return this.reset();
    if ((verb === 's' || verb === 'r') && !this.writable()) return this.refuseWrite(text);
    if (verb === 's') {
      let count = 0;
      for (const pattern of afterColon(text).split(',')) {
        if (!safeName(pattern)) return this.setStatus(DOS.BAD_NAME);
        for (const name of this.names().filter((n) => matchesPattern(pattern, n))) {
          if (this.inside(name)) {
            unlinkSync(join(this.folder, name));
            count++;
          }
        }
      }
      return this.setStatus(DOS.SCRATCHED, count);
    }
    if (verb === 'r') {
      const [to, from] = afterColon(text).split('=');
      if (!to || !from || !safeName(to) || !safeName(from) || hasWildcard(to) || hasWildcard(from))
        return this.setStatus(DOS.BAD_NAME);
      const source = this.find(from);
      if (!source) return this.setStatus(DOS.NOT_FOUND);
      if (this.find(to)) return this.setStatus(DOS.EXISTS);
      renameSync(join(this.folder, source), join(this.folder, to));
      return this.setStatus(DOS.OK);
    }
    this.log(`Drive 8: the command "${text}" is not provided by the built-in C64's host-folder drive.`);
    this.setStatus(DOS.UNKNOWN_COMMAND);
  }

  protected names(): string[] {
    try {
      return readdirSync(this.folder, { withFileTypes: true })
        .filter((e) => e.isFile() || e.isSymbolicLink())
        .map((e) => e.name)
        .sort();
    } catch {
      return [];
    }
  }

  /** The host file a CBM name (or pattern) means: exact name first, case-insensitively, then name + .prg/.seq. */
  private find(pattern: string): string | undefined {
    const names = this.names();
    if (hasWildcard(pattern)) return names.find((n) => matchesPattern(pattern, n));
    const lower = pattern.toLowerCase();
    return (
      names.find((n) => n === pattern) ??
      names.find((n) => n.toLowerCase() === lower) ??
      names.find((n) => n.toLowerCase() === `${lower}.prg` || n.toLowerCase() === `${lower}.seq`)
    );
  }

  protected listing(pattern: string): Uint8Array {
    const entries = this.names()
      .filter((n) => matchesPattern(pattern, n))
      .map((name) => ({ name, bytes: this.size(name), type: typeOfHostName(name) }));
    return directoryListing(basename(this.folder), entries);
  }

  protected size(name: string): number {
    try {
      return statSync(join(this.folder, name)).size;
    } catch {
      return 0;
    }
  }

  /** true when `name` resolves (through links) to a regular file inside the folder. */
  private inside(name: string): boolean {
    try {
      return statSync(resolveInsideRoots(join(this.folder, name), [this.folder])).isFile();
    } catch {
      return false;
    }
  }

  protected readHost(name: string): Uint8Array | undefined {
    try {
      return readRegularFileSync(join(this.folder, name), {
        maxBytes: MAX_DRIVE_FILE,
        what: 'drive 8 file',
        roots: [this.folder],
      });
    } catch {
      return undefined;
    }
  }

  private writeHost(ch: Extract<Channel, { kind: 'write' }>): void {
    const data = Uint8Array.from([...(ch.existing ?? []), ...ch.chunks]);
    const path = join(this.folder, ch.name);
    const tmp = join(this.folder, `.${ch.name}.${process.pid}.tmp`);
    try {
      checkInsideRoots(realpathSync(this.folder), [this.folder], path);
      const fd = openSync(tmp, 'wx');
      try {
        writeSync(fd, data);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
      this.setStatus(DOS.OK);
    } catch (err) {
      try {
        unlinkSync(tmp);
      } catch {
        /* it was never created */
      }
      this.log(`Drive 8: writing ${path} failed: ${(err as Error).message}`);
      this.setStatus(DOS.WRITE_ERROR);
    }
  }
}

/** A flat file name: no path separators, no parent references, nothing unprintable. */
function safeName(name: string): boolean {
  return name.length > 0 && name.length <= 64 && !/[/\\\0]/.test(name) && name !== '.' && name !== '..';
}

function afterColon(text: string): string {
  const colon = text.indexOf(':');
  return colon >= 0 ? text.slice(colon + 1) : text.slice(1);
}
