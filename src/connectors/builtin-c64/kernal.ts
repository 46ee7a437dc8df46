/**
 * High-level stand-ins for the KERNAL routines that cc65's c64 runtime calls
 * (found by running cc65 conio and stdio programs on this machine: an
 * unknown routine JAMs, see kernal-image.ts). Each runs in JS at the
 * routine's address and returns like an RTS. Devices: keyboard (0),
 * screen (3) and a host-folder drive as device 8 (kernal-files.ts); tape,
 * RS-232 and other serial devices answer "device not present".
 */
import { FLAG_C, FLAG_I, FLAG_Z, type Cpu6502 } from '../../cpu/6502/cpu6502.js';
import type { C64Bus } from './c64-bus.js';
import type { HostFolderDrive } from './host-drive.js';
import { KernalFiles, STATUS } from './kernal-files.js';
import { K, TRAP_ADDRESSES } from './kernal-image.js';
import { CHARCOLOR, HIBASE, type ScreenEditor, Z } from './screen-editor.js';

export interface KernalHost {
  cpu: Cpu6502;
  bus: C64Bus;
  editor: ScreenEditor;
  /** say something on the emulator's log (shown to the user as output) */
  log(text: string): void;
}

const KEY_BUFFER = 0x0277;
const KEY_COUNT = 0xc6;
const KEY_MAX = 0x0289;
const JIFFY = 0xa0;
/** the cursor: blink switch (0 = blinking), countdown, phase, the glyph and colour under it */
const BLNSW = 0xcc;
const BLNCT = 0xcd;
const GDBLN = 0xce;
const BLNON = 0xcf;
const GDCOL = 0x0287;
/** jiffies between cursor phases */
const BLINK_JIFFIES = 20;
/** 24 hours of jiffies: the clock wraps to 0 there */
const JIFFIES_PER_DAY = 0x4f1a01;
/** what one stand-in call costs in cycles after its JSR (some work, an RTS) */
const CALL_CYCLES = 24;
/**
 * The clock calls cc65's clock() makes in every pass of a self-timing loop,
 * counted from the 901227-03 KERNAL after the JSR: RDTIM is JMP $F6DD, SEI,
 * three loads and SETTIM's SEI, three stores, CLI, RTS (33); SETTIM 22.
 */
const RDTIM_CYCLES = 33;
const SETTIM_CYCLES = 22;
/**
 * What the real default IRQ handler ($EA31 to its JMP $EA81) costs, measured
 * by running the 901227-03 KERNAL on this CPU core with no key down: 161
 * cycles, 7 more while the cursor blinks, 106 more when it flips.
 */
const IRQ_HANDLER_CYCLES = 161;
const IRQ_BLINK_CYCLES = 7;
const IRQ_BLINK_FLIP_CYCLES = 106;

export class Kernal {
  private readonly files: KernalFiles;
  /** the line CHRIN hands out, after RETURN was typed */
  private inputLine: number[] = [];
  private readonly handlers = new Map<number, () => void>();

