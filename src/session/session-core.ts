import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import {
  asRetroError,
  notStopped,
  RetroError,
  staleGeneration,
  timedOut,
  targetLost,
  unsupported,
  notRunning,
  badRequest,
  tooLarge,
  badAddress,
} from '../core/errors.js';
import { hex } from '../core/hex.js';
import { MAX_TRANSFER } from '../core/limits.js';
import type { DebugIndex } from '../debuginfo/index.js';
import type { Address, FacetName, RunState, StopInfo, Target, TargetEvent } from '../core/target.js';
import type { Assignment } from './assign.js';
import { BreakpointTable } from './breakpoints.js';
import { BuildWatch } from './build-id.js';
import { BreakpointHits } from './bp-hits.js';
import { WatchpointTable } from './watchpoints.js';
import { InputQueue } from './input-queue.js';
import { RawLease } from './raw-lease.js';
import { ClientRegistry } from './clients.js';
import { EventQueue } from './event-queue.js';
import { Inspector } from './inspector.js';
import { ControlLease } from './lease.js';
import type { LaunchConfig } from '../core/launch.js';
import { LineStepper } from './line-stepper.js';
import { SourcePaths } from './source-paths.js';
import { StopWaiters } from './stop-waiters.js';
import type {
  ClientRef,
  Identity,
  MutationOptions,
  QueuedEvent,
  SessionEvent,
  SessionPhase,
  SessionStatus,
  WatchHit,
} from './types.js';

export interface SessionDeps {
  target: Target;
  index?: DebugIndex;
  buildId: string;
  /** the files the build id hashes (program, debug info): a rebuild under the session is noticed from them */
  buildFiles?: string[];
  /** what the debug-info parser skipped (DebugInfo.warnings): told once as output, kept in the status */
  debugInfoWarnings?: string[];
}

/**
 * The state every client shares and how it changes: boot phases, the
 * target's events turned into stops and generations, and the checks every
 * request passes (a live target, a stopped CPU, the lease, the generation).
 * Session adds what clients ask of it.
 */
export abstract class SessionCore {
  readonly id = `s-${randomBytes(4).toString('hex')}`;
  protected phase: SessionPhase = 'starting_emulator';
  protected readonly progress: string[] = [];
  protected failure?: RetroError;
  protected generation = 1;
  protected buildId = 'pending';
  /** refuses placements from debug info once the program on disk is another build (stale_build) */
  protected buildWatch?: BuildWatch;
  protected state: RunState = 'starting';
  protected lastStop?: SessionStatus['last_stop'];
  protected target?: Target;
  protected index?: DebugIndex;
  protected inspector?: Inspector;
  protected stepper?: LineStepper;
  protected readonly events = new EventQueue();
  protected readonly clients: ClientRegistry;
  protected readonly lease: ControlLease;
  protected readonly breakpoints = new BreakpointTable(
    () => this.facet('breakpoints'),
    (changes) => this.emit({ type: 'breakpoints_changed', generation: this.generation, changes }),
  );
  /** a breakpoint's stop is being decided: the CPU is stopped, clients still see it running */
  protected deciding = false;
  /** the resume after a hit nobody stopped at, while it is in flight */
  protected resuming?: Promise<void>;
  /** a pause asked for and not yet answered by a published stop */
  protected pauseWanted = false;
  protected hits = new BreakpointHits(undefined, async () => this.facet('run').registers());
  protected readonly watchpoints = new WatchpointTable(
    () => this.facet('watch'),
    () => this.breakpoints.allocateId(),
  );
  protected readonly inputs = new InputQueue();
  protected readonly rawLease = new RawLease();
  protected readonly paths: SourcePaths;
  protected readonly stopWaiters = new StopWaiters();
  protected busy = false;
  protected unsubscribeTarget?: () => void;
  protected debugInfoWarnings: string[] = [];

  constructor(
    readonly config: LaunchConfig,
    leaseMs: number,
    /** the clock the lease and client expiry read (tests pass their own) */
    clock: () => number = Date.now,
  ) {
    this.clients = new ClientRegistry(leaseMs, clock);
    this.lease = new ControlLease(leaseMs, clock, (holder) => this.leaseLapsed(holder));
    const cwd = config.cwd ?? process.cwd();
    // the debug info found beside the program names its sources from there too
    const beside = [config.debugInfo, config.program].filter((f): f is string => !!f);
    const roots = [cwd, ...beside.map((f) => dirname(resolve(cwd, f)))];
    this.paths = new SourcePaths(roots);
  }

  /** The holder showed no life for the lease time: everyone (and the holder's handle) hears why. */
  protected leaseLapsed(holder: ClientRef): void {
    this.emit({ type: 'lease_changed', lease: undefined, lapsed: holder });
  }

