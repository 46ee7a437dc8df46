/**
 * NMOS 6502 core: every documented opcode, NMOS decimal mode with its exact
 * flag behaviour, base cycle counts plus page-cross and branch penalties.
 * Undocumented opcodes stop the core as a JAM: programs built by cc65 never
 * use them, and a silent guess would hide a bug.
 */
import { BASE_CYCLES, PAGE_PENALTY } from './cycles.js';
import { LENGTH, MODE, Mode } from './opcodes.js';
import type { InstructionObserver } from '../../core/headless.js';

export type { InstructionObserver };
export { instructionLength, MODE, OP_JSR, OP_RTI, OP_RTS } from './opcodes.js';

// module-local copies: bundlers turn imported bindings into getters, too slow for every instruction
const CYCLES = BASE_CYCLES;
const PENALTY = PAGE_PENALTY;

export interface Bus6502 {
  read(address: number): number;
  write(address: number, value: number): void;
}

export const FLAG_C = 0x01;
export const FLAG_Z = 0x02;
export const FLAG_I = 0x04;
export const FLAG_D = 0x08;
export const FLAG_B = 0x10;
export const FLAG_U = 0x20;
export const FLAG_V = 0x40;
export const FLAG_N = 0x80;

/** Why `run` returned. */
export type RunExit = 'budget' | 'breakpoint' | 'jam' | 'trap' | 'halt';

export class Cpu6502 {
  a = 0;
  x = 0;
  y = 0;
  s = 0xfd;
  pc = 0;
  /** status without B; bit 5 always reads 1 */
  p = FLAG_I | FLAG_U;
  cycles = 0;
  /** true after a JAM (an undocumented opcode); pc stays on it */
  jammed = false;
  /** set by an interrupt source; taken between instructions when I is clear */
  irqLine = false;
  private nmiPending = false;
  /** set from inside a bus access or trap to end `run` after the current instruction */
  haltRequested = false;
  /**
   * Called before each instruction `run` executes (after any interrupt entry), with its pc: coverage,
   * profiling and history recording hook here. Unset, the loop pays one branch per instruction.
   */
  onInstruction?: InstructionObserver;

  constructor(private readonly bus: Bus6502) {}

  reset(): void {
    this.s = 0xfd;
    this.p = FLAG_I | FLAG_U;
    this.jammed = false;
    this.nmiPending = false; // an NMI latched before the reset is not taken after it
    this.pc = this.read16(0xfffc);
  }

  nmi(): void {
    this.nmiPending = true;
  }

  /**
   * Executes instructions until `budget` cycles have passed or something stops
   * it. `breaks[pc] & 1` (a breakpoint) or `& 4` (an internal stop) stops
   * before executing at pc — except at the first instruction when
   * `skipFirstBreak` (resuming from a stop there); `breaks[pc] & 2` asks `onTrap`, which may run a
   * high-level routine (moving pc, charging cycles) and returns true to end
   * the run there.
   */
  run(budget: number, breaks?: Uint8Array, onTrap?: (pc: number) => boolean, skipFirstBreak = false): RunExit {
    const end = this.cycles + budget;
    let first = skipFirstBreak;
    this.haltRequested = false;
    const observe = this.onInstruction;
    while (this.cycles < end) {
      if (this.nmiPending) {
        this.nmiPending = false;
        this.interrupt(0xfffa, false);
      } else if (this.irqLine && !(this.p & FLAG_I)) this.interrupt(0xfffe, false);
      if (breaks) {
        const flag = breaks[this.pc];
        if (flag) {
          if (flag & 5 && !first) return 'breakpoint';
          if (flag & 2 && onTrap) {
            // the routine ran in JS and moved pc (or spun, charging cycles)
            first = false;
            if (onTrap(this.pc)) return 'trap';
            continue;
          }
        }
      }
      first = false;
      if (observe) observe(this.pc, this.cycles, this.s);
      if (!this.step()) return 'jam';
      if (this.haltRequested) return 'halt';
    }
    return 'budget';
  }

