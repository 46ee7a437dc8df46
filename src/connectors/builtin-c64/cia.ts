/**
 * The part of a 6526 CIA that C programs and our KERNAL stand-ins rely on:
 * port registers, timer A (continuous or one-shot) with its interrupt, and
 * the interrupt control register. Timer B, the TOD clock and the serial
 * port keep their register values but do not count.
 */
export class Cia {
  readonly regs = new Uint8Array(16);
  private latchA = 0xffff;
  private counterA = 0xffff;
  private runningA = false;
  private oneShotA = false;
  /** interrupt sources that fired (bits 0-4) and the enabled mask */
  private icr = 0;
  private mask = 0;
  /** cycle count the timer was last brought up to date at */
  private last = 0;
  /** called when the interrupt output may have changed (the CPU's line follows it) */
  onChange: () => void = () => undefined;

  constructor() {
    this.regs[0] = 0xff;
    this.regs[1] = 0xff;
  }

  /** true while an enabled source is pending (the CPU's IRQ or NMI line) */
  get interrupting(): boolean {
    return (this.icr & this.mask) !== 0;
  }

  portA(): number {
    return (this.regs[0] | ~this.regs[2]) & 0xff;
  }

  /** Brings timer A up to `now`; sets its interrupt bit on each underflow. */
  advance(now: number): void {
    const elapsed = now - this.last;
    this.last = now;
    if (!this.runningA || elapsed <= 0) return;
    if (elapsed <= this.counterA) {
      this.counterA -= elapsed;
      return;
    }
    this.icr |= 1;
    this.onChange();
    if (this.oneShotA) {
      this.runningA = false;
      this.counterA = this.latchA;
      this.regs[0x0e] &= ~1;
      return;
    }
    const period = this.latchA + 1;
    const rest = (elapsed - this.counterA - 1) % period;
    this.counterA = this.latchA - rest;
  }

  /** Cycles until timer A underflows next (Infinity when stopped). */
  untilUnderflow(): number {
    return this.runningA ? this.counterA + 1 : Infinity;
  }

  read(reg: number, effects: boolean): number {
    switch (reg) {
      case 0x00:
        return this.portA();
      case 0x01:
        return (this.regs[1] | ~this.regs[3]) & 0xff;
      case 0x04:
        return this.counterA & 0xff;
      case 0x05:
        return this.counterA >> 8;
      case 0x0d: {
        const value = (this.interrupting ? 0x80 : 0) | this.icr;
        if (effects) {
          this.icr = 0;
          this.onChange();
        }
        return value;
      }
      default:
        return this.regs[reg];
    }
  }

  write(reg: number, value: number, _effects: boolean): void {
    switch (reg) {
      case 0x04:
        this.latchA = (this.latchA & 0xff00) | value;
        break;
      case 0x05:
        this.latchA = (this.latchA & 0xff) | (value << 8);
        if (!this.runningA) this.counterA = this.latchA;
        break;
      case 0x0d:
        if (value & 0x80) this.mask |= value & 0x1f;
        else this.mask &= ~value & 0x1f;
        this.onChange();
        break;
      case 0x0e:
        this.oneShotA = (value & 0x08) !== 0;
        if (value & 0x10) this.counterA = this.latchA; // force load
        this.runningA = (value & 0x01) !== 0;
        this.regs[reg] = value & ~0x10;
        break;
      default:
        this.regs[reg] = value;
    }
  }

  /** The state the KERNAL's IOINIT leaves: timer A at `latch` cycles, running, its interrupt on. */
  startJiffyTimer(latch: number, now: number): void {
    this.last = now;
    this.write(0x04, latch & 0xff, false);
    this.write(0x05, latch >> 8, false);
    this.write(0x0e, 0x11, false);
    this.write(0x0d, 0x81, false);
  }
}
