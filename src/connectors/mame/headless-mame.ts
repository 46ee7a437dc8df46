/**
 * MAME as a HeadlessMachine (unit tests, coverage and the profiler on MAME's
 * Z80 machines: spectrum's ROM programs, the Sprinter's DSS .EXE). One MAME
 * process per run with the program; starting the same program again puts
 * the CPU back at its entry (headless-entry.ts) instead of restarting MAME. Cycles are the
 * debugger's `totalcycles`, MAME's own count for the CPU. MAME has no cycle
 * breakpoint, so a cycle limit is watched by polling while it runs: a timeout
 * stops a little past the limit (the count reported is the real one).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { internalError } from '../../core/errors.js';
import type { HeadlessMachine, HeadlessStop, InstructionObserver } from '../../core/headless.js';
import type { StopInfo } from '../../core/target.js';
import { MAME_RAW_FEATURE, type MameRaw } from './mame-raw.js';
import { launchMameTarget, type MameTarget } from './mame-target.js';
import { MameTrace } from './mame-trace.js';
import { romEntry, type ProgramEntry } from './headless-entry.js';

const POLL_MS = 2;
/** while observing, the trace is read back at least this often (its file grows ~4 bytes a cycle) */
const TRACE_SLICE_CYCLES = 2_000_000;
/** the machines' CPU: the bridge's too (mamebridge's find_cpu) */
const CPU_TAG = 'maincpu';

export class HeadlessMame implements HeadlessMachine {
  readonly cpu = 'z80';
  readonly exactCycles = false;
  private target?: MameTarget;
  private raw?: MameRaw;
  private program?: Uint8Array;
  private workDir?: string;
  /** totalcycles at start(): state().cycles counts from there */
  private base = 0;
  /** breakpoint id per stop address */
  private readonly armed = new Map<number, number>();
  private observer?: InstructionObserver;
  private trace?: MameTrace;

  constructor(
    private readonly machine: string,
    private readonly entry: ProgramEntry = romEntry,
  ) {}

  async start(program: Uint8Array): Promise<void> {
    const launched = !(this.target && this.program && Buffer.compare(program, this.program) === 0);
    // a test that ended in HALT leaves the CPU halted whatever PC says
    if (!launched) await this.need().target.writeRegister('HALT', 0);
    if (launched) {
      await this.close();
      this.workDir = await mkdtemp(join(tmpdir(), 'rd-headless-mame-'));
      const rom = join(this.workDir, this.entry.file);
      await writeFile(rom, program);
      this.target = await launchMameTarget(
        // no time-travel history: its save states would only slow test and profile runs
        { machine: this.machine, emulator: 'mame', program: rom, history: { seconds: 0, maxMegabytes: 0 } },
        { workDir: this.workDir },
      );
      this.raw = this.target.features.get(MAME_RAW_FEATURE);
      this.trace = new MameTrace(this.need().raw, join(this.workDir, 'trace.log'), CPU_TAG);
      this.program = program;
    }
    const runUnobserved = async (stops: readonly number[], maxCycles: number, deadline: number) => {
      const observer = this.observer;
      this.observer = undefined;
      try {
        return await this.runUntil(stops, maxCycles, deadline);
      } finally {
        this.observer = observer;
      }
    };
    await this.entry.restart({ target: this.need().target, runUnobserved }, program, launched);
    this.trace?.moved();
    this.base = await this.totalCycles();
  }

  async state(): Promise<{ pc: number; sp: number; cycles: number; ix: number }> {
    const regs = await this.need().target.readRegisters();
    const reg = (name: string) => regs.find((r) => r.name === name)?.value ?? 0;
    return { pc: reg('PC'), sp: reg('SP'), ix: reg('IX'), cycles: (await this.totalCycles()) - this.base };
  }

