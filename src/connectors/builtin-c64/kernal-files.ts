/**
 * The KERNAL's file layer as the real one behaves (901227-03): the logical
 * file tables at $0259/$0263/$026D with their count at $98, OPEN / CLOSE /
 * CHKIN / CHKOUT / CLRCHN / CLALL / CHRIN / CHROUT / GETIN / LOAD / SAVE,
 * and the serial-bus routines under them (LISTEN, SECOND, CIOUT, UNLSN,
 * TALK, TKSA, ACPTR, UNTLK) that programs also call directly. The status
 * byte $90 is cleared where the real KERNAL clears it (every table lookup:
 * OPEN, CHKIN, CHKOUT; LOAD; SAVE), errors go through CLRCHN as there, and
 * a failed serial OPEN leaves its table entry as the real one does. Serial
 * devices are HostFolderDrive objects (device 8); keyboard and screen are
 * the screen editor's; tape and RS-232 are not present.
 */
import { FLAG_C, type Cpu6502 } from '../../cpu/6502/cpu6502.js';
import type { HostFolderDrive } from './host-drive.js';

export const STATUS = 0x90;
const LDTND = 0x98;
const DFLTN = 0x99;
const DFLTO = 0x9a;
const FNLEN = 0xb7;
const LA = 0xb8;
const SA = 0xb9;
const FA = 0xba;
const FNADR = 0xbb;
const LAT = 0x0259;
const FAT = 0x0263;
const SAT = 0x026d;
const MAX_FILES = 10;

/** KERNAL I/O error numbers (returned in A with carry set). */
export const IO = {
  TOO_MANY_FILES: 1,
  FILE_OPEN: 2,
  FILE_NOT_OPEN: 3,
  FILE_NOT_FOUND: 4,
  DEVICE_NOT_PRESENT: 5,
  NOT_INPUT_FILE: 6,
  NOT_OUTPUT_FILE: 7,
  MISSING_FILE_NAME: 8,
  ILLEGAL_DEVICE: 9,
} as const;

const ST_TIMEOUT_READ = 0x02;
const ST_VERIFY = 0x10;
const ST_EOI = 0x40;
const ST_NOT_PRESENT = 0x80;

export interface FileHost {
  cpu: Cpu6502;
  ram: Uint8Array;
  /** the CPU's view without side effects, and its writes (RAM under ROM) */
  bus: { peek(address: number): number; poke(address: number, value: number): void };
  /** device 0 input: the screen editor's line input; undefined while no line is ready (the call is repeated) */
  keyboardLine(): number | undefined;
  /** device 0 GETIN: one key from the buffer, 0 when empty */
  getKey(): number;
  /** device 3 output */
  print(code: number): void;
  log(text: string): void;
  rts(): void;
}

/** Who is addressed on the serial bus. */
interface Addressed {
  device: number;
  /** secondary address byte as sent ($6x data, $Ex close, $Fx open) */
  sa?: number;
}

export class KernalFiles {
  private readonly devices = new Map<number, HostFolderDrive>();
  private listener?: Addressed;
  private talker?: Addressed;
  private openName: number[] = [];

  constructor(private readonly host: FileHost) {}

  attach(device: number, drive: HostFolderDrive | undefined): void {
    if (drive) this.devices.set(device, drive);
    else this.devices.delete(device);
  }

  drive(device: number): HostFolderDrive | undefined {
    return this.devices.get(device);
  }

  /** Power-on and CLALL: no files, default channels. */
  reset(): void {
    this.host.ram[LDTND] = 0;
    this.listener = this.talker = undefined;
    for (const drive of this.devices.values()) drive.reset();
    this.clrchn();
  }

  // ---- the jump table's file routines (each ends in rts or an error) ----

  open(): void {
    const ram = this.host.ram;
    if (ram[LA] === 0) return this.error(IO.NOT_INPUT_FILE);
    if (this.lookup(ram[LA]) >= 0) return this.error(IO.FILE_OPEN);
    const at = ram[LDTND];
    if (at >= MAX_FILES) return this.error(IO.TOO_MANY_FILES);
    ram[LDTND]++;
    ram[LAT + at] = ram[LA];
    ram[SA] |= 0x60;
    ram[SAT + at] = ram[SA];
    ram[FAT + at] = ram[FA];
    const device = ram[FA];
    if (device === 1 || device === 2)
      return this.absent(`OPEN of device ${device} (${device === 1 ? 'tape' : 'RS-232'})`);
    if (device > 3 && ram[SA] < 0x80 && ram[FNLEN] > 0) {
      ram[STATUS] = 0;
      this.listen(device);
      this.second(ram[SA] | 0xf0);
      if (ram[STATUS] & ST_NOT_PRESENT) return this.absent(`OPEN of device ${device}`);
      for (const b of this.fileName()) this.ciout(b);
      this.unlsn();
    }
    this.ok();
  }

  close(): void {
    const ram = this.host.ram;
    const at = this.find(this.host.cpu.a);
    if (at < 0) return this.ok();
    const device = ram[FAT + at];
    const sa = ram[SAT + at];
    if (device > 3 && sa < 0x80) {
      this.listen(device);
      this.second((sa & 0xef) | 0xe0);
      this.unlsn();
    }
    this.remove(at);
    this.ok();
  }