  /** One instruction; false on a JAM/undocumented opcode (pc stays on it). */
  step(): boolean {
    const bus = this.bus;
    const op = bus.read(this.pc);
    const pc1 = (this.pc + 1) & 0xffff;
    let addr = 0;
    let cross = 0;
    // Addressing: compute the effective address for memory operands.
    switch (MODES[op]) {
      case M_IMP:
        this.pc = pc1;
        break;
      case M_IMM:
        addr = pc1;
        this.pc = (pc1 + 1) & 0xffff;
        break;
      case M_ZP:
        addr = bus.read(pc1);
        this.pc = (pc1 + 1) & 0xffff;
        break;
      case M_ZPX:
        addr = (bus.read(pc1) + this.x) & 0xff;
        this.pc = (pc1 + 1) & 0xffff;
        break;
      case M_ZPY:
        addr = (bus.read(pc1) + this.y) & 0xff;
        this.pc = (pc1 + 1) & 0xffff;
        break;
      case M_ABS:
        addr = bus.read(pc1) | (bus.read((pc1 + 1) & 0xffff) << 8);
        this.pc = (pc1 + 2) & 0xffff;
        break;
      case M_ABX: {
        const base = bus.read(pc1) | (bus.read((pc1 + 1) & 0xffff) << 8);
        addr = (base + this.x) & 0xffff;
        cross = (base ^ addr) & 0xff00 ? 1 : 0;
        this.pc = (pc1 + 2) & 0xffff;
        break;
      }
      case M_ABY: {
        const base = bus.read(pc1) | (bus.read((pc1 + 1) & 0xffff) << 8);
        addr = (base + this.y) & 0xffff;
        cross = (base ^ addr) & 0xff00 ? 1 : 0;
        this.pc = (pc1 + 2) & 0xffff;
        break;
      }
      case M_IZX: {
        const zp = (bus.read(pc1) + this.x) & 0xff;
        addr = bus.read(zp) | (bus.read((zp + 1) & 0xff) << 8);
        this.pc = (pc1 + 1) & 0xffff;
        break;
      }
      case M_IZY: {
        const zp = bus.read(pc1);
        const base = bus.read(zp) | (bus.read((zp + 1) & 0xff) << 8);
        addr = (base + this.y) & 0xffff;
        cross = (base ^ addr) & 0xff00 ? 1 : 0;
        this.pc = (pc1 + 1) & 0xffff;
        break;
      }
      case M_IND: {
        const ptr = bus.read(pc1) | (bus.read((pc1 + 1) & 0xffff) << 8);
        // NMOS bug: the high byte comes from the same page
        addr = bus.read(ptr) | (bus.read((ptr & 0xff00) | ((ptr + 1) & 0xff)) << 8);
        this.pc = (pc1 + 2) & 0xffff;
        break;
      }
      case M_REL:
        addr = pc1;
        this.pc = (pc1 + 1) & 0xffff;
        break;
      default:
        return this.jam();
    }
    this.cycles += CYCLES[op] + (cross & PENALTY[op]);

    // prettier-ignore
    switch (op) {
      // loads and stores
      case 0xa9: case 0xa5: case 0xb5: case 0xad: case 0xbd: case 0xb9: case 0xa1: case 0xb1:
        this.a = this.nz(bus.read(addr));
        break;
      case 0xa2: case 0xa6: case 0xb6: case 0xae: case 0xbe: this.x = this.nz(bus.read(addr)); break;
      case 0xa0: case 0xa4: case 0xb4: case 0xac: case 0xbc: this.y = this.nz(bus.read(addr)); break;
      case 0x85: case 0x95: case 0x8d: case 0x9d: case 0x99: case 0x81: case 0x91: bus.write(addr, this.a); break;
      case 0x86: case 0x96: case 0x8e: bus.write(addr, this.x); break;
      case 0x84: case 0x94: case 0x8c: bus.write(addr, this.y); break;
      // transfers
      case 0xaa: this.x = this.nz(this.a); break;
      case 0xa8: this.y = this.nz(this.a); break;
      case 0x8a: this.a = this.nz(this.x); break;
      case 0x98: this.a = this.nz(this.y); break;
      case 0xba: this.x = this.nz(this.s); break;
      case 0x9a: this.s = this.x; break;
      // stack
      case 0x48: this.push(this.a); break;
      case 0x08: this.push(this.p | FLAG_B | FLAG_U); break;
      case 0x68: this.a = this.nz(this.pull()); break;
      case 0x28: this.p = (this.pull() & ~FLAG_B) | FLAG_U; break;
      // logic and arithmetic
      case 0x29: case 0x25: case 0x35: case 0x2d: case 0x3d: case 0x39: case 0x21: case 0x31:
        this.a = this.nz(this.a & bus.read(addr));
        break;
      case 0x09: case 0x05: case 0x15: case 0x0d: case 0x1d: case 0x19: case 0x01: case 0x11:
        this.a = this.nz(this.a | bus.read(addr));
        break;
      case 0x49: case 0x45: case 0x55: case 0x4d: case 0x5d: case 0x59: case 0x41: case 0x51:
        this.a = this.nz(this.a ^ bus.read(addr));
        break;
      case 0x69: case 0x65: case 0x75: case 0x6d: case 0x7d: case 0x79: case 0x61: case 0x71:
        this.adc(bus.read(addr));
        break;
      case 0xe9: case 0xe5: case 0xf5: case 0xed: case 0xfd: case 0xf9: case 0xe1: case 0xf1:
        this.sbc(bus.read(addr));
        break;
      case 0xc9: case 0xc5: case 0xd5: case 0xcd: case 0xdd: case 0xd9: case 0xc1: case 0xd1:
        this.compare(this.a, bus.read(addr));
        break;
      case 0xe0: case 0xe4: case 0xec: this.compare(this.x, bus.read(addr)); break;
      case 0xc0: case 0xc4: case 0xcc: this.compare(this.y, bus.read(addr)); break;
      case 0x24: case 0x2c: {
        const v = bus.read(addr);
        this.p = (this.p & ~(FLAG_N | FLAG_V | FLAG_Z)) | (v & (FLAG_N | FLAG_V)) | (this.a & v ? 0 : FLAG_Z);
        break;
      }
      // increments
      case 0xe6: case 0xf6: case 0xee: case 0xfe: bus.write(addr, this.nz((bus.read(addr) + 1) & 0xff)); break;
      case 0xc6: case 0xd6: case 0xce: case 0xde: bus.write(addr, this.nz((bus.read(addr) - 1) & 0xff)); break;
      case 0xe8: this.x = this.nz((this.x + 1) & 0xff); break;
      case 0xca: this.x = this.nz((this.x - 1) & 0xff); break;
      case 0xc8: this.y = this.nz((this.y + 1) & 0xff); break;
      case 0x88: this.y = this.nz((this.y - 1) & 0xff); break;
      // shifts
      case 0x0a: this.a = this.asl(this.a); break;
      case 0x06: case 0x16: case 0x0e: case 0x1e: bus.write(addr, this.asl(bus.read(addr))); break;
      case 0x4a: this.a = this.lsr(this.a); break;
      case 0x46: case 0x56: case 0x4e: case 0x5e: bus.write(addr, this.lsr(bus.read(addr))); break;
      case 0x2a: this.a = this.rol(this.a); break;
      case 0x26: case 0x36: case 0x2e: case 0x3e: bus.write(addr, this.rol(bus.read(addr))); break;
      case 0x6a: this.a = this.ror(this.a); break;
      case 0x66: case 0x76: case 0x6e: case 0x7e: bus.write(addr, this.ror(bus.read(addr))); break;
      // jumps and calls
      case 0x4c: case 0x6c: this.pc = addr; break;
      case 0x20: {
        const ret = (this.pc - 1) & 0xffff;
        this.push(ret >> 8);
        this.push(ret & 0xff);
        this.pc = addr;
        break;
      }
      case 0x60: {
        const lo = this.pull();
        this.pc = ((lo | (this.pull() << 8)) + 1) & 0xffff;
        break;
      }
      case 0x40: {
        this.p = (this.pull() & ~FLAG_B) | FLAG_U;
        const lo = this.pull();
        this.pc = lo | (this.pull() << 8);
        break;
      }
      case 0x00: {
        const ret = (this.pc + 1) & 0xffff; // BRK skips a padding byte
        this.push(ret >> 8);
        this.push(ret & 0xff);
        this.push(this.p | FLAG_B | FLAG_U);
        this.p |= FLAG_I;
        this.pc = this.read16(0xfffe);
        break;
      }
      // branches
      case 0x10: this.branch(addr, !(this.p & FLAG_N)); break;
      case 0x30: this.branch(addr, !!(this.p & FLAG_N)); break;
      case 0x50: this.branch(addr, !(this.p & FLAG_V)); break;
      case 0x70: this.branch(addr, !!(this.p & FLAG_V)); break;
      case 0x90: this.branch(addr, !(this.p & FLAG_C)); break;
      case 0xb0: this.branch(addr, !!(this.p & FLAG_C)); break;
      case 0xd0: this.branch(addr, !(this.p & FLAG_Z)); break;
      case 0xf0: this.branch(addr, !!(this.p & FLAG_Z)); break;
      // flags
      case 0x18: this.p &= ~FLAG_C; break;
      case 0x38: this.p |= FLAG_C; break;
      case 0x58: this.p &= ~FLAG_I; break;
      case 0x78: this.p |= FLAG_I; break;
      case 0xb8: this.p &= ~FLAG_V; break;
      case 0xd8: this.p &= ~FLAG_D; break;
      case 0xf8: this.p |= FLAG_D; break;
      case 0xea:
        break;
      default:
        this.pc = (this.pc - (LENGTH[MODES[op]] ?? 1)) & 0xffff;
        return this.jam();
    }
    return true;
  }

