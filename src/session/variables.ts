import { notFound } from '../core/errors.js';
import type { CType, FunctionInfo, Variable } from '../debuginfo/model.js';
import type { DebugIndex } from '../debuginfo/index.js';
import { decodeValue, sizeOf, typeName } from '../debuginfo/values.js';
import { evaluateExpression, scopeAt } from '../debuginfo/expr/index.js';
import type { ExprMachine, ExprScope, Location } from '../debuginfo/expr/index.js';
import { resultValue } from './expr-value.js';
import type { Register } from '../core/target.js';
import type { RawFrame } from './unwind/frames.js';
import { registerValue } from './unwind/frames.js';
import type { VariableValue } from './types.js';
import type { OwnerCheck } from './z80-owners.js';

export type ReadCpu = (offset: number, length: number) => Promise<Uint8Array>;

/** Bytes a single variable read may fetch: bigger objects are shown truncated. */
const MAX_VARIABLE_BYTES = 4096;

/** Reads C variables and evaluates C expressions of one frame from memory and registers. */
export class VariableReader {
  /** each function's check once per reader (a reader lives for one stop) */
  private readonly checks = new Map<FunctionInfo, Promise<OwnerCheck>>();

  constructor(
    private readonly index: DebugIndex,
    private readonly read: ReadCpu,
    private readonly regs: Register[],
    /** which variable each register holds where (register-owners.ts); without it the debug info's word is taken */
    private readonly owners?: (fn: FunctionInfo) => Promise<OwnerCheck>,
  ) {}

  async locals(frame: RawFrame): Promise<VariableValue[]> {
    const fn = this.index.functionAt(frame.pc);
    if (!fn) return [];
    const visible = this.index.locals(fn, frame.pc);
    return Promise.all(visible.map((v) => this.value(v, frame)));
  }

  /** Each global on its own: one that cannot be read is listed with the reason, the others still are. */
  async globals(limit = 256): Promise<VariableValue[]> {
    const globals = this.index.info.globals.slice(0, limit);
    return Promise.all(
      globals.map((v) => this.value(v).catch((err: Error) => unavailable(v, `not readable: ${err.message}`))),
    );
  }

  /** A C expression (see debuginfo/expr) in `frame`'s scope: its locals first, then statics and globals. */
  async evaluate(expression: string, frame?: RawFrame): Promise<VariableValue> {
    const scope = this.scope(frame);
    const result = await evaluateExpression(expression, scope, this.machine(frame));
    return resultValue(expression.trim(), result);
  }

  scope(frame?: RawFrame): ExprScope {
    return scopeAt(this.index, frame?.pc, { registers: this.regs.map((r) => ({ name: r.name, bits: r.bits })) });
  }

  /** Memory, registers and variable places as seen from `frame`. */
  machine(frame?: RawFrame): ExprMachine {
    return {
      read: (address, length) => this.read(address, length),
      register: async (name) => {
        const value = registerValue(this.regs, name);
        if (value === undefined) throw notFound(`The target reports no register ${name}.`);
        return value;
      },
      locate: async (v) => this.locate(v, frame),
    };
  }

  /** Where `v` is in `frame`: an address, register bytes, or why it cannot be read. */
  async locate(v: Variable, frame?: RawFrame): Promise<Location> {
    const s = v.storage;
    switch (s.kind) {
      case 'static':
        return { kind: 'memory', address: s.address };
      case 'frame': {
        const base = frame?.frameRegs[s.register.toUpperCase()];
        if (base === undefined)
          return { kind: 'unavailable', reason: `frame register ${s.register} unknown in this frame` };
        if (v.lines && frame?.localsDepth !== undefined && -s.offset > frame.localsDepth)
          return { kind: 'unavailable', reason: 'not available here: its block has not allocated it yet' };
        return { kind: 'memory', address: (base + s.offset) & 0xffff };
      }
      case 'register': {
        // a caller's frame: what it saved around its call, then whether that was this variable
        const saved = frame && !frame.registersValid ? savedAcrossCall(s.registers, frame) : undefined;
        if (saved?.kind === 'unavailable') return saved;
        const fn = frame && this.owners && this.index.functionAt(frame.pc);
        const owned = fn ? (await this.ownerCheck(fn))(v, frame.pc, !!saved) : { registers: s.registers };
        if ('reason' in owned) return { kind: 'unavailable', reason: owned.reason };
        if (saved)
          return owned.registers.join() === s.registers.join() ? saved : savedAcrossCall(owned.registers, frame!);
        const registers = owned.registers;
        const bytes = registerBytes(registers, this.regs);
        if (!bytes)
          return { kind: 'unavailable', reason: `register ${registers.join(':')} not reported by the emulator` };
        return { kind: 'value', bytes };
      }
      case 'zp-register':
        return this.regvar(v, s.address, frame);
      case 'stack':
        return { kind: 'unavailable', reason: 'stack-relative storage without a frame pointer is not supported yet' };
      case 'optimized_out':
        return { kind: 'unavailable', reason: 'optimized out' };
    }
  }