  constructor(private readonly host: KernalHost) {
    const h = this.handlers;
    const { cpu, bus, editor } = host;
    const ram = bus.ram;
    this.files = new KernalFiles({
      cpu,
      ram,
      bus: { peek: (a) => bus.peek(a), poke: (a, v) => bus.poke(a, v) },
      keyboardLine: () => this.keyboardLine(),
      getKey: () => this.getKey(),
      print: (code) => editor.print(code),
      log: (text) => host.log(text),
      rts: () => this.rts(),
    });
    h.set(0xff81, () => {
      this.screenInit();
      this.rts();
    }); // CINT
    h.set(0xff84, () => this.rts()); // IOINIT
    h.set(0xff87, () => this.rts()); // RAMTAS
    h.set(0xff8a, () => {
      this.setVectors();
      this.rts();
    }); // RESTOR
    h.set(0xff8d, () => this.unsupported('VECTOR'));
    h.set(0xff90, () => this.rts()); // SETMSG
    h.set(0xff9f, () => this.rts()); // SCNKEY: keys arrive through the buffer
    h.set(0xffb7, () => {
      cpu.a = this.nz(ram[STATUS]);
      this.rts();
    }); // READST
    h.set(0xffba, () => {
      ram[0xb8] = cpu.a;
      ram[0xba] = cpu.x;
      ram[0xb9] = cpu.y;
      this.rts();
    }); // SETLFS
    h.set(0xffbd, () => {
      ram[0xb7] = cpu.a;
      ram[0xbb] = cpu.x;
      ram[0xbc] = cpu.y;
      this.rts();
    }); // SETNAM
    const files = this.files;
    h.set(0xffc0, () => files.open());
    h.set(0xffc3, () => files.close());
    h.set(0xffc6, () => files.chkin());
    h.set(0xffc9, () => files.chkout());
    h.set(0xffcc, () => files.clrchnCall());
    h.set(0xffcf, () => files.chrin());
    h.set(0xffd2, () => files.chrout());
    h.set(0xffd5, () => files.load());
    h.set(0xffd8, () => files.save());
    // the serial bus, called directly by cc65's disk-command code
    const serial = (fn: () => void) => () => {
      fn();
      cpu.p &= ~FLAG_C;
      this.rts();
    };
    h.set(
      0xffb1,
      serial(() => files.listen(cpu.a)),
    ); // LISTEN
    h.set(
      0xff93,
      serial(() => files.second(cpu.a)),
    ); // SECOND
    h.set(
      0xffa8,
      serial(() => files.ciout(cpu.a)),
    ); // CIOUT
    h.set(
      0xffae,
      serial(() => files.unlsn()),
    ); // UNLSN
    h.set(
      0xffb4,
      serial(() => files.talk(cpu.a)),
    ); // TALK
    h.set(
      0xff96,
      serial(() => files.tksa(cpu.a)),
    ); // TKSA
    h.set(
      0xffa5,
      serial(() => (cpu.a = files.acptr())),
    ); // ACPTR
    h.set(
      0xffab,
      serial(() => files.untlk()),
    ); // UNTLK
    h.set(0xffa2, () => this.rts()); // SETTMO
    h.set(0xffdb, () => {
      ram[JIFFY] = cpu.y;
      ram[JIFFY + 1] = cpu.x;
      ram[JIFFY + 2] = cpu.a;
      cpu.p &= ~FLAG_I;
      this.rts(SETTIM_CYCLES);
    }); // SETTIM
    h.set(0xffde, () => {
      // the real RDTIM ($F6DD) falls through into SETTIM: it writes the clock back and ends with CLI
      cpu.y = ram[JIFFY];
      cpu.x = ram[JIFFY + 1];
      cpu.a = ram[JIFFY + 2];
      cpu.p &= ~FLAG_I;
      this.rts(RDTIM_CYCLES);
    }); // RDTIM
    h.set(0xffe1, () => {
      cpu.p &= ~FLAG_Z;
      cpu.a = 0xff;
      this.rts();
    }); // STOP: never pressed
    h.set(0xffe4, () => files.getin());
    h.set(0xffe7, () => files.clall());
    h.set(0xffea, () => {
      this.tick();
      this.rts();
    }); // UDTIM
    h.set(0xffed, () => {
      cpu.x = 40;
      cpu.y = 25;
      this.rts();
    }); // SCREEN
    h.set(0xfff0, () => this.plot()); // PLOT
    h.set(K.CLRSCR, () => {
      editor.clear();
      this.rts();
    });
    h.set(K.KBDREAD, () => {
      cpu.a = this.getKey();
      this.ok();
    });
    h.set(K.UPDCRAMPTR, () => {
      editor.updatePointers();
      this.rts();
    });
    h.set(K.IRQ_DEFAULT, () => {
      this.tick();
      cpu.cycles += IRQ_HANDLER_CYCLES + this.blink();
      bus.cia1.read(0x0d, true); // acknowledge timer A, as $EA7E does
      cpu.pc = K.IRQ_EXIT;
    });
    h.set(K.BRK_DEFAULT, () => {
      host.log(
        `BRK at $${(((ram[0x0100 + ((cpu.s + 2) & 0xff)] | (ram[0x0100 + ((cpu.s + 3) & 0xff)] << 8)) - 2) & 0xffff).toString(16)}`,
      );
      this.toReady();
    });
    h.set(K.PROGRAM_END, () => this.toReady());
    h.set(K.RUN_SYS, () => {
      cpu.pc = this.sysAddress;
      cpu.cycles += CALL_CYCLES;
    });
    h.set(K.COLD_START, () => this.coldStart());
    for (const address of TRAP_ADDRESSES)
      if (!h.has(address)) throw new Error(`no stand-in for $${address.toString(16)}`);
  }

  /** Runs the stand-in at `pc`; false when there is none (the JAM byte then stops the CPU). */
  call(pc: number): boolean {
    const handler = this.handlers.get(pc);
    if (!handler) return false;
    handler();
    return true;
  }

