/**
 * A tiny CPU-less machine behind the real Target contract, so the session
 * rules (lease, owners, generations, boot phases, stepping legs) run in
 * milliseconds, as vscode-mock-debug's runtime does. Its "program" is a table
 * of scripted instructions: each has an address and a size and either falls
 * through, calls, returns, jumps or stores a byte. Like a real emulator, a run
 * command returns once accepted and the stop arrives later as an event;
 * breakpoints, watchpoints and pauses stop it between instructions.
 */
import {
  TargetEmitter,
  TargetFeatures,
  type Address,
  type AddressRange,
  type Register,
  type StopInfo,
  type Target,
  type TargetStatus,
  type WatchSpec,
} from '../../src/core/target.js';
import type { DebugInfo } from '../../src/debuginfo/model.js';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { LineTable } from '../../src/debuginfo/line-table.js';
import type { LaunchConfig } from '../../src/core/launch.js';
import { Session } from '../../src/session/session.js';
import type { ClientSession } from '../../src/session/client-session.js';
import type { SessionEvent } from '../../src/session/types.js';

export type Insn =
  | { at: number; size: number; op: 'nop' }
  | { at: number; size: number; op: 'call' | 'jump'; to: number }
  | { at: number; size: number; op: 'ret' }
  | { at: number; size: number; op: 'store'; address: number; value: number };

/** Instructions per event-loop turn while running, so a pause can get in. */
const SLICE = 256;

type Until = (pc: number, depth: number) => boolean;

export class FakeTarget implements Target {
  readonly info = { kind: 'fake', cpu: 'fake', addressBits: 16, spaces: ['cpu', 'io'] as const };
  readonly features = new TargetFeatures();
  private readonly emitter = new TargetEmitter();
  readonly events = this.emitter;
  readonly ram = new Uint8Array(0x10000);
  private readonly program = new Map<number, Insn>();
  private pc: number;
  private readonly calls: number[] = [];
  private state: 'stopped' | 'running' | 'exited' = 'stopped';
  private pauseAsked = false;
  private nextId = 1;
  private readonly bps = new Map<number, number>();
  private readonly watches = new Map<number, WatchSpec>();
  /** every run-facet command, in order: what a test checks the session's legs against */
  readonly commands: string[] = [];

  constructor(
    program: Insn[],
    readonly entry: number,
  ) {
    for (const insn of program) this.program.set(insn.at, insn);
    this.pc = entry;
  }

  readonly memory = {
    read: async (address: Address, length: number) => this.ram.slice(address.offset, address.offset + length),
    write: async (address: Address, data: Uint8Array) => {
      // 0x0000-0x0FFF is ROM: writes do not stick, as on the real machines
      if (address.offset >= 0x1000) this.ram.set(data, address.offset);
    },
  };

  async status(): Promise<TargetStatus> {
    return { state: this.state, pc: this.pc };
  }

  readonly run = {
    registers: async (): Promise<Register[]> => [
      { name: 'PC', value: this.pc, bits: 16 },
      { name: 'SP', value: 0xff - this.calls.length * 2, bits: 16 },
    ],
    writeRegister: async (name: string, value: number) => {
      if (name === 'PC') this.pc = value;
    },
    resume: async () => this.go('resume', () => false),
    pause: async () => {
      this.commands.push('pause');
      if (this.state === 'running') this.pauseAsked = true;
    },
    stepInstruction: async (count = 1) => {
      let left = count;
      this.go('stepInstruction', () => --left <= 0, 'step');
    },
    stepOver: async () => {
      const depth = this.calls.length;
      this.go('stepOver', (_pc, d) => d <= depth, 'step');
    },
    stepOut: async () => {
      const depth = this.calls.length;
      this.go('stepOut', (_pc, d) => d < depth, 'step');
    },
    stepRange: async (ranges: AddressRange[], mode: 'into' | 'over') => {
      const depth = this.calls.length;
      const inside = (pc: number) => ranges.some(([a, b]) => pc >= a && pc <= b);
      this.go(
        `stepRange ${mode}`,
        (pc, d) => (mode === 'over' && d > depth ? false : !inside(pc) || d < depth),
        'step',
      );
    },
  };

