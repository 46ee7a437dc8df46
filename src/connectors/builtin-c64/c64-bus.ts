/**
 * The built-in C64's memory map: 64 KiB RAM, the 6510 port at $00/$01 that
 * banks ROMs and I/O, the stand-in KERNAL image, our own character glyphs,
 * colour RAM, and the I/O registers programs touch (VIC-II, CIA 1/2; the
 * SID's voice 3 readback). No Commodore ROM is included: BASIC's
 * area reads as RAM.
 */
import type { Bus6502 } from '../../cpu/6502/cpu6502.js';
import { CHAR_ROM } from './font.js';
import { KERNAL_IMAGE } from './kernal-image.js';
import { Cia } from './cia.js';
import { SidVoice3 } from './sid-voice3.js';
import { VicRaster } from './vic-raster.js';

/** Watch flags per address: 1 load, 2 store (VICE's checkpoint operation bits). */
export const WATCH_LOAD = 1;
export const WATCH_STORE = 2;

export const CYCLES_PER_LINE = 63;
export const LINES_PER_FRAME = 312;

export interface WatchHit {
  address: number;
  op: number;
  value: number;
}

export class C64Bus implements Bus6502 {
  readonly ram = new Uint8Array(0x10000);
  readonly colorRam = new Uint8Array(0x400);
  readonly vic = new Uint8Array(0x40);
  readonly cia1 = new Cia();
  readonly cia2 = new Cia();
  /** the SID's readable part: voice 3's oscillator and envelope */
  readonly sid = new SidVoice3();
  /** the VIC-II's raster: sequencer, frames (vic-raster.ts) */
  readonly raster = new VicRaster(this);
  portDir = 0x2f;
  portData = 0x37;
  /** per-address watch flags; hits are collected for the machine to report */
  watch = new Uint8Array(0x10000);
  watchHits: WatchHit[] = [];
  /** one bit per CPU address the CPU wrote since the history's last snapshot (history/recorder.ts swaps it) */
  written: Uint8Array = new Uint8Array(0x2000);
  /** called on a watch hit so the CPU stops after the accessing instruction */
  onWatch: () => void = () => undefined;
  /** the CPU's cycle counter, for the raster register */
  clock: () => number = () => 0;
  /** called when the VIC-II's interrupt output may have changed (the CPU's IRQ line follows it and CIA 1's) */
  onVicInterrupt: () => void = () => undefined;
  /** joystick lines as the CIA sees them (active low): [port 1, port 2] */
  joy: [number, number] = [0x1f, 0x1f];

  /**
   * The RESET line reaches both CIAs and the SID (the VIC-II has no reset
   * pin; the KERNAL's initialisation rewrites its registers, as our cold start does).
   */
  resetChips(now: number): void {
    this.cia1.reset(now);
    this.cia2.reset(now);
    this.sid.reset(now);
  }

  /** Bits 0-2 of the port as the PLA sees them (inputs read high). */
  private banking(): number {
    return (this.portData | ~this.portDir) & 7;
  }

  read(address: number): number {
    const value = this.peek(address, true);
    if (this.watch[address] & WATCH_LOAD) {
      this.watchHits.push({ address, op: WATCH_LOAD, value });
      this.onWatch();
    }
    return value;
  }

  write(address: number, value: number): void {
    if (this.watch[address] & WATCH_STORE) {
      this.watchHits.push({ address, op: WATCH_STORE, value });
      this.onWatch();
    }
    this.written[address >> 3] |= 1 << (address & 7);
    this.poke(address, value, true);
  }

  /** CPU view. `effects` = reads acknowledge interrupts as the CPU's would. */
  peek(address: number, effects = false): number {
    if (address < 2) return address === 0 ? this.portDir : (this.portData & this.portDir) | (0x17 & ~this.portDir);
    if (address < 0xa000) return this.ram[address];
    const bank = this.banking();
    if (address >= 0xe000) return bank & 2 ? KERNAL_IMAGE[address - 0xe000] : this.ram[address];
    if (address >= 0xd000 && address < 0xe000 && (bank & 3) !== 0) {
      return bank & 4 ? this.io(address, effects) : CHAR_ROM[address - 0xd000];
    }
    return this.ram[address];
  }

  /** CPU view write: under ROM goes to RAM, I/O has its effects. */
  poke(address: number, value: number, effects = false): void {
    value &= 0xff;
    if (address === 0) {
      this.portDir = value;
      return;
    }
    if (address === 1) {
      this.portData = value;
      return;
    }
    const bank = this.banking();
    if (address >= 0xd000 && address < 0xe000 && (bank & 3) !== 0 && bank & 4) {
      this.ioWrite(address, value, effects);
      return;
    }
    this.ram[address] = value;
  }