  addresses(): number[] {
    return [...this.handlers.keys()];
  }

  /** Power-on: what the real KERNAL leaves behind, as far as C programs can tell. */
  coldStart(): void {
    const { cpu, bus } = this.host;
    const ram = bus.ram;
    // RAMTAS clears $0002-$0101 and $0200-$03FF; the stack page keeps the power-on pattern
    ram.fill(0, 0x0002, 0x0102);
    ram.fill(0, 0x0200, 0x0400);
    bus.portDir = 0x2f;
    bus.portData = 0x37;
    bus.vic.fill(0);
    bus.vic.set([0x1b, 0, 0, 0, 0, 0xc8, 0, 0x14], 0x11); // $D011..$D018: text on, 25 rows, 40 columns, screen $0400, glyphs $1000
    bus.vic[0x20] = 14; // light blue border
    bus.vic[0x21] = 6; // blue background
    bus.cia2.write(0x02, 0x3f, false);
    bus.cia2.write(0x00, 0x97, false); // VIC bank 0
    bus.cia1.startJiffyTimer(0x4025, cpu.cycles); // the KERNAL's PAL value: 60 interrupts a second
    ram[0x2b] = 0x01;
    ram[0x2c] = 0x08; // TXTTAB: BASIC program at $0801
    ram[0x37] = 0x00;
    ram[0x38] = 0xa0; // MEMSIZ
    ram[0x0281] = 0x00;
    ram[0x0282] = 0x08;
    ram[0x0283] = 0x00;
    ram[0x0284] = 0xa0;
    ram[KEY_MAX] = 10;
    ram[BLNSW] = 1;
    ram[BLNCT] = BLINK_JIFFIES;
    this.setVectors();
    this.screenInit();
    this.files.reset();
    this.inputLine = [];
    for (const ch of '\r    **** RETRO DEBUG BUILT-IN C64 ****\r\r 64K RAM, NO BASIC. LOAD A PROGRAM.\r')
      this.host.editor.print(ch.charCodeAt(0));
    this.toReady();
    cpu.s = 0xfb;
  }

  /** Drops a key into the KERNAL's buffer; false when it is full. */
  pushKey(petscii: number): boolean {
    const ram = this.host.bus.ram;
    if (ram[KEY_COUNT] >= Math.min(ram[KEY_MAX] || 10, 10)) return false;
    ram[KEY_BUFFER + ram[KEY_COUNT]] = petscii;
    ram[KEY_COUNT]++;
    return true;
  }

  private screenInit(): void {
    const ram = this.host.bus.ram;
    ram[HIBASE] = 0x04;
    ram[CHARCOLOR] = 14;
    ram[Z.RVS] = 0;
    this.host.editor.clear();
  }

  private setVectors(): void {
    const ram = this.host.bus.ram;
    const set = (at: number, value: number) => {
      ram[at] = value & 0xff;
      ram[at + 1] = value >> 8;
    };
    set(0x0314, K.IRQ_DEFAULT);
    set(0x0316, K.BRK_DEFAULT);
    set(0x0318, K.NMI_EXIT);
  }

  private toReady(): void {
    const { cpu, editor } = this.host;
    // BASIC's message always starts with a carriage return ($A378: CR, LF, "READY.", CR, LF)
    for (const ch of '\rREADY.\r') editor.print(ch.charCodeAt(0));
    this.host.bus.portData = 0x37;
    cpu.pc = K.IDLE;
    cpu.cycles += CALL_CYCLES;
  }

  private getKey(): number {
    const ram = this.host.bus.ram;
    const count = ram[KEY_COUNT];
    if (count === 0) return 0;
    const key = ram[KEY_BUFFER];
    ram.copyWithin(KEY_BUFFER, KEY_BUFFER + 1, KEY_BUFFER + count);
    ram[KEY_COUNT] = count - 1;
    return key;
  }

  /** Attaches a serial device (8: the host-folder drive) or detaches it. */
  attachDrive(device: number, drive: HostFolderDrive | undefined): void {
    this.files.attach(device, drive);
  }

  drive(device: number): HostFolderDrive | undefined {
    return this.files.drive(device);
  }