  setPhase(phase: SessionPhase, message: string): void {
    if (this.hasEnded()) return; // an ended session stays ended: a launch still under way reports nothing more
    this.phase = phase;
    this.progress.push(message);
    if (this.progress.length > 50) this.progress.shift();
    this.emit({ type: 'phase', phase, message });
  }

  attachTarget(deps: SessionDeps): void {
    this.target = deps.target;
    this.index = deps.index;
    this.buildId = deps.buildId;
    if (deps.buildFiles?.length) this.buildWatch = new BuildWatch(deps.buildFiles, deps.buildId);
    this.debugInfoWarnings = deps.debugInfoWarnings ?? [];
    for (const warning of this.debugInfoWarnings) this.emit({ type: 'output', text: `Debug info: ${warning}\n` });
    this.inspector = new Inspector(deps.target, deps.index, this.paths, () => this.facet('run').registers());
    this.hits = new BreakpointHits(
      deps.index,
      async () => this.facet('run').registers(),
      () => this.target?.breakpoints?.language,
    );
    this.stepper = new LineStepper(
      () => ({ run: this.facet('run'), breakpoints: this.facet('breakpoints') }),
      deps.index,
      (ms) => this.stopWaiters.arm(ms),
      () => this.callerAddress(),
    );
    this.unsubscribeTarget = deps.target.events.on((e) => this.onTargetEvent(e));
    this.state = 'stopped';
  }

  /** Runs to `address` with a temporary breakpoint, without telling clients about the legs. */
  runTo(address: number, timeoutMs: number): Promise<StopInfo> {
    this.requireTarget();
    return this.stepper!.runTo(address, 'entry', timeoutMs);
  }

  protected async callerAddress(): Promise<number | undefined> {
    if (!this.index) return undefined;
    const frames = await this.inspector!.backtrace();
    return frames[1]?.pc;
  }

  /** Boot finished: tell everyone where the program stands. */
  announceReady(stop: StopInfo, message: string): void {
    this.setPhase('ready', message);
    this.publishStop(stop);
  }

  /** Boot finished on a target that runs on its own (no stop to report). */
  announceRunning(message: string): void {
    this.setPhase('ready', message);
    this.startRunning();
  }

  fail(err: unknown): void {
    if (this.hasEnded()) return; // stopped first: a start cut short is not a failure
    this.failure = asRetroError(err);
    this.state = 'exited';
    this.setPhase('failed', this.failure.message);
  }

  private hasEnded(): boolean {
    return this.phase === 'exited' || this.phase === 'failed';
  }

  statusPhase(): SessionPhase {
    return this.phase;
  }

  identity(): Identity {
    return { session_id: this.id, build_id: this.buildId, generation: this.generation };
  }

  async status(): Promise<SessionStatus> {
    const pc = this.state === 'stopped' ? this.lastStop?.pc : undefined;
    return {
      ...this.identity(),
      phase: this.phase,
      progress: [...this.progress],
      state: this.state,
      machine: this.config.machine,
      emulator: this.config.emulator,
      program: this.config.program,
      pc,
      location: pc === undefined ? undefined : this.inspector?.location(pc),
      last_stop: this.lastStop,
      lease: this.lease.info(),
      error: this.failure ? { code: this.failure.code, message: this.failure.message } : undefined,
      ...(this.target && !this.target.run ? { run_control: false as const } : {}),
      ...(this.debugInfoWarnings.length ? { debug_info_warnings: [...this.debugInfoWarnings] } : {}),
    };
  }

  onEvent(listener: (e: QueuedEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  eventsSince(seq: number) {
    return this.events.since(seq);
  }

  async waitForStop(timeoutMs: number): Promise<SessionStatus> {
    if (this.isSettled()) return this.status();
    await new Promise<void>((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(
          timedOut(`The machine did not stop within ${timeoutMs} ms; it is still ${this.state}.`, {
            timeout_ms: timeoutMs,
          }),
        );
      }, timeoutMs);
      const off = this.events.subscribe((q) => {
        if (
          q.event.type === 'stopped' ||
          q.event.type === 'exited' ||
          (q.event.type === 'phase' && q.event.phase === 'failed')
        ) {
          clearTimeout(timer);
          off();
          resolvePromise();
        }
      });
    });
    return this.status();
  }

  protected isSettled(): boolean {
    return (this.state === 'stopped' && !this.busy && this.phase === 'ready') || this.state === 'exited';
  }