  read16(address: number): number {
    return this.bus.read(address) | (this.bus.read((address + 1) & 0xffff) << 8);
  }

  push(v: number): void {
    this.bus.write(0x100 | this.s, v & 0xff);
    this.s = (this.s - 1) & 0xff;
  }

  pull(): number {
    this.s = (this.s + 1) & 0xff;
    return this.bus.read(0x100 | this.s);
  }

  private jam(): false {
    this.jammed = true;
    return false;
  }

  private interrupt(vector: number, brk: boolean): void {
    this.push(this.pc >> 8);
    this.push(this.pc & 0xff);
    this.push((this.p & ~FLAG_B) | FLAG_U | (brk ? FLAG_B : 0));
    this.p |= FLAG_I;
    this.pc = this.read16(vector);
    this.cycles += 7;
  }

  private nz(v: number): number {
    this.p = (this.p & ~(FLAG_N | FLAG_Z)) | (v & FLAG_N) | (v ? 0 : FLAG_Z);
    return v;
  }

  private branch(operandAddr: number, taken: boolean): void {
    if (!taken) return;
    const off = this.bus.read(operandAddr);
    const target = (this.pc + (off < 0x80 ? off : off - 0x100)) & 0xffff;
    this.cycles += (target ^ this.pc) & 0xff00 ? 2 : 1;
    this.pc = target;
  }