  chkin(): void {
    const at = this.lookup(this.host.cpu.x);
    if (at < 0) return this.error(IO.FILE_NOT_OPEN);
    const { device, sa } = this.select(at);
    if (device === 0 || device === 3) return this.useInput(device);
    if (device < 3) return sa === 0x60 ? this.useInput(device) : this.error(IO.NOT_INPUT_FILE);
    this.talk(device);
    if (sa < 0x80) this.tksa(sa);
    if (this.host.ram[STATUS] & ST_NOT_PRESENT) return this.absent(`CHKIN on device ${device}`);
    this.useInput(device);
  }

  chkout(): void {
    const at = this.lookup(this.host.cpu.x);
    if (at < 0) return this.error(IO.FILE_NOT_OPEN);
    const { device, sa } = this.select(at);
    if (device === 0) return this.error(IO.NOT_OUTPUT_FILE);
    if (device === 3) return this.useOutput(device);
    if (device < 3) return sa === 0x60 ? this.error(IO.NOT_OUTPUT_FILE) : this.useOutput(device);
    this.listen(device);
    if (sa < 0x80) this.second(sa);
    if (this.host.ram[STATUS] & ST_NOT_PRESENT) return this.absent(`CHKOUT on device ${device}`);
    this.useOutput(device);
  }

  clrchnCall(): void {
    this.clrchn();
    this.host.rts();
  }

  clall(): void {
    this.host.ram[LDTND] = 0;
    this.clrchnCall();
  }

  /** CHRIN (BASIN). */
  chrin(): void {
    const { cpu, ram } = this.host;
    const device = ram[DFLTN];
    if (device === 0 || device === 3) {
      const byte = this.host.keyboardLine();
      if (byte === undefined) return; // no line yet: the call runs again
      cpu.a = byte;
      return this.ok();
    }
    if (device < 3) return this.ok();
    if (ram[STATUS] !== 0) {
      cpu.a = 0x0d;
      return this.ok();
    }
    cpu.a = this.acptr();
    this.ok();
  }

  getin(): void {
    const { cpu, ram } = this.host;
    if (ram[DFLTN] === 0) {
      cpu.a = this.host.getKey();
      return this.ok();
    }
    this.chrin();
  }

  /** CHROUT (BSOUT): carry clear, A kept. */
  chrout(): void {
    const { cpu, ram } = this.host;
    const device = ram[DFLTO];
    if (device === 3) this.host.print(cpu.a);
    else if (device > 3) this.ciout(cpu.a);
    this.ok();
  }

  /** LOAD: A = 0 load, 1 verify; X/Y the address when SA = 0; returns the end in X/Y. */
  load(): void {
    const { cpu, ram } = this.host;
    const verify = cpu.a !== 0;
    ram[0xc3] = cpu.x;
    ram[0xc4] = cpu.y;
    ram[0x93] = cpu.a;
    ram[STATUS] = 0;
    const device = ram[FA];
    if (device < 4)
      return device === 0 || device === 3 ? this.error(IO.ILLEGAL_DEVICE) : this.absent(`LOAD from device ${device}`);
    if (ram[FNLEN] === 0) return this.error(IO.MISSING_FILE_NAME);
    const drive = this.devices.get(device);
    if (!drive) return this.absent(`LOAD from device ${device}`);
    const data = drive.load(this.fileName());
    if (!data || data.length < 2) return this.error(IO.FILE_NOT_FOUND);
    let address = ram[SA] === 0 ? ram[0xc3] | (ram[0xc4] << 8) : data[0] | (data[1] << 8);
    const start = address;
    for (let i = 2; i < data.length; i++, address = (address + 1) & 0xffff) {
      if (!verify) this.host.bus.poke(address, data[i]);
      else if (this.host.bus.peek(address) !== data[i]) ram[STATUS] |= ST_VERIFY;
    }
    ram[STATUS] |= ST_EOI;
    ram[0xae] = address & 0xff;
    ram[0xaf] = address >> 8;
    ram[0xc1] = start & 0xff;
    ram[0xc2] = start >> 8;
    cpu.x = address & 0xff;
    cpu.y = address >> 8;
    this.ok();
  }

  /** SAVE: A = zero-page address of the start pointer, X/Y the end (exclusive). */
  save(): void {
    const { cpu, ram } = this.host;
    const start = ram[cpu.a] | (ram[(cpu.a + 1) & 0xff] << 8);
    const end = cpu.x | (cpu.y << 8);
    ram[0xc1] = start & 0xff;
    ram[0xc2] = start >> 8;
    ram[0xae] = cpu.x;
    ram[0xaf] = cpu.y;
    ram[STATUS] = 0;
    const device = ram[FA];
    if (device < 4)
      return device === 0 || device === 3 ? this.error(IO.ILLEGAL_DEVICE) : this.absent(`SAVE to device ${device}`);
    if (ram[FNLEN] === 0) return this.error(IO.MISSING_FILE_NAME);
    const drive = this.devices.get(device);
    if (!drive) return this.absent(`SAVE to device ${device}`);
    const data = [start & 0xff, start >> 8];
    for (let a = start; a < end; a++) data.push(this.host.bus.peek(a));
    drive.save(this.fileName(), Uint8Array.from(data));
    this.ok();
  }

