/**
 * The part of a 6526 CIA that C programs and our KERNAL stand-ins rely on:
 * port registers, timers A and B (continuous or one-shot, force load; B
 * counting cycles or timer A's underflows), the time-of-day clock with its
 * alarm (cia-tod.ts), and the interrupt control register whose output is
 * CIA 1's IRQ and CIA 2's NMI. The serial port and the CNT pin are not
 * modelled (B counting CNT edges holds).
 */
import { CiaTod } from './cia-tod.js';

/** One 16-bit down counter with its latch. */
class CiaTimer {
  latch = 0xffff;
  counter = 0xffff;
  running = false;
  oneShot = false;

  /** Counts `ticks` down; returns the underflows (a one-shot timer stops at its first, reloaded). */
  run(ticks: number): number {
    if (!this.running || ticks <= 0) return 0;
    if (ticks <= this.counter) {
      this.counter -= ticks;
      return 0;
    }
    if (this.oneShot) {
      this.running = false;
      this.counter = this.latch;
      return 1;
    }
    const period = this.latch + 1;
    const rest = ticks - this.counter - 1;
    this.counter = this.latch - (rest % period);
    return 1 + Math.floor(rest / period);
  }

  /** CRA/CRB bits 0 (start), 3 (one-shot), 4 (force load). */
  control(value: number): void {
    this.oneShot = (value & 0x08) !== 0;
    if (value & 0x10) this.counter = this.latch;
    this.running = (value & 0x01) !== 0;
  }

  writeLatch(high: boolean, value: number): void {
    this.latch = high ? (this.latch & 0xff) | (value << 8) : (this.latch & 0xff00) | value;
    if (high && !this.running) this.counter = this.latch;
  }
}

export class Cia {
  readonly regs = new Uint8Array(16);
  private a = new CiaTimer();
  private b = new CiaTimer();
  private readonly tod = new CiaTod();
  /** interrupt sources that fired (bits 0-4) and the enabled mask */
  private icr = 0;
  private mask = 0;
  /** cycle count the timers were last brought up to date at */
  private last = 0;
  /** called when the interrupt output may have changed (the CPU's line follows it) */
  onChange: () => void = () => undefined;

  constructor() {
    this.regs[0] = 0xff;
    this.regs[1] = 0xff;
  }

  /**
   * The RESET line (VICE's ciacore_reset): registers cleared, ports inputs,
   * both timers stopped with their latches at $FFFF, no interrupt enabled or
   * pending, the TOD stopped at 1:00:00.0 AM (the power line keeps ticking).
   */
  reset(now: number): void {
    this.regs.fill(0);
    this.regs[0] = 0xff;
    this.regs[1] = 0xff;
    this.a = new CiaTimer();
    this.b = new CiaTimer();
    this.tod.advance(now, 0);
    this.tod.reset();
    this.icr = 0;
    this.mask = 0;
    this.last = now;
    this.onChange();
  }

  /** true while an enabled source is pending (the CPU's IRQ or NMI line) */
  get interrupting(): boolean {
    return (this.icr & this.mask) !== 0;
  }

  portA(): number {
    return (this.regs[0] | ~this.regs[2]) & 0xff;
  }

  /** Brings the timers and the clock up to `now`; sets the interrupt bits of what happened. */
  advance(now: number): void {
    const elapsed = now - this.last;
    this.last = now;
    if (elapsed <= 0) return;
    let fired = 0;
    const underflowsA = this.a.run(elapsed);
    if (underflowsA) fired |= 0x01;
    if (underflowsA && this.a.oneShot) this.regs[0x0e] &= ~1;
    const crb = this.regs[0x0f];
    const bTicks = crb & 0x40 ? underflowsA : crb & 0x20 ? 0 : elapsed;
    if (this.b.run(bTicks)) {
      fired |= 0x02;
      if (this.b.oneShot) this.regs[0x0f] &= ~1;
    }
    if (this.tod.advance(now, this.regs[0x0e])) fired |= 0x04;
    if (fired) this.raise(fired);
  }

  /** Cycles until a timer counting cycles underflows next (Infinity when none runs). */
  untilUnderflow(): number {
    const a = this.a.running ? this.a.counter + 1 : Infinity;
    const b = this.b.running && !(this.regs[0x0f] & 0x60) ? this.b.counter + 1 : Infinity;
    return Math.min(a, b);
  }

  read(reg: number, effects: boolean): number {
    switch (reg) {
      case 0x00:
        return this.portA();
      case 0x01:
        return (this.regs[1] | ~this.regs[3]) & 0xff;
      case 0x04:
        return this.a.counter & 0xff;
      case 0x05:
        return this.a.counter >> 8;
      case 0x06:
        return this.b.counter & 0xff;
      case 0x07:
        return this.b.counter >> 8;
      case 0x08:
      case 0x09:
      case 0x0a:
      case 0x0b:
        return effects ? this.tod.read(reg - 8) : this.tod.time[reg - 8];
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
      case 0x05:
        this.a.writeLatch(reg === 0x05, value);
        break;
      case 0x06:
      case 0x07:
        this.b.writeLatch(reg === 0x07, value);
        break;
      case 0x08:
      case 0x09:
      case 0x0a:
      case 0x0b:
        if (this.tod.write(reg - 8, value, this.regs[0x0f])) this.raise(0x04);
        break;
      case 0x0d:
        if (value & 0x80) this.mask |= value & 0x1f;
        else this.mask &= ~value & 0x1f;
        this.onChange();
        break;
      case 0x0e:
      case 0x0f:
        (reg === 0x0e ? this.a : this.b).control(value);
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

  private raise(sources: number): void {
    this.icr |= sources;
    this.onChange();
  }
}
