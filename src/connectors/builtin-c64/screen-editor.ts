/**
 * The KERNAL screen editor's output side, as a stand-in: prints PETSCII at
 * the cursor and keeps the cursor where the real KERNAL keeps it in zero
 * page, because cc65's conio reads and writes those locations directly
 * (CURS_X $D3, CURS_Y $D6, SCREEN_PTR $D1/$D2, CRAM_PTR $F3/$F4, CHARCOLOR
 * $0286, RVS $C7, HIBASE $0288). Lines are 40 columns; the KERNAL's linked
 * 80-column logical lines are not modelled.
 */
import { petsciiToScreenCode } from '../../machines/c64/petscii.js';

export const COLS = 40;
export const ROWS = 25;
export const Z = { CURS_X: 0xd3, CURS_Y: 0xd6, SCREEN_PTR: 0xd1, CRAM_PTR: 0xf3, RVS: 0xc7, QUOTE: 0xd4 } as const;
export const CHARCOLOR = 0x0286;
export const HIBASE = 0x0288;

/** PETSCII colour control codes → VIC-II colour numbers */
const COLOUR_CODES = new Map<number, number>([
  [0x90, 0],
  [0x05, 1],
  [0x1c, 2],
  [0x9f, 3],
  [0x9c, 4],
  [0x1e, 5],
  [0x1f, 6],
  [0x9e, 7],
  [0x81, 8],
  [0x95, 9],
  [0x96, 10],
  [0x97, 11],
  [0x98, 12],
  [0x99, 13],
  [0x9a, 14],
  [0x9b, 15],
]);

export interface ScreenMemory {
  ram: Uint8Array;
  colorRam: Uint8Array;
  vic: Uint8Array;
}

export class ScreenEditor {
  constructor(private readonly m: ScreenMemory) {}

  private get base(): number {
    return this.m.ram[HIBASE] << 8;
  }

  /** Moves the cursor and sets the line pointers as the KERNAL's PLOT does. */
  plot(row: number, col: number): void {
    const ram = this.m.ram;
    ram[Z.CURS_Y] = Math.min(row, ROWS - 1);
    ram[Z.CURS_X] = Math.min(col, COLS - 1);
    this.updatePointers();
  }

  /** $D1/$D2 and $F3/$F4 point at the start of the cursor's line (screen and colour RAM). */
  updatePointers(): void {
    const ram = this.m.ram;
    const line = this.base + ram[Z.CURS_Y] * COLS;
    ram[Z.SCREEN_PTR] = line & 0xff;
    ram[Z.SCREEN_PTR + 1] = line >> 8;
    const colour = 0xd800 + ram[Z.CURS_Y] * COLS;
    ram[Z.CRAM_PTR] = colour & 0xff;
    ram[Z.CRAM_PTR + 1] = colour >> 8;
  }

  clear(): void {
    const base = this.base;
    this.m.ram.fill(0x20, base, base + COLS * ROWS);
    this.m.colorRam.fill(this.m.ram[CHARCOLOR] & 0x0f, 0, COLS * ROWS);
    this.plot(0, 0);
  }

  /** CHROUT to the screen: control codes act, printable codes appear at the cursor. */
  print(code: number): void {
    const ram = this.m.ram;
    const colour = COLOUR_CODES.get(code);
    if (colour !== undefined) {
      ram[CHARCOLOR] = colour;
      return;
    }
    switch (code) {
      case 0x0d:
      case 0x8d:
        ram[Z.RVS] = 0;
        this.newline();
        return;
      case 0x0a:
        return;
      case 0x93:
        this.clear();
        return;
      case 0x13:
        this.plot(0, 0);
        return;
      case 0x11:
        this.down();
        return;
      case 0x91:
        if (ram[Z.CURS_Y] > 0) this.plot(ram[Z.CURS_Y] - 1, ram[Z.CURS_X]);
        return;
      case 0x1d:
        this.advance();
        return;
      case 0x9d:
        this.back();
        return;
      case 0x12:
        ram[Z.RVS] = 0x80;
        return;
      case 0x92:
        ram[Z.RVS] = 0;
        return;
      case 0x0e:
        this.m.vic[0x18] |= 0x02;
        return; // lower/upper case glyphs
      case 0x8e:
        this.m.vic[0x18] &= ~0x02;
        return; // upper case/graphics glyphs
      case 0x14:
        this.delete();
        return;
    }
    const screen = petsciiToScreenCode(code);
    if (screen === undefined) return; // other control codes have no visible effect
    this.put(screen | ram[Z.RVS]);
  }

  /** Puts a screen code at the cursor with the current colour and moves on. */
  put(screenCode: number): void {
    const ram = this.m.ram;
    const offset = ram[Z.CURS_Y] * COLS + ram[Z.CURS_X];
    ram[this.base + offset] = screenCode;
    this.m.colorRam[offset] = ram[CHARCOLOR] & 0x0f;
    this.advance();
  }

  private advance(): void {
    const ram = this.m.ram;
    if (ram[Z.CURS_X] < COLS - 1) {
      ram[Z.CURS_X]++;
      return;
    }
    this.newline();
  }

  private back(): void {
    const ram = this.m.ram;
    if (ram[Z.CURS_X] > 0) ram[Z.CURS_X]--;
    else if (ram[Z.CURS_Y] > 0) this.plot(ram[Z.CURS_Y] - 1, COLS - 1);
  }

  private delete(): void {
    const ram = this.m.ram;
    if (ram[Z.CURS_X] === 0 && ram[Z.CURS_Y] === 0) return;
    this.back();
    const offset = ram[Z.CURS_Y] * COLS + ram[Z.CURS_X];
    ram[this.base + offset] = 0x20;
  }

  private newline(): void {
    this.m.ram[Z.CURS_X] = 0;
    this.down();
  }

  private down(): void {
    const ram = this.m.ram;
    if (ram[Z.CURS_Y] < ROWS - 1) {
      this.plot(ram[Z.CURS_Y] + 1, ram[Z.CURS_X]);
      return;
    }
    this.scroll();
    this.updatePointers();
  }

  private scroll(): void {
    const base = this.base;
    const ram = this.m.ram;
    ram.copyWithin(base, base + COLS, base + COLS * ROWS);
    ram.fill(0x20, base + COLS * (ROWS - 1), base + COLS * ROWS);
    this.m.colorRam.copyWithin(0, COLS, COLS * ROWS);
    this.m.colorRam.fill(ram[CHARCOLOR] & 0x0f, COLS * (ROWS - 1), COLS * ROWS);
  }

  /** The text of one row as screen codes. */
  row(row: number): Uint8Array {
    const start = this.base + row * COLS;
    return this.m.ram.slice(start, start + COLS);
  }
}
