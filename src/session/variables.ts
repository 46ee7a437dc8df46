import { RetroError } from '../core/errors.js';
import type { Variable } from '../debuginfo/model.js';
import type { DebugIndex } from '../debuginfo/index.js';
import { decodeValue, sizeOf, typeName } from '../debuginfo/values.js';
import type { Register } from '../core/target.js';
import type { RawFrame } from './unwind/frames.js';
import { registerValue } from './unwind/frames.js';
import type { VariableValue } from './types.js';

export type ReadCpu = (offset: number, length: number) => Promise<Uint8Array>;

/** Bytes a single variable read may fetch: bigger objects are shown truncated. */
const MAX_VARIABLE_BYTES = 4096;

/** Reads C variables of one frame from memory and registers. */
export class VariableReader {
  constructor(
    private readonly index: DebugIndex,
    private readonly read: ReadCpu,
    private readonly regs: Register[],
  ) {}

  async locals(frame: RawFrame): Promise<VariableValue[]> {
    const fn = this.index.functionAt(frame.pc);
    if (!fn) return [];
    const visible = this.index.locals(fn, frame.pc);
    return Promise.all(visible.map((v) => this.value(v, frame)));
  }

  async globals(limit = 256): Promise<VariableValue[]> {
    const globals = this.index.info.globals.slice(0, limit);
    return Promise.all(globals.map((v) => this.value(v)));
  }

  /** `name`, `name.field`, `name[3]`, `name[1].x` — locals of `frame` first, then globals. */
  async evaluate(expression: string, frame?: RawFrame): Promise<VariableValue> {
    const path = parsePath(expression);
    const variable = this.lookup(path.name, frame);
    let value = await this.value(variable, frame);
    for (const step of path.steps) {
      const child = value.children?.find((c) => c.name === step);
      if (!child) {
        throw new RetroError(
          'not_found',
          `"${expression}": ${value.name} (${value.type}) has no member ${step}, or it is past the shown elements.`,
          { expression },
        );
      }
      value = { ...child, name: `${value.name}${step.startsWith('[') ? '' : '.'}${step}` };
    }
    return value;
  }

  private lookup(name: string, frame?: RawFrame): Variable {
    const fn = frame && this.index.functionAt(frame.pc);
    const local = fn ? this.index.locals(fn, frame.pc).find((v) => v.name === name) : undefined;
    const found = local ?? this.index.global(name);
    if (!found) throw new RetroError('not_found', `No variable named "${name}" is visible here.`, { name });
    return found;
  }

  async value(v: Variable, frame?: RawFrame): Promise<VariableValue> {
    const size = Math.min(sizeOf(v.type), MAX_VARIABLE_BYTES);
    const s = v.storage;
    switch (s.kind) {
      case 'static':
        return decodeValue(v.name, v.type, await this.read(s.address, size), { space: 'cpu', offset: s.address });
      case 'frame': {
        const base = frame?.frameRegs[s.register.toUpperCase()];
        if (base === undefined) return unavailable(v, `frame register ${s.register} unknown in this frame`);
        const address = (base + s.offset) & 0xffff;
        return decodeValue(v.name, v.type, await this.read(address, size), { space: 'cpu', offset: address });
      }
      case 'register': {
        if (frame && !frame.registersValid)
          return unavailable(v, `kept in ${s.registers.join(':')}, not recoverable in a calling frame`);
        const bytes = registerBytes(s.registers, this.regs);
        if (!bytes) return unavailable(v, `register ${s.registers.join(':')} not reported by the emulator`);
        return decodeValue(v.name, v.type, bytes.subarray(0, size));
      }
      case 'stack':
        return unavailable(v, 'stack-relative storage without a frame pointer is not supported yet');
      case 'optimized_out':
        return unavailable(v, 'optimized out');
    }
  }
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

function parsePath(expression: string): { name: string; steps: string[] } {
  const text = expression.trim();
  const match = /^([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*|\[\d+\])*)$/.exec(text);
  if (!match) {
    throw new RetroError(
      'bad_request',
      `"${expression}" is not a variable path; use a name with .field and [index] parts.`,
      { expression },
    );
  }
  const steps = match[2].match(/\.[A-Za-z_]\w*|\[\d+\]/g) ?? [];
  return { name: match[1], steps: steps.map((s) => (s.startsWith('.') ? s.slice(1) : s)) };
}