  /**
   * The screen editor's line input: echo keys until RETURN, then hand the
   * line out a byte a call. The cursor blinks while it waits, and RETURN is
   * not echoed (the real editor prints it only when input or output is not
   * the keyboard/screen pair), so the cursor stays after the typed text.
   */
  private keyboardLine(): number | undefined {
    const { cpu, bus, editor } = this.host;
    const ram = bus.ram;
    while (this.inputLine.length === 0) {
      const key = this.getKey();
      if (key === 0) {
        ram[BLNSW] = 0;
        cpu.cycles += CALL_CYCLES;
        return undefined; // wait: run on at this address
      }
      ram[BLNSW] = 1;
      this.cursorOff();
      if (key === 0x0d) {
        this.inputLine = [...this.typed, 0x0d];
        this.typed = [];
        break;
      }
      editor.print(key);
      if (key === 0x14) this.typed.pop();
      else this.typed.push(key);
    }
    return this.inputLine.shift()!;
  }

  private typed: number[] = [];
  /** where RUN_SYS jumps: the program's SYS address */
  sysAddress: number = K.IDLE;

  /** The IRQ's cursor blink ($EA34): every 20 jiffies while BLNSW is 0 the cell under the cursor flips. Returns its extra cycles. */
  private blink(): number {
    const ram = this.host.bus.ram;
    if (ram[BLNSW] !== 0) return 0;
    if (--ram[BLNCT] !== 0) return IRQ_BLINK_CYCLES;
    ram[BLNCT] = BLINK_JIFFIES;
    const screen = (ram[Z.SCREEN_PTR] | (ram[Z.SCREEN_PTR + 1] << 8)) + ram[Z.CURS_X];
    const colour = screen - (ram[HIBASE] << 8);
    if (ram[BLNON]) {
      ram[BLNON] = 0;
      this.cell(screen, colour, ram[screen] ^ 0x80, ram[GDCOL]);
      return IRQ_BLINK_CYCLES + IRQ_BLINK_FLIP_CYCLES;
    }
    ram[BLNON] = 1;
    ram[GDBLN] = ram[screen];
    ram[GDCOL] = this.host.bus.colorRam[colour & 0x3ff] & 0x0f;
    this.cell(screen, colour, ram[GDBLN] ^ 0x80, ram[CHARCOLOR]);
    return IRQ_BLINK_CYCLES + IRQ_BLINK_FLIP_CYCLES;
  }

  /** Takes the cursor off the screen if it is showing (the editor does so before it handles a key). */
  private cursorOff(): void {
    const ram = this.host.bus.ram;
    if (!ram[BLNON]) return;
    ram[BLNON] = 0;
    const screen = (ram[Z.SCREEN_PTR] | (ram[Z.SCREEN_PTR + 1] << 8)) + ram[Z.CURS_X];
    this.cell(screen, screen - (ram[HIBASE] << 8), ram[GDBLN], ram[GDCOL]);
  }

  private cell(screen: number, colour: number, code: number, colourValue: number): void {
    this.host.bus.ram[screen & 0xffff] = code;
    this.host.bus.colorRam[colour & 0x3ff] = colourValue & 0x0f;
  }

  private plot(): void {
    const { cpu, bus, editor } = this.host;
    if (cpu.p & FLAG_C) {
      cpu.x = bus.ram[Z.CURS_Y];
      cpu.y = bus.ram[Z.CURS_X];
    } else editor.plot(cpu.x, cpu.y);
    this.rts();
  }

  private tick(): void {
    const ram = this.host.bus.ram;
    let t = (ram[JIFFY] << 16) | (ram[JIFFY + 1] << 8) | ram[JIFFY + 2];
    t = (t + 1) % JIFFIES_PER_DAY;
    ram[JIFFY] = t >> 16;
    ram[JIFFY + 1] = (t >> 8) & 0xff;
    ram[JIFFY + 2] = t & 0xff;
  }

  private unsupported(name: string): void {
    this.host.log(`The built-in C64 does not provide the KERNAL routine ${name}; it returned with carry set.`);
    this.host.cpu.p |= FLAG_C;
    this.rts();
  }

  private ok(): void {
    this.host.cpu.p &= ~FLAG_C;
    this.rts();
  }

  private nz(v: number): number {
    const cpu = this.host.cpu;
    cpu.p = (cpu.p & ~(FLAG_Z | 0x80)) | (v & 0x80) | (v ? 0 : FLAG_Z);
    return v;
  }

  private rts(cycles = CALL_CYCLES): void {
    const cpu = this.host.cpu;
    const lo = cpu.pull();
    cpu.pc = ((lo | (cpu.pull() << 8)) + 1) & 0xffff;
    cpu.cycles += cycles;
  }
}