  // ---- serial bus routines (also jump-table entries) ----

  listen(device: number): void {
    this.listener = this.present(device) ? { device } : undefined;
  }

  second(sa: number): void {
    if (!this.listener) return;
    this.listener.sa = sa;
    const drive = this.devices.get(this.listener.device)!;
    if ((sa & 0xf0) === 0xe0) drive.close(sa & 0x0f);
    if ((sa & 0xf0) === 0xf0) this.openName = [];
  }

  ciout(byte: number): void {
    const l = this.listener;
    if (!l) {
      this.host.ram[STATUS] |= ST_NOT_PRESENT;
      return;
    }
    if (l.sa === undefined) return;
    if ((l.sa & 0xf0) === 0xf0) this.openName.push(byte);
    else if ((l.sa & 0xf0) === 0x60) this.devices.get(l.device)!.write(l.sa & 0x0f, byte);
  }

  unlsn(): void {
    const l = this.listener;
    this.listener = undefined;
    if (!l || l.sa === undefined) return;
    const drive = this.devices.get(l.device)!;
    if ((l.sa & 0xf0) === 0xf0) drive.open(l.sa & 0x0f, this.openName);
    if ((l.sa & 0x0f) === 0x0f && (l.sa & 0xf0) === 0x60) drive.endCommand();
  }

  talk(device: number): void {
    this.talker = this.present(device) ? { device } : undefined;
  }

  tksa(sa: number): void {
    if (this.talker) this.talker.sa = sa;
  }

  acptr(): number {
    const ram = this.host.ram;
    const t = this.talker;
    if (!t || t.sa === undefined) {
      ram[STATUS] |= ST_TIMEOUT_READ;
      return 0;
    }
    const got = this.devices.get(t.device)!.read(t.sa & 0x0f);
    if (!got) {
      ram[STATUS] |= ST_TIMEOUT_READ | ST_EOI;
      return 0x0d;
    }
    if (got.last) ram[STATUS] |= ST_EOI;
    return got.byte;
  }

  untlk(): void {
    this.talker = undefined;
  }

  // ---- helpers ----

  private present(device: number): boolean {
    if (this.devices.has(device)) return true;
    this.host.ram[STATUS] |= ST_NOT_PRESENT;
    return false;
  }

  private clrchn(): void {
    const ram = this.host.ram;
    if (ram[DFLTO] > 3) this.unlsn();
    if (ram[DFLTN] > 3) this.untlk();
    ram[DFLTO] = 3;
    ram[DFLTN] = 0;
  }

  /** LOOKUP: clears the status byte, then finds the logical file's table index (-1: not open). */
  private lookup(lfn: number): number {
    this.host.ram[STATUS] = 0;
    return this.find(lfn);
  }

  private find(lfn: number): number {
    const ram = this.host.ram;
    for (let i = Math.min(ram[LDTND], MAX_FILES) - 1; i >= 0; i--) if (ram[LAT + i] === lfn) return i;
    return -1;
  }

  /** JZ100: the table entry becomes the current LA/FA/SA. */
  private select(at: number): { device: number; sa: number } {
    const ram = this.host.ram;
    ram[LA] = ram[LAT + at];
    ram[FA] = ram[FAT + at];
    ram[SA] = ram[SAT + at];
    return { device: ram[FA], sa: ram[SA] };
  }

  private remove(at: number): void {
    const ram = this.host.ram;
    const last = --ram[LDTND];
    if (at === last) return;
    ram[LAT + at] = ram[LAT + last];
    ram[FAT + at] = ram[FAT + last];
    ram[SAT + at] = ram[SAT + last];
  }

  private fileName(): number[] {
    const ram = this.host.ram;
    const at = ram[FNADR] | (ram[FNADR + 1] << 8);
    const out: number[] = [];
    for (let i = 0; i < ram[FNLEN]; i++) out.push(this.host.bus.peek((at + i) & 0xffff));
    return out;
  }

  private useInput(device: number): void {
    this.host.ram[DFLTN] = device;
    this.ok();
  }

  private useOutput(device: number): void {
    this.host.ram[DFLTO] = device;
    this.ok();
  }

  private absent(what: string): void {
    this.host.log(
      `${what}: device not present on the built-in C64 (device 8 is a host folder; no tape, RS-232 or other drives).`,
    );
    this.host.ram[STATUS] |= ST_NOT_PRESENT;
    this.error(IO.DEVICE_NOT_PRESENT);
  }

  /** The KERNAL's error exit: CLRCHN, the number in A, carry set. */
  private error(code: number): void {
    this.clrchn();
    this.host.cpu.a = code;
    this.host.cpu.p |= FLAG_C;
    this.host.rts();
  }

  private ok(): void {
    this.host.cpu.p &= ~FLAG_C;
    this.host.rts();
  }
}
