/**
 * What a program reads back from the SID: voice 3's oscillator ($D41B) and
 * envelope ($D41C), modelled after reSID (which VICE runs): a 24-bit phase
 * accumulator stepped by the frequency each cycle, the triangle, sawtooth,
 * pulse and 23-bit noise waveforms (combined ones ANDed, an approximation;
 * reSID's noise details such as the writeback on waveform switches are left
 * out, so noise bytes differ from x64sc's in single bits), the test bit; the
 * ADSR envelope with reSID's rate periods and the exponential decay divider
 * (its delay bug is left out). Sound is not produced; the other registers
 * keep what was written (reads give 0).
 */

/** cycles per envelope step for the 16 attack/decay/release settings (reSID's rate_counter_period) */
const RATES = [9, 32, 63, 95, 149, 220, 267, 313, 392, 977, 1954, 3126, 3907, 11720, 19532, 31251];
/** reSID 1.0's (VICE's) reset state of the noise register and the accumulator (x64sc reads $55 from a sawtooth never clocked) */
const NOISE_RESET = 0x7fffff;
const ACCUMULATOR_RESET = 0x555555;

type EnvelopeState = 'attack' | 'decay' | 'release';

export class SidVoice3 {
  private readonly regs = new Uint8Array(0x20);
  private accumulator = ACCUMULATOR_RESET;
  private noise = NOISE_RESET;
  private envelope = 0;
  private state: EnvelopeState = 'release';
  private rateCounter = 0;
  private last = 0;

  /** The RESET line: registers 0, oscillator and noise register at their reset state, envelope 0 in release. */
  reset(now: number): void {
    this.regs.fill(0);
    this.accumulator = ACCUMULATOR_RESET;
    this.noise = NOISE_RESET;
    this.envelope = 0;
    this.state = 'release';
    this.rateCounter = 0;
    this.last = now;
  }

  write(reg: number, value: number, now: number): void {
    this.advance(now);
    const before = this.regs[0x12];
    this.regs[reg] = value;
    if (reg !== 0x12) return;
    if (value & 0x08) {
      this.accumulator = 0;
      this.noise = NOISE_RESET;
    }
    if (value & 1 && !(before & 1)) this.state = 'attack';
    else if (!(value & 1) && before & 1) this.state = 'release';
  }

  read(reg: number, now: number): number {
    if (reg === 0x1b || reg === 0x1c) this.advance(now);
    if (reg === 0x1b) return this.oscillator();
    if (reg === 0x1c) return this.envelope;
    if (reg === 0x19 || reg === 0x1a) return 0xff; // paddles: nothing connected
    return 0;
  }

  private advance(now: number): void {
    const elapsed = now - this.last;
    this.last = now;
    if (elapsed <= 0) return;
    this.runOscillator(elapsed);
    this.runEnvelope(elapsed);
  }

  private runOscillator(cycles: number): void {
    if (this.regs[0x12] & 0x08) return; // test bit: held at 0
    const frequency = this.regs[0x0e] | (this.regs[0x0f] << 8);
    const from = this.accumulator;
    const to = from + frequency * cycles;
    // the noise register is clocked each time accumulator bit 19 rises
    const clocks = Math.floor((to - 0x80000) / 0x100000) - Math.floor((from - 0x80000) / 0x100000);
    for (let i = 0; i < Math.min(clocks, 0x7fffff); i++) {
      const bit = ((this.noise >> 22) ^ (this.noise >> 17)) & 1;
      this.noise = ((this.noise << 1) | bit) & 0x7fffff;
    }
    this.accumulator = to % 0x1000000;
  }

  private oscillator(): number {
    const control = this.regs[0x12];
    const acc = this.accumulator;
    let out = 0xff;
    let any = false;
    const pick = (bit: number, value: number) => {
      if (!(control & bit)) return;
      out &= value;
      any = true;
    };
    pick(0x10, ((acc & 0x800000 ? ~acc : acc) >> 15) & 0xff);
    pick(0x20, acc >> 16);
    pick(0x40, acc >> 12 >= (this.regs[0x10] | ((this.regs[0x11] & 0x0f) << 8)) ? 0xff : 0);
    pick(0x80, noiseOutput(this.noise));
    return any ? out : 0;
  }

  private runEnvelope(cycles: number): void {
    let left = cycles;
    while (left > 0) {
      if (this.state === 'attack' && this.envelope === 0xff) this.state = 'decay';
      const sustain = (this.regs[0x14] >> 4) * 0x11;
      if (this.state === 'decay' && this.envelope <= sustain) return;
      if (this.state === 'release' && this.envelope === 0) return;
      const setting =
        this.state === 'attack'
          ? this.regs[0x13] >> 4
          : this.state === 'decay'
            ? this.regs[0x13] & 15
            : this.regs[0x14] & 15;
      const period = RATES[setting] * (this.state === 'attack' ? 1 : exponentialDivider(this.envelope));
      const need = period - this.rateCounter;
      if (left < need) {
        this.rateCounter += left;
        return;
      }
      left -= need;
      this.rateCounter = 0;
      this.envelope += this.state === 'attack' ? 1 : -1;
    }
  }
}

/** reSID's exponential counter period for the envelope level (decay and release slow down as it falls). */
function exponentialDivider(level: number): number {
  return level >= 0x5d ? 1 : level >= 0x36 ? 2 : level >= 0x1a ? 4 : level >= 0x0e ? 8 : level >= 0x06 ? 16 : 30;
}

/** The 8 bits of the noise register the waveform output takes: 20, 18, 14, 11, 9, 5, 2, 0. */
function noiseOutput(r: number): number {
  return (
    (((r >> 20) & 1) << 7) |
    (((r >> 18) & 1) << 6) |
    (((r >> 14) & 1) << 5) |
    (((r >> 11) & 1) << 4) |
    (((r >> 9) & 1) << 3) |
    (((r >> 5) & 1) << 2) |
    (((r >> 2) & 1) << 1) |
    (r & 1)
  );
}