  protected onTargetEvent(e: TargetEvent): void {
    switch (e.type) {
      case 'stopped': {
        this.state = 'stopped';
        this.inspector?.invalidate();
        this.inputs.forgetAll();
        if (!this.stopWaiters.resolve(e.stop) && !this.busy) this.publishStop(e.stop);
        break;
      }
      case 'running':
        if (this.state !== 'running' && !this.busy && !this.stopWaiters.pending) this.startRunning();
        this.state = 'running';
        break;
      case 'exited':
        this.stopWaiters.rejectAll(targetLost(`The emulator went away: ${e.reason}.`));
        this.markExited(e.reason);
        break;
      case 'reset':
        this.bumpGeneration(e.hard ? 'hard reset' : 'soft reset');
        if (e.hard)
          void this.breakpoints.rearmAll().catch((err) =>
            this.emit({
              type: 'output',
              text: `Re-arming breakpoints after reset failed: ${asRetroError(err).message}`,
            }),
          );
        break;
      case 'output':
        this.emit(e.machine ? { type: 'output', text: e.text, machine: true } : { type: 'output', text: e.text });
        break;
    }
  }

  /** `decided`: the breakpoints that asked for this stop, once their conditions were evaluated; `watch` likewise. */
  protected publishStop(stop: StopInfo, decided?: number[], watch?: WatchHit[]): void {
    this.state = 'stopped';
    this.inspector?.invalidate();
    let breakpointIds = decided ?? [];
    if (stop.reason === 'breakpoint' && !decided) {
      breakpointIds = this.breakpoints.hit(stop.breakpointId, stop.pc, false);
      if (this.hits.governs(breakpointIds)) {
        void this.decideStop(stop, breakpointIds);
        return;
      }
      for (const id of breakpointIds) this.breakpoints.countHit(id);
    }
    if (stop.reason === 'watchpoint' && !watch && this.watchpoints.firing(stop).length) {
      void this.decideWatch(stop);
      return;
    }
    this.pauseWanted = false; // this stop is published: it answers any pause
    const watchpointIds = watch?.map((w) => w.id);
    const location = this.inspector?.location(stop.pc);
    this.lastStop = { ...stop, location, breakpoint_ids: breakpointIds, watchpoint_ids: watchpointIds, watch };
    this.emit({
      type: 'stopped',
      stop,
      location,
      generation: this.generation,
      breakpoint_ids: breakpointIds,
      watchpoint_ids: watchpointIds,
      ...(watch ? { watch } : {}),
    });
  }

  /** After a failed step: report wherever the machine actually is. */
  protected async refreshStop(): Promise<void> {
    const status = await this.target?.status().catch(() => undefined);
    if (status?.state === 'stopped') this.publishStop({ reason: 'step', pc: status.pc ?? 0 });
  }

  protected startRunning(): void {
    this.state = 'running';
    this.inspector?.invalidate();
    this.emit({ type: 'running' });
  }

  protected markExited(reason: string): void {
    if (this.state === 'exited' && this.phase === 'exited') return;
    this.state = 'exited';
    this.bumpGeneration(`exit: ${reason}`);
    if (this.phase !== 'failed') this.setPhase('exited', reason);
    this.emit({ type: 'exited', reason });
  }

  protected bumpGeneration(reason: string): void {
    this.generation++;
    this.emit({ type: 'generation', generation: this.generation, reason });
  }

  protected emit(event: SessionEvent): void {
    this.events.push(event);
  }

  protected requireTarget(): Target {
    if (this.target && this.state !== 'exited') return this.target;
    if (this.failure)
      throw targetLost(`The session failed to start: ${this.failure.message}`, {
        cause: this.failure.code,
      });
    if (this.state === 'exited') throw targetLost('The emulator of this session has exited.');
    throw new RetroError(
      'not_stopped',
      `The session is still starting (${this.phase}); wait for it with session_status or wait_for_stop.`,
    );
  }

  /** A facet of the target, or the one 'unsupported' refusal with the target's reason. */
  protected facet<K extends FacetName>(name: K): NonNullable<Target[K]> {
    const target = this.requireTarget();
    const facet = target[name];
    if (facet) return facet as NonNullable<Target[K]>;
    throw unsupported(target.info.missing?.[name] ?? `The ${target.info.kind} target has no ${FACET_TEXT[name]}.`, {
      target: target.info.kind,
      facet: name,
    });
  }

  protected requireInspector(): Inspector {
    this.requireTarget();
    this.requireStopped();
    return this.inspector!;
  }

  protected requireStopped(): void {
    if (this.state !== 'stopped' || this.busy) {
      throw notStopped(this.busy ? 'stepping' : this.state, { state: this.state });
    }
  }

  /** stale_generation, naming the current one, unless `generation` is absent or current */
  assertGeneration(generation: number | undefined): void {
    if (generation !== undefined && generation !== this.generation) throw staleGeneration(generation, this.generation);
  }