  readonly breakpoints = {
    set: async (address: Address) => {
      const id = this.nextId++;
      this.bps.set(id, address.offset);
      return id;
    },
    clear: async (id: number) => void this.bps.delete(id),
  };

  readonly watch = {
    set: async (spec: WatchSpec) => {
      const id = this.nextId++;
      this.watches.set(id, spec);
      return id;
    },
    clear: async (id: number) => void this.watches.delete(id),
  };

  /** The machine was reset (a test drives what a person would do at the emulator). */
  reset(hard: boolean): void {
    this.pc = this.entry;
    this.calls.length = 0;
    this.emitter.emit({ type: 'reset', hard });
  }

  /** Armed emulator breakpoints (addresses), to check owners' breakpoints are disarmed. */
  armed(): number[] {
    return [...this.bps.values()];
  }

  async close(): Promise<void> {
    if (this.state === 'exited') return;
    this.state = 'exited';
    this.emitter.emit({ type: 'exited', reason: 'closed' });
  }

  /** Accepts a run command and runs on later turns, as an emulator does. */
  private go(command: string, until: Until, reason: StopInfo['reason'] = 'pause'): void {
    this.commands.push(command);
    if (this.state !== 'stopped') throw new Error(`fake target: ${command} while ${this.state}`);
    this.state = 'running';
    this.pauseAsked = false;
    this.emitter.emit({ type: 'running' });
    setImmediate(() => this.slice(until, reason, true));
  }

  private slice(until: Until, reason: StopInfo['reason'], first: boolean): void {
    if (this.state !== 'running') return;
    for (let i = 0; i < SLICE; i++) {
      if (this.pauseAsked) return this.stop({ reason: 'pause', pc: this.pc });
      const bp = [...this.bps].find(([, at]) => at === this.pc);
      if (bp && !(first && i === 0)) return this.stop({ reason: 'breakpoint', pc: this.pc, breakpointId: bp[0] });
      const hit = this.execute();
      if (hit) return this.stop(hit);
      if (until(this.pc, this.calls.length)) return this.stop({ reason, pc: this.pc });
    }
    setImmediate(() => this.slice(until, reason, false));
  }

  /** One instruction; a watchpoint hit is returned as the stop. */
  private execute(): StopInfo | undefined {
    const insn = this.program.get(this.pc);
    if (!insn) throw new Error(`fake target: no instruction at 0x${this.pc.toString(16)}`);
    const next = insn.at + insn.size;
    switch (insn.op) {
      case 'nop':
        this.pc = next;
        return undefined;
      case 'jump':
        this.pc = insn.to;
        return undefined;
      case 'call':
        this.calls.push(next);
        this.pc = insn.to;
        return undefined;
      case 'ret':
        this.pc = this.calls.pop() ?? this.entry;
        return undefined;
      case 'store': {
        this.ram[insn.address] = insn.value;
        this.pc = next;
        const w = [...this.watches].find(
          ([, s]) =>
            s.kind !== 'read' && insn.address >= s.address.offset && insn.address < s.address.offset + s.length,
        );
        if (!w) return undefined;
        return {
          reason: 'watchpoint',
          pc: next,
          watchpointId: w[0],
          access: { kind: 'write', address: insn.address, value: insn.value, pc: insn.at },
        };
      }
    }
  }

  private stop(stop: StopInfo): void {
    this.state = 'stopped';
    this.emitter.emit({ type: 'stopped', stop });
  }
}

/**
 * The test program, as C would compile it to the fake machine (startup code
 * at 0x0100 jumps to main):
 *
 *   10 int main(void) {          0x1000 nop
 *   11   for (;;) {
 *   12     add();                0x1001 call add
 *   13     counter = 42;         0x1004 store counter
 *   14   }                       0x1007 jump 0x1001
 *   20 void add(void) {          0x2000 nop (prologue)
 *   21   total = 7;              0x2001 store total
 *   22 }                         0x2004 ret
 */
