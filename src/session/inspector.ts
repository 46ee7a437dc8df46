import { badRequest, unsupported, notFound, badDebugInfo } from '../core/errors.js';
import type { DebugIndex } from '../debuginfo/index.js';
import type { Register, Target } from '../core/target.js';
import type { SourcePaths } from './source-paths.js';
import type { LvalueLocation, ScopeName, SourceLocation, StackFrameInfo, VariableValue } from './types.js';
import type { RawFrame, Unwinder } from './unwind/frames.js';
import { registerValue } from './unwind/frames.js';
import { unwindZ80Sdcc } from './unwind/z80-sdcc.js';
import { unwind6502Cc65 } from './unwind/6502-cc65.js';
import { VariableReader, type ReadCpu } from './variables.js';
import { RegisterOwners } from './register-owners.js';
import { ReadReplay } from './read-replay.js';
import { compileExpression, locateLvalue, type ExprMachine } from '../debuginfo/expr/index.js';
import { typeName } from '../debuginfo/values.js';
import { planAssignment, type Assignment } from './assign.js';
import { decodeFlags, flagsRegister } from '../cpu/flags.js';

/** The flags register's bits as rows under it. */
function flagRows(cpu: string, register: string, value: number): VariableValue[] {
  return decodeFlags(cpu, register, value).map((f) => ({
    name: f.name,
    type: `flag (bit ${f.bit})`,
    value: f.set ? '1' : '0',
    numeric: f.set ? 1 : 0,
  }));
}

// the 6502 walk finds JSR return addresses on the hardware stack; assembly listings simply have no C stack pointer
const UNWINDERS: Record<string, Unwinder> = {
  'z80/sdcc-cdb': unwindZ80Sdcc,
  '6502/cc65-dbg': unwind6502Cc65,
  '6502/acme-report': unwind6502Cc65,
  '6502/64tass-list': unwind6502Cc65,
};

/**
 * Read-only views of a stopped machine in C terms: locations, the call
 * stack, variables. Frames are cached until the machine runs again.
 */
export class Inspector {
  private cached?: Promise<{ frames: RawFrame[]; regs: Register[] }>;
  private readonly replay = new ReadReplay();
  private readonly readMemory: ReadCpu = (offset, length) => this.readCpu(offset, length);
  private readonly owners?: RegisterOwners;

  constructor(
    private readonly target: Target,
    private readonly index: DebugIndex | undefined,
    private readonly paths: SourcePaths,
    /** the run facet's registers, refused by the session when the target has none */
    private readonly registers: () => Promise<Register[]>,
  ) {
    if (index && RegisterOwners.applies(index)) this.owners = new RegisterOwners(index, paths);
  }

  invalidate(): void {
    this.cached = undefined;
  }

  /** Whether pc is in a function's frame set-up, before its first body line (where Step Into lands). */
  inPrologue(pc: number): boolean {
    const fn = this.index?.functionAt(pc);
    return !!fn && pc >= fn.start && pc < this.index!.bodyStart(fn);
  }

  /** `outer`: pc is a return address, so the calling line is the one before it. */
  location(pc: number, outer = false): SourceLocation | undefined {
    const line = this.index?.lineAt(outer ? pc - 1 : pc);
    if (!line) return undefined;
    return {
      file: line.file,
      path: this.paths.resolve(line.file),
      line: line.line,
      function: this.index?.functionAt(pc)?.name,
    };
  }

  async backtrace(): Promise<StackFrameInfo[]> {
    const { frames } = await this.frames();
    return frames.map((f, i) => ({
      index: i,
      pc: f.pc,
      function:
        this.index?.functionAt(f.pc)?.name ??
        this.index?.symbolCovering(f.pc) ??
        `0x${f.pc.toString(16).padStart(4, '0')}`,
      location: this.location(f.pc, i > 0),
    }));
  }

  async variables(scope: ScopeName, frameIndex = 0): Promise<VariableValue[]> {
    const { frames, regs } = await this.frames();
    if (scope === 'registers') {
      const flags = flagsRegister(
        this.target.info.cpu,
        regs.map((r) => r.name),
      );
      return regs.map((r) => {
        const row: VariableValue = {
          name: r.name,
          type: `${r.bits}-bit register`,
          value: `0x${r.value
            .toString(16)
            .toUpperCase()
            .padStart(Math.ceil(r.bits / 4), '0')}`,
          numeric: r.value,
        };
        if (r.name.toUpperCase() === flags) row.children = flagRows(this.target.info.cpu, flags, r.value);
        return row;
      });
    }
    const reader = this.reader(regs);
    if (scope === 'globals') return reader.globals();
    return reader.locals(this.frame(frames, frameIndex));
  }

  async evaluate(expression: string, frameIndex = 0): Promise<VariableValue> {
    const { frames, regs } = await this.frames();
    const frame = this.frame(frames, frameIndex);
    // a bare register name only when no C variable of that name is visible there (`$x` is always the register)
    const register = registerValue(regs, expression.trim());
    if (register !== undefined && !this.index?.global(expression.trim()) && !this.localAt(frame, expression.trim())) {
      return {
        name: expression.trim(),
        type: 'register',
        value: `0x${register.toString(16).toUpperCase()}`,
        numeric: register,
      };
    }
    return this.reader(regs).evaluate(expression, frame);
  }

  private localAt(frame: RawFrame, name: string): boolean {
    const fn = this.index?.functionAt(frame.pc);
    return !!fn && !!this.index?.locals(fn, frame.pc).some((v) => v.name === name);
  }