  /** A cc65 register variable: where the frame's unwinding placed its bytes (cc65-regvars.ts), or why not there. */
  private async regvar(v: Variable, address: number, frame?: RawFrame): Promise<Location> {
    const place = frame?.regvars?.get(v.name);
    if (!place) return { kind: 'memory', address };
    if ('reason' in place) return { kind: 'unavailable', reason: place.reason };
    const [first] = place.addresses;
    if (place.addresses.every((a, k) => a === first + k)) return { kind: 'memory', address: first };
    // bytes saved by different frames: read one by one (not writable as one object)
    const bytes = await Promise.all(place.addresses.map(async (a) => (await this.read(a, 1))[0]));
    return { kind: 'value', bytes: Uint8Array.from(bytes) };
  }

  private ownerCheck(fn: FunctionInfo): Promise<OwnerCheck> {
    let check = this.checks.get(fn);
    if (!check) this.checks.set(fn, (check = this.owners!(fn)));
    return check;
  }

  /** An array larger than MAX_VARIABLE_BYTES shows its first elements and says so; other large objects say why not. */
  async value(v: Variable, frame?: RawFrame): Promise<VariableValue> {
    const full = sizeOf(v.type);
    const type = full > MAX_VARIABLE_BYTES ? truncatedArray(v.type) : v.type;
    if (!type)
      return unavailable(v, `${full} bytes, more than the ${MAX_VARIABLE_BYTES} a variable shows; read it as memory`);
    const size = sizeOf(type);
    const loc = await this.locate(v, frame);
    if (loc.kind === 'unavailable') return unavailable(v, loc.reason);
    const value =
      loc.kind === 'value'
        ? decodeValue(v.name, type, loc.bytes.subarray(0, size))
        : decodeValue(v.name, type, await this.read(loc.address, size), { space: 'cpu', offset: loc.address });
    if (type === v.type || v.type.kind !== 'array' || type.kind !== 'array') return value;
    return {
      ...value,
      type: typeName(v.type),
      value: `${value.value} (the first ${type.length} of ${v.type.length} elements)`,
    };
  }
}

/** The leading part of an array that fits MAX_VARIABLE_BYTES; undefined for anything else (or elements too large). */
function truncatedArray(type: CType): CType | undefined {
  if (type.kind !== 'array') return undefined;
  const length = Math.floor(MAX_VARIABLE_BYTES / Math.max(1, sizeOf(type.of)));
  return length ? { ...type, length } : undefined;
}

function unavailable(v: Variable, why: string): VariableValue {
  return { name: v.name, type: typeName(v.type), value: `<${why}>` };
}

/** Register-allocated values: SDCC lists the registers least significant byte first. */
function registerBytes(names: string[], regs: Register[]): Uint8Array | undefined {
  const bytes: number[] = [];
  for (const name of names) {
    const value = byteRegister(name, regs);
    if (value === undefined) return undefined;
    bytes.push(value);
  }
  return Uint8Array.from(bytes);
}

/** A calling frame's register variable: readable only where the caller saved it around its call (unwind/z80-saved). */
function savedAcrossCall(registers: string[], frame: RawFrame): Location {
  const bytes = registers.map((r) => frame.saved?.[r.toUpperCase()]);
  if (bytes.every((b) => b !== undefined)) return { kind: 'value', bytes: Uint8Array.from(bytes) };
  return {
    kind: 'unavailable',
    reason: `not saved: kept in ${registers.join(':')}, which this frame's call does not preserve and the code does not save for after it`,
  };
}

const HALVES: Record<string, [string, 'lo' | 'hi']> = {
  IXL: ['IX', 'lo'],
  IXH: ['IX', 'hi'],
  IYL: ['IY', 'lo'],
  IYH: ['IY', 'hi'],
};

function byteRegister(name: string, regs: Register[]): number | undefined {
  const upper = name.toUpperCase();
  const direct = registerValue(regs, upper);
  if (direct !== undefined) return direct & 0xff;
  const half = HALVES[upper];
  if (!half) return undefined;
  const whole = registerValue(regs, half[0]);
  if (whole === undefined) return undefined;
  return half[1] === 'lo' ? whole & 0xff : (whole >> 8) & 0xff;
}