export const COUNTER = 0x3000;
export const TOTAL = 0x3001;
export const POWER_ON = 0x0100;
export const PROGRAM: Insn[] = [
  { at: POWER_ON, size: 3, op: 'jump', to: 0x1000 },
  { at: 0x1000, size: 1, op: 'nop' },
  { at: 0x1001, size: 3, op: 'call', to: 0x2000 },
  { at: 0x1004, size: 3, op: 'store', address: COUNTER, value: 42 },
  { at: 0x1007, size: 3, op: 'jump', to: 0x1001 },
  { at: 0x2000, size: 1, op: 'nop' },
  { at: 0x2001, size: 3, op: 'store', address: TOTAL, value: 7 },
  { at: 0x2004, size: 1, op: 'ret' },
];

export const LINES = { main: 10, call: 12, store: 13, loop: 14, add: 20, addBody: 21, addEnd: 22 };

const u8 = { kind: 'int' as const, size: 1 as const, signed: false, name: 'unsigned char' };

export const DEBUG_INFO: DebugInfo = {
  format: 'fake',
  cpu: 'fake',
  files: ['main.c'],
  lines: LineTable.from([
    { file: 'main.c', line: LINES.main, address: 0x1000 },
    { file: 'main.c', line: LINES.call, address: 0x1001 },
    { file: 'main.c', line: LINES.store, address: 0x1004 },
    { file: 'main.c', line: LINES.loop, address: 0x1007 },
    { file: 'main.c', line: LINES.add, address: 0x2000 },
    { file: 'main.c', line: LINES.addBody, address: 0x2001 },
    { file: 'main.c', line: LINES.addEnd, address: 0x2004 },
  ]),
  functions: [
    { name: 'main', file: 'main.c', start: 0x1000, end: 0x1009, params: [], locals: [] },
    { name: 'add', file: 'main.c', start: 0x2000, end: 0x2004, params: [], locals: [] },
  ],
  globals: [
    { name: 'counter', type: u8, storage: { kind: 'static', address: COUNTER } },
    { name: 'total', type: u8, storage: { kind: 'static', address: TOTAL } },
  ],
  symbols: [],
};

export interface FakeBoot {
  session: Session;
  target: FakeTarget;
  /** the client that started it (holds the lease), like a DAP launch */
  starter: ClientSession;
}

/**
 * A session on the fake machine, booted the way the manager boots one:
 * starting the emulator, the target handed over, running to main, ready.
 */
export async function bootFake(
  opts: { leaseMs?: number; starterHeartbeatMs?: number; clock?: () => number } = {},
): Promise<FakeBoot> {
  const config = { machine: 'fake', emulator: 'fake', program: 'main.bin' } as unknown as LaunchConfig;
  const session = new Session(config, opts.leaseMs ?? 30_000, opts.clock);
  const starter = session.attach('dap', 'VS Code debug session', { heartbeatMs: opts.starterHeartbeatMs });
  starter.claimControl();
  const target = new FakeTarget(PROGRAM, POWER_ON);
  session.setPhase('starting_emulator', 'Starting the fake machine');
  session.attachTarget({ target, index: new DebugIndex(DEBUG_INFO), buildId: 'fake-build' });
  session.setPhase('booting', 'Running to main');
  const stop = await session.runTo(0x1000, 5_000);
  session.announceReady({ ...stop, reason: 'entry' }, 'Stopped at main');
  return { session, target, starter };
}

/** The next session event of `type` (armed now). */
export function nextEvent<T extends SessionEvent['type']>(
  session: Session,
  type: T,
  timeoutMs = 2_000,
): Promise<Extract<SessionEvent, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${type} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = session.onEvent((q) => {
      if (q.event.type !== type) return;
      clearTimeout(timer);
      off();
      resolve(q.event as Extract<SessionEvent, { type: T }>);
    });
  });
}