  /** Where and what to write for `expression = value` in a frame (assign.ts). */
  async assignment(expression: string, value: string, frameIndex = 0): Promise<Assignment> {
    const { frames, regs } = await this.frames();
    const frame = this.frame(frames, frameIndex);
    const reader = this.reader(regs);
    const scope = reader.scope(frame);
    const plan = await planAssignment(
      this.index!,
      scope,
      reader.machine(frame),
      expression,
      value,
      frame.registersValid,
    );
    // a register variable's register may hold another variable here: reading it first refuses that with the reason
    if ('registers' in plan) await reader.evaluate(expression, frame);
    return plan;
  }

  /** The memory object a C lvalue names in a frame (data breakpoints): its address, size and C type. */
  async locate(expression: string, frameIndex = 0): Promise<LvalueLocation> {
    const { frames, regs } = await this.frames();
    const frame = this.frame(frames, frameIndex);
    const reader = this.reader(regs);
    const scope = reader.scope(frame);
    const where = await locateLvalue(compileExpression(expression, scope), reader.machine(frame), scope);
    const what = `\`${expression.trim()}\``;
    if (where.registers)
      throw unsupported(`${what} lives in registers ${where.registers.join(':')}; only memory can be watched.`);
    if (!where.size) throw badRequest(`${what} is ${typeName(where.type)}, which takes no bytes to watch.`);
    return { address: where.address!, length: where.size, type: typeName(where.type), ctype: where.type };
  }

  /** The C expression machine of a frame: its memory, registers and where its variables live. */
  async exprMachine(frameIndex = 0): Promise<ExprMachine> {
    const { frames, regs } = await this.frames();
    return this.machineOf(this.frame(frames, frameIndex), regs);
  }

  /**
   * The innermost frame's machine for a breakpoint condition, as few round
   * trips as it can be: memory read directly; the registers and frame 0
   * (never the rest of the stack) only once a register or a local is needed;
   * the same bytes once; at `place` (a stop's address and breakpoints) the
   * last decision's reads asked for again at once (read-replay.ts).
   */
  conditionMachine(place?: string): ExprMachine {
    const replayed = place === undefined ? this.readMemory : this.replay.begin(place, this.readMemory);
    let inner: Promise<ExprMachine> | undefined;
    const innermost = () => (inner ??= this.innermost(replayed));
    // the CPU stands still while the condition is decided: `c == 1 || c == 2` reads c once
    const reads = new Map<string, Promise<Uint8Array>>();
    const read = (offset: number, length: number) => {
      const key = `${offset}:${length}`;
      let bytes = reads.get(key);
      if (!bytes) reads.set(key, (bytes = replayed(offset, length)));
      return bytes;
    };
    return {
      read,
      register: async (name) => (await innermost()).register(name),
      locate: async (v) =>
        v.storage.kind === 'static' ? { kind: 'memory', address: v.storage.address } : (await innermost()).locate(v),
    };
  }

  private async innermost(read: ReadCpu): Promise<ExprMachine> {
    if (this.cached) return this.exprMachine(0);
    const regs = await this.registers();
    return this.machineOf((await this.unwindFrom(regs, 1, read))[0], regs, read);
  }

  private machineOf(frame: RawFrame, regs: Register[], read = this.readMemory): ExprMachine {
    if (this.index) return this.reader(regs, read).machine(frame);
    return {
      read,
      register: async (name) => {
        const value = registerValue(regs, name);
        if (value === undefined) throw notFound(`The target reports no register ${name}.`);
        return value;
      },
      locate: async () => ({ kind: 'unavailable', reason: 'there is no debug info' }),
    };
  }

  private reader(regs: Register[], read = this.readMemory): VariableReader {
    if (!this.index)
      throw badDebugInfo('This session has no debug info, so there are no C variables; load a program with its .cdb.');
    const owners = this.owners;
    return new VariableReader(this.index, read, regs, owners && ((fn) => owners.check(fn, read)));
  }

  private frame(frames: RawFrame[], index: number): RawFrame {
    const frame = frames[index];
    if (!frame)
      throw notFound(`There is no frame ${index}; the stack has ${frames.length}.`, {
        frame: index,
      });
    return frame;
  }

  private frames(): Promise<{ frames: RawFrame[]; regs: Register[] }> {
    this.cached ??= this.unwind().catch((err) => {
      this.cached = undefined;
      throw err;
    });
    return this.cached;
  }

  private async unwind(): Promise<{ frames: RawFrame[]; regs: Register[] }> {
    const regs = await this.registers();
    return { frames: await this.unwindFrom(regs), regs };
  }

  /** The call stack from these registers, at most `depth` frames. */
  private async unwindFrom(regs: Register[], depth?: number, read = this.readMemory): Promise<RawFrame[]> {
    const pc = registerValue(regs, 'PC') ?? 0;
    const single: RawFrame[] = [{ pc, sp: registerValue(regs, 'SP') ?? 0, frameRegs: {}, registersValid: true }];
    const unwinder = this.index && UNWINDERS[`${this.index.info.cpu}/${this.index.info.format}`];
    if (!unwinder || !this.index) return single;
    return unwinder(regs, this.index, read, depth);
  }

  /** Stack and frame reads wrap at the top of the CPU's address space, as the CPU's own do. */
  private async readCpu(offset: number, length: number): Promise<Uint8Array> {
    const size = 2 ** this.target.info.addressBits;
    const start = ((offset % size) + size) % size;
    if (start + length <= size) return this.target.memory.read({ space: 'cpu', offset: start }, length);
    const first = await this.target.memory.read({ space: 'cpu', offset: start }, size - start);
    const rest = await this.target.memory.read({ space: 'cpu', offset: 0 }, length - first.length);
    return Uint8Array.from([...first, ...rest]);
  }
}