  async afterRawCommand(description: string): Promise<void> {
    this.inspector?.invalidate();
    const status = await this.target?.status().catch(() => undefined);
    if (status?.state === 'stopped' && !this.busy) {
      if (this.state !== 'stopped' || status.pc !== this.lastStop?.pc)
        this.publishStop({ reason: 'unknown', pc: status.pc ?? 0 });
    } else if (status?.state === 'running' && this.state === 'stopped' && !this.busy) {
      this.startRunning();
    }
    await this.breakpoints.afterRawCommand(description);
    this.bumpGeneration(`raw console command: ${description}`);
  }

  breakpointsSettled(): Promise<void> {
    return this.breakpoints.settled();
  }

  /** The recorded past is read-only: a write there would change a history that already went on. */
  protected refuseInPast(what: string): void {
    const stop = this.lastStop;
    if (this.state !== 'stopped' || !stop?.inPast) return;
    const frame = stop.pastFrame ? ` (frame ${stop.pastFrame.frame} of ${stop.pastFrame.present})` : '';
    throw badRequest(
      `The machine shows the recorded past${frame}: ${what} is read-only there. Return to the present first (MCP go_to {present: true}), or Continue from here, which drops the later history.`,
      { in_past: true },
    );
  }

  protected requireMutation(
    clientId: string,
    opts: MutationOptions | undefined,
    needs?: 'stopped' | 'running',
  ): Target {
    const client = this.clients.get(clientId);
    const target = this.requireTarget();
    this.assertGeneration(opts?.generation);
    this.lease.require(client);
    this.lease.beat(clientId);
    if (needs === 'stopped') this.requireStopped();
    if (needs === 'running' && this.state !== 'running') {
      throw notRunning(`The machine is ${this.state}; input and similar requests need it running (resume first).`, {
        state: this.state,
      });
    }
    return target;
  }

  protected checkRange(address: Address, length: number): void {
    if (!Number.isInteger(length) || length < 1)
      throw badRequest(`Length must be a positive whole number, not ${length}.`);
    if (length > MAX_TRANSFER)
      throw tooLarge(`At most ${MAX_TRANSFER} bytes can be transferred at once; ${length} were asked for.`, {
        max: MAX_TRANSFER,
      });
    if (address.space === 'cpu' || address.space === 'program') {
      const caps = this.requireTarget().info;
      const size = 2 ** (caps.spaceBits?.[address.space] ?? caps.addressBits);
      if (!Number.isInteger(address.offset) || address.offset < 0 || address.offset + length > size) {
        throw badAddress(
          `${hex(address.offset)}+${length} is outside the ${address.space} space (0x0000–${hex(size - 1)}).`,
          { offset: address.offset, length },
        );
      }
    }
  }

  /**
   * A breakpoint with a condition, hit condition or log message was reached:
   * evaluate them at the stop (busy meanwhile, so nobody acts on it), print
   * the logpoints, and either publish the stop or resume without one.
   */
  /** Writes what Set Value planned: memory through `writeMemory` (its checks), or the registers of frame 0. */
  protected async applyAssignment(
    plan: Assignment,
    writeMemory: (address: Address, bytes: Uint8Array) => Promise<void>,
  ): Promise<void> {
    if ('address' in plan) return writeMemory({ space: 'cpu', offset: plan.address }, plan.bytes);
    const run = this.facet('run');
    for (const r of plan.registers) await run.writeRegister(r.name, r.value);
    this.inspector?.invalidate();
  }

  /** Whether a pause needs nothing sent: stopped already, or a breakpoint stop being decided is kept for it. */
  protected async pauseSettled(): Promise<boolean> {
    if (this.state === 'stopped' && !this.busy && !this.deciding) return true;
    this.pauseWanted = true; // until a stop is published: a breakpoint stop meanwhile must not resume
    if (this.deciding) return true;
    // the resume after a hit nobody stopped at: a pause MAME takes before it would be lost
    await this.resuming;
    return false;
  }

  /** A stop whose breakpoints have host-side conditions: decided, then published or resumed (session-stops.ts). */
  protected abstract decideStop(stop: StopInfo, ids: number[]): Promise<void>;
  /** A watchpoint's stop: judged (old → new, accessor, change-only), then published or resumed. */
  protected abstract decideWatch(stop: StopInfo): Promise<void>;
}

const FACET_TEXT: Record<FacetName, string> = {
  run: 'run control or CPU registers',
  breakpoints: 'breakpoints',
  watch: 'watchpoints',
  screen: 'screen',
  input: 'keyboard input',
  lifecycle: 'reset, reload or snapshots',
};