  private compare(reg: number, v: number): void {
    const r = reg - v;
    this.p = (this.p & ~(FLAG_N | FLAG_Z | FLAG_C)) | (r & FLAG_N) | (r & 0xff ? 0 : FLAG_Z) | (r >= 0 ? FLAG_C : 0);
  }

  private asl(v: number): number {
    this.p = (this.p & ~FLAG_C) | (v >> 7);
    return this.nz((v << 1) & 0xff);
  }

  private lsr(v: number): number {
    this.p = (this.p & ~FLAG_C) | (v & 1);
    return this.nz(v >> 1);
  }

  private rol(v: number): number {
    const r = ((v << 1) | (this.p & FLAG_C)) & 0xff;
    this.p = (this.p & ~FLAG_C) | (v >> 7);
    return this.nz(r);
  }

  private ror(v: number): number {
    const r = (v >> 1) | ((this.p & FLAG_C) << 7);
    this.p = (this.p & ~FLAG_C) | (v & 1);
    return this.nz(r);
  }

  private adc(v: number): void {
    const a = this.a;
    const c = this.p & FLAG_C;
    const binary = a + v + c;
    if (!(this.p & FLAG_D)) {
      const overflow = ~(a ^ v) & (a ^ binary) & 0x80 ? FLAG_V : 0;
      this.p = (this.p & ~(FLAG_C | FLAG_V)) | (binary > 0xff ? FLAG_C : 0) | overflow;
      this.a = this.nz(binary & 0xff);
      return;
    }
    // NMOS decimal: Z from the binary sum; N and V from the half-adjusted sum.
    let lo = (a & 0x0f) + (v & 0x0f) + c;
    if (lo >= 0x0a) lo = ((lo + 0x06) & 0x0f) + 0x10;
    let sum = (a & 0xf0) + (v & 0xf0) + lo;
    const n = sum & 0x80;
    const overflow = ~(a ^ v) & (a ^ sum) & 0x80 ? FLAG_V : 0;
    if (sum >= 0xa0) sum += 0x60;
    this.p =
      (this.p & ~(FLAG_C | FLAG_V | FLAG_N | FLAG_Z)) |
      (sum >= 0x100 ? FLAG_C : 0) |
      overflow |
      n |
      (binary & 0xff ? 0 : FLAG_Z);
    this.a = sum & 0xff;
  }

  private sbc(v: number): void {
    const a = this.a;
    const borrow = 1 - (this.p & FLAG_C);
    const binary = a - v - borrow;
    // NMOS decimal: every flag comes from the binary subtraction.
    const overflow = (a ^ v) & (a ^ binary) & 0x80 ? FLAG_V : 0;
    this.p = (this.p & ~(FLAG_C | FLAG_V)) | (binary >= 0 ? FLAG_C : 0) | overflow;
    this.nz(binary & 0xff);
    if (!(this.p & FLAG_D)) {
      this.a = binary & 0xff;
      return;
    }
    let lo = (a & 0x0f) - (v & 0x0f) - borrow;
    if (lo < 0) lo = ((lo - 0x06) & 0x0f) - 0x10;
    let r = (a & 0xf0) - (v & 0xf0) + lo;
    if (r < 0) r -= 0x60;
    this.a = r & 0xff;
  }
}

// module-local copies of the modes, for the same reason as CYCLES
const M_IMP = Mode.IMP,
  M_IMM = Mode.IMM,
  M_ZP = Mode.ZP,
  M_ZPX = Mode.ZPX,
  M_ZPY = Mode.ZPY,
  M_ABS = Mode.ABS,
  M_ABX = Mode.ABX,
  M_ABY = Mode.ABY,
  M_IZX = Mode.IZX,
  M_IZY = Mode.IZY,
  M_IND = Mode.IND,
  M_REL = Mode.REL;
const MODES = MODE;
