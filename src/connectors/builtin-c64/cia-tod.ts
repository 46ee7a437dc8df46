/**
 * A 6526's time-of-day clock as VICE's ciacore models it: BCD tenths,
 * seconds, minutes and 12-hour hours with the PM flag, counted from the
 * 50 Hz power line (PAL) through the divider CRA bit 7 sets (5 ticks a
 * tenth for 50 Hz, 6 for 60 Hz); stopped from reset and while the hours are
 * written, running from a write of the tenths; reading the hours latches
 * the time until the tenths are read; CRB bit 7 writes the alarm instead,
 * and a match raises ICR bit 2.
 */

/** PAL CPU cycles a second and the power line's frequency */
const CYCLES_PER_SECOND = 985248;
const POWER_HZ = 50;

export class CiaTod {
  /** tenths, seconds, minutes, hours (registers 8-11) */
  readonly time = Uint8Array.of(0, 0, 0, 1);
  private readonly alarm = new Uint8Array(4);
  private latch: Uint8Array | undefined;
  private stopped = true;
  private divider = 0;
  /** power ticks since power-on, and the cycle the next one comes at */
  private ticks = 0;
  private nextTick = CYCLES_PER_SECOND / POWER_HZ;

  /** The RESET line: time 1:00:00.0, alarm 0, stopped, no latch (the power-line ticks go on). */
  reset(): void {
    this.time.set([0, 0, 0, 1]);
    this.alarm.fill(0);
    this.latch = undefined;
    this.stopped = true;
    this.divider = 0;
  }

  /** `cra` is control register A (bit 7: 50 Hz input); returns true when the alarm matched. */
  advance(now: number, cra: number): boolean {
    let alarm = false;
    while (now >= this.nextTick) {
      this.ticks++;
      this.nextTick = Math.round(((this.ticks + 1) * CYCLES_PER_SECOND) / POWER_HZ);
      if (this.stopped) continue;
      if (this.divider === (cra & 0x80 ? 4 : 5)) {
        this.divider = 0;
        this.increment();
        if (this.matches()) alarm = true;
      } else this.divider = (this.divider + 1) % 6;
    }
    return alarm;
  }

  read(index: number): number {
    if (index === 3) this.latch = Uint8Array.from(this.time);
    const value = (this.latch ?? this.time)[index];
    if (index === 0) this.latch = undefined;
    return value;
  }

  /** `crb` bit 7 set: the alarm is written. Returns true when the write made the time match the alarm. */
  write(index: number, value: number, crb: number): boolean {
    const masked = index === 3 ? value & 0x9f : index === 0 ? value & 0x0f : value & 0x7f;
    if (crb & 0x80) this.alarm[index] = masked;
    else {
      // hours 12 written with AM/PM flips the flag, as the chip does
      this.time[index] = index === 3 && (masked & 0x1f) === 0x12 ? masked ^ 0x80 : masked;
      if (index === 3) this.stopped = true;
      if (index === 0 && this.stopped) {
        this.stopped = false;
        this.divider = 0;
      }
    }
    return this.matches();
  }

  private matches(): boolean {
    return this.time.every((v, i) => v === this.alarm[i]);
  }

  private increment(): void {
    const t = this.time;
    t[0] = (t[0] + 1) & 0x0f;
    if (t[0] !== 10) return;
    t[0] = 0;
    if (!bcdStep(t, 1, 0x60)) return;
    if (!bcdStep(t, 2, 0x60)) return;
    const hours = t[3] & 0x1f;
    const pm = t[3] & 0x80;
    if (hours === 0x12) t[3] = pm | 0x01;
    else if (hours === 0x09) t[3] = pm | 0x10;
    else t[3] = (hours + 1 === 0x12 ? pm ^ 0x80 : pm) | (hours + 1);
  }
}

/** One BCD step of seconds or minutes; true when it wrapped to 0 (carry into the next). */
function bcdStep(t: Uint8Array, index: number, wrap: number): boolean {
  let low = (t[index] & 0x0f) + 1;
  let high = (t[index] >> 4) & 0x07;
  if (low === 10) {
    low = 0;
    high++;
  }
  const value = (high << 4) | low;
  t[index] = value === wrap ? 0 : value;
  return value === wrap;
}