  async runUntil(stops: readonly number[], maxCycles: number, deadline: number): Promise<HeadlessStop> {
    const { target } = this.need();
    await this.arm(stops);
    const limit = (await this.totalCycles()) + maxCycles;
    for (;;) {
      const observer = this.observer;
      if (observer) await this.trace?.open(observer, await this.state());
      const sliceEnd = observer ? Math.min(limit, (await this.totalCycles()) + TRACE_SLICE_CYCLES) : limit;
      const { stop, why } = await this.runSlice(target, sliceEnd, deadline);
      if (observer) await this.trace?.close(observer, this.base);
      if (stop.reason === 'breakpoint' && stops.includes(stop.pc)) return { kind: 'reached', pc: stop.pc };
      if (why === 'halt') return { kind: 'crash', pc: stop.pc, reason: 'HALT with interrupts off' };
      if (why === 'seconds') return { kind: 'limit', pc: stop.pc, reason: 'seconds' };
      if (why === 'cycles' && sliceEnd >= limit) return { kind: 'limit', pc: stop.pc, reason: 'cycles' };
      if (why === undefined) return { kind: 'crash', pc: stop.pc, reason: `MAME stopped (${stop.reason})` };
    }
  }

  async read(address: number, length: number): Promise<Uint8Array> {
    return this.need().target.readMemory({ space: 'cpu', offset: address }, length);
  }

  async write(address: number, bytes: Uint8Array): Promise<void> {
    await this.need().target.writeMemory({ space: 'cpu', offset: address }, bytes);
  }

  observe(observer: InstructionObserver | undefined): void {
    this.observer = observer;
    this.trace?.moved();
  }

  async close(): Promise<void> {
    const { target, workDir } = this;
    this.target = this.raw = this.program = this.trace = undefined;
    this.armed.clear();
    await target?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  }

  /** Resumes and waits for the next stop, pausing MAME itself at the cycle end, the deadline or a dead HALT. */
  private async runSlice(
    target: MameTarget,
    end: number,
    deadline: number,
  ): Promise<{ stop: StopInfo; why?: 'cycles' | 'seconds' | 'halt' }> {
    let stop: StopInfo | undefined;
    let gone: string | undefined;
    const off = target.events.on((e) => {
      if (e.type === 'stopped') stop ??= e.stop;
      if (e.type === 'exited') gone = e.reason;
    });
    try {
      await target.resume();
      let why: 'cycles' | 'seconds' | 'halt' | undefined;
      while (!stop) {
        if (gone) throw internalError(gone);
        await new Promise((r) => setTimeout(r, POLL_MS));
        if (stop || why) continue;
        const [cycles, halt, iff] = await this.values('totalcycles,halt,iff1');
        why = cycles >= end ? 'cycles' : halt && !iff ? 'halt' : Date.now() > deadline ? 'seconds' : undefined;
        if (why) await target.pause();
      }
      const reached = stop as StopInfo;
      // a stop of its own (a breakpoint) wins over the pause that crossed it
      return { stop: reached, why: reached.reason === 'pause' ? why : undefined };
    } finally {
      off();
    }
  }

  /** Unchanged stops keep their breakpoints: a test run arms the same two or three addresses again and again. */
  private async arm(stops: readonly number[]): Promise<void> {
    const { target } = this.need();
    for (const [address, id] of this.armed)
      if (!stops.includes(address)) {
        await target.clearBreakpoint(id);
        this.armed.delete(address);
      }
    for (const address of stops)
      if (!this.armed.has(address))
        this.armed.set(address, await target.setBreakpoint({ space: 'cpu', offset: address }));
  }

  private async totalCycles(): Promise<number> {
    return (await this.values('totalcycles'))[0];
  }

  /** Debugger expressions, one console round trip (printf prints them in hex). */
  private async values(list: string): Promise<number[]> {
    const n = list.split(',').length;
    const lines = await this.need().raw.console(`printf "${Array(n).fill('%X').join(' ')}",${list}`);
    const values = (lines[lines.length - 1] ?? '')
      .trim()
      .split(/\s+/)
      .map((v) => parseInt(v, 16));
    if (values.length !== n || values.some(Number.isNaN))
      throw internalError(`MAME did not evaluate ${list}: ${lines.join(' ')}`);
    return values;
  }

  private need(): { target: MameTarget; raw: MameRaw } {
    if (!this.target || !this.raw) throw internalError('the MAME machine is not started');
    return { target: this.target, raw: this.raw };
  }
}