  /** VICE's `rom` bank: BASIC (none here), character glyphs, KERNAL; RAM elsewhere. */
  peekRom(address: number): number {
    if (address >= 0xe000) return KERNAL_IMAGE[address - 0xe000];
    if (address >= 0xd000) return CHAR_ROM[address - 0xd000];
    return this.ram[address];
  }

  /** VICE's `io` bank: I/O at $D000-$DFFF, RAM elsewhere (no cartridge). */
  peekIo(address: number): number {
    return address >= 0xd000 && address < 0xe000 ? this.io(address, false) : this.ram[address];
  }

  pokeIo(address: number, value: number): void {
    if (address >= 0xd000 && address < 0xe000) this.ioWrite(address, value & 0xff, false);
    else this.ram[address] = value & 0xff;
  }

  /** true while a latched VIC-II source ($D019) is enabled in $D01A */
  get vicInterrupting(): boolean {
    return (this.vic[0x19] & this.vic[0x1a] & 0x0f) !== 0;
  }

  rasterLine(): number {
    return Math.floor(this.clock() / CYCLES_PER_LINE) % LINES_PER_FRAME;
  }

  private io(address: number, effects: boolean): number {
    if (address < 0xd400) {
      const reg = address & 0x3f;
      if (reg === 0x11) return (this.vic[0x11] & 0x7f) | ((this.rasterLine() & 0x100) >> 1);
      if (reg === 0x12) return this.rasterLine() & 0xff;
      if (reg === 0x19) return this.vic[0x19] | 0x70 | (this.vicInterrupting ? 0x80 : 0);
      if (reg === 0x1a) return this.vic[0x1a] | 0xf0;
      if (reg === 0x1e || reg === 0x1f) {
        // collision registers clear when read
        const value = this.vic[reg];
        if (effects) this.vic[reg] = 0;
        return value;
      }
      if (reg >= 0x20 && reg <= 0x2e) return this.vic[reg] | 0xf0;
      if (reg > 0x2e) return 0xff;
      return this.vic[reg];
    }
    if (address < 0xd800) return this.sid.read(address & 0x1f, this.clock());
    if (address < 0xdc00) return (this.colorRam[address - 0xd800] & 0x0f) | 0xf0;
    if (address < 0xdd00) {
      const reg = address & 0x0f;
      if (reg === 0x00) return this.cia1.read(reg, effects) & (0xe0 | this.joy[1]);
      if (reg === 0x01) return this.cia1.read(reg, effects) & (0xe0 | this.joy[0]);
      return this.cia1.read(reg, effects);
    }
    if (address < 0xde00) return this.cia2.read(address & 0x0f, effects);
    return 0xff; // open I/O areas 1 and 2 (no cartridge)
  }

  private ioWrite(address: number, value: number, effects: boolean): void {
    if (address < 0xd400) {
      const reg = address & 0x3f;
      if (reg === 0x19) {
        this.vic[0x19] &= ~value & 0x0f; // writing 1 acknowledges
        this.onVicInterrupt();
        return;
      }
      if (reg === 0x1e || reg === 0x1f) return; // collisions are read-only
      if (reg < 0x2f) this.vic[reg] = value;
      if (reg === 0x1a) this.onVicInterrupt();
      if ((reg === 0x11 || reg === 0x12) && this.rasterLine() === (this.vic[0x12] | ((this.vic[0x11] & 0x80) << 1))) {
        // a compare written equal to the current line fires at once, as on the 6569
        this.vic[0x19] |= 0x01;
        this.onVicInterrupt();
      }
      return;
    }
    if (address < 0xd800) {
      this.sid.write(address & 0x1f, value, this.clock());
      return;
    }
    if (address < 0xdc00) {
      this.colorRam[address - 0xd800] = value & 0x0f;
      return;
    }
    if (address < 0xdd00) {
      this.cia1.write(address & 0x0f, value, effects);
      return;
    }
    if (address < 0xde00) this.cia2.write(address & 0x0f, value, effects);
  }

  /** Start of the 16 KiB the VIC-II sees (CIA 2 port A bits 0-1, inverted). */
  vicBank(): number {
    return (3 - (this.cia2.portA() & 3)) * 0x4000;
  }

  /** What the VIC-II reads at `offset` (0-$3FFF) of its bank: glyphs at $1000-$1FFF of banks 0 and 2. */
  vicRead(offset: number): number {
    const bank = (this.cia2.regs[0] | (this.cia2.regs[2] << 8)) === this.portSeen ? this.bankBase : this.newBank();
    if ((offset & 0x3000) === 0x1000 && (bank & 0x4000) === 0) return CHAR_ROM[offset & 0x0fff];
    return this.ram[bank + offset];
  }

  // the bank, cached for the raster's many reads a line (checked against CIA 2's port and direction registers)
  private portSeen = -1;
  private bankBase = 0;
  private newBank(): number {
    this.portSeen = this.cia2.regs[0] | (this.cia2.regs[2] << 8);
    this.bankBase = this.vicBank();
    return this.bankBase;
  }
}
