import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { asRetroError, notStopped, RetroError, staleGeneration } from '../core/errors.js';
import { hex } from '../core/hex.js';
import { MAX_TRANSFER } from '../core/limits.js';
import type { DebugIndex } from '../debuginfo/index.js';
import type {
  Address,
  FacetName,
  FeatureKey,
  Register,
  RunState,
  ScreenImage,
  StopInfo,
  Target,
  TargetEvent,
  WatchSpec,
} from '../core/target.js';
import { BreakpointTable } from './breakpoints.js';
import { BreakpointHits } from './bp-hits.js';
import type { BreakpointExtras } from './bp-logic.js';
import { WatchpointTable } from './watchpoints.js';
import { InputQueue } from './input-queue.js';
import { RawLease } from './raw-lease.js';
import { ClientRegistry } from './clients.js';
import { EventQueue } from './event-queue.js';
import { Inspector } from './inspector.js';
import { ControlLease } from './lease.js';
import type { LaunchConfig } from '../core/launch.js';
import { LineStepper, type StepKind } from './line-stepper.js';
import { LabelTable } from './labels.js';
import { SourcePaths } from './source-paths.js';
import { StopWaiters } from './stop-waiters.js';
import { ClientHandle, type ClientEngine, type ClientOptions, type ClientSession } from './client-session.js';
import { placeAddress, placeFunction, placeLine, type BreakpointFields } from './breakpoint-placement.js';
import type {
  BreakpointInfo,
  ClientKind,
  ControlGuard,
  ClientRef,
  Identity,
  LeaseInfo,
  MutationOptions,
  QueuedEvent,
  ScopeName,
  SessionApi,
  SessionEvent,
  SessionPhase,
  SessionStatus,
  StackFrameInfo,
  StepGranularity,
  VariableValue,
  HeldInputInfo,
  WatchpointInfo,
} from './types.js';

export interface SessionDeps {
  target: Target;
  index?: DebugIndex;
  buildId: string;
}

/**
 * One live emulator shared by every client. The only place with shared
 * mutable state: run state, the lease, owners, breakpoints, generations.
 * Booting (starting the emulator, running to main) is done by the manager,
 * which hands over a ready Target through `attachTarget`.
 */
export class Session implements SessionApi, ClientEngine {
  readonly id = `s-${randomBytes(4).toString('hex')}`;
  private phase: SessionPhase = 'starting_emulator';
  private readonly progress: string[] = [];
  private failure?: RetroError;
  private generation = 1;
  private buildId = 'pending';
  private state: RunState = 'starting';
  private lastStop?: SessionStatus['last_stop'];
  private target?: Target;
  private index?: DebugIndex;
  private inspector?: Inspector;
  private stepper?: LineStepper;
  private readonly events = new EventQueue();
  private readonly clients: ClientRegistry;
  private readonly lease: ControlLease;
  private readonly breakpoints = new BreakpointTable(() => this.facet('breakpoints'));
  private hits = new BreakpointHits(undefined, async () => this.facet('run').registers());
  private readonly watchpoints = new WatchpointTable(() => this.facet('watch'));
  private readonly inputs = new InputQueue();
  private readonly rawLease = new RawLease();
  private readonly paths: SourcePaths;
  private readonly stopWaiters = new StopWaiters();
  private busy = false;
  private readonly sweeper: NodeJS.Timeout;
  private unsubscribeTarget?: () => void;

  constructor(
    readonly config: LaunchConfig,
    leaseMs: number,
  ) {
    this.clients = new ClientRegistry(leaseMs);
    this.lease = new ControlLease(leaseMs);
    const cwd = config.cwd ?? process.cwd();
    const roots = [cwd, ...(config.debugInfo ? [dirname(resolve(cwd, config.debugInfo))] : [])];
    this.paths = new SourcePaths(roots);
    this.sweeper = setInterval(() => void this.sweepExpired(), Math.max(200, Math.min(1000, leaseMs / 4)));
    this.sweeper.unref();
  }

  // ---- boot (driven by the manager) ----

  setPhase(phase: SessionPhase, message: string): void {
    this.phase = phase;
    this.progress.push(message);
    if (this.progress.length > 50) this.progress.shift();
    this.emit({ type: 'phase', phase, message });
  }

  attachTarget(deps: SessionDeps): void {
    this.target = deps.target;
    this.index = deps.index;
    this.buildId = deps.buildId;
    this.inspector = new Inspector(deps.target, deps.index, this.paths, () => this.facet('run').registers());
    this.hits = new BreakpointHits(deps.index, async () => this.facet('run').registers());
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

  private async callerAddress(): Promise<number | undefined> {
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
    this.failure = asRetroError(err);
    this.state = 'exited';
    this.setPhase('failed', this.failure.message);
  }

  // ---- identity, clients, lease ----

  statusPhase(): SessionPhase {
    return this.phase;
  }

  identity(): Identity {
    return { session_id: this.id, build_id: this.buildId, generation: this.generation };
  }

  attach(kind: ClientKind, label: string, opts?: ClientOptions): ClientSession {
    return new ClientHandle(this, this, this.clients.attach(kind, label), opts);
  }

  leaseHolderId(): string | undefined {
    return this.lease.info()?.holder.id;
  }

  detachClient(clientId: string): void {
    void this.dropClient(clientId, false);
  }

  heartbeat(clientId: string): void {
    this.clients.beat(clientId);
    this.lease.beat(clientId);
  }

  claimControl(clientId: string, opts: { takeOver?: boolean } = {}): LeaseInfo {
    const client = this.clients.get(clientId);
    const before = this.lease.info()?.holder.id;
    const info = this.lease.claim(client, opts.takeOver);
    if (before !== client.id) {
      this.emit({ type: 'lease_changed', lease: info });
      void this.releaseInputsWithoutControl();
    }
    return info;
  }

  releaseControl(clientId: string): void {
    if (this.lease.release(clientId)) {
      this.emit({ type: 'lease_changed', lease: undefined });
      void this.releaseInputsWithoutControl();
    }
  }

  // ---- state and events ----

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
          new RetroError('timeout', `The machine did not stop within ${timeoutMs} ms; it is still ${this.state}.`, {
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

  private isSettled(): boolean {
    return (this.state === 'stopped' && !this.busy && this.phase === 'ready') || this.state === 'exited';
  }

  // ---- run control ----

  async resume(clientId: string, opts?: MutationOptions): Promise<void> {
    this.requireMutation(clientId, opts, 'stopped');
    const run = this.facet('run');
    this.startRunning();
    await run.resume();
  }

  async pause(clientId: string, opts?: MutationOptions): Promise<void> {
    this.requireMutation(clientId, opts);
    const run = this.facet('run');
    if (this.state === 'stopped' && !this.busy) return;
    await run.pause();
  }

  stepInto(clientId: string, granularity: StepGranularity = 'line', opts?: MutationOptions): Promise<void> {
    return this.step(clientId, 'into', granularity, opts);
  }

  stepOver(clientId: string, granularity: StepGranularity = 'line', opts?: MutationOptions): Promise<void> {
    return this.step(clientId, 'over', granularity, opts);
  }

  stepOut(clientId: string, opts?: MutationOptions): Promise<void> {
    return this.step(clientId, 'out', 'line', opts);
  }

  /** Starts the step and returns; the final stop is published as an event. */
  private async step(
    clientId: string,
    kind: StepKind,
    granularity: StepGranularity,
    opts?: MutationOptions,
  ): Promise<void> {
    this.requireMutation(clientId, opts, 'stopped');
    this.facet('run');
    const pc = this.lastStop?.pc ?? 0;
    const stepper = this.stepper!;
    this.busy = true;
    this.startRunning();
    const run = granularity === 'instruction' && kind !== 'out' ? stepper.instruction(kind) : stepper.line(kind, pc);
    run.then(
      (stop) => {
        this.busy = false;
        this.publishStop(stop);
      },
      (err) => {
        this.busy = false;
        const error = asRetroError(err);
        this.emit({ type: 'output', text: `Step failed: ${error.message}` });
        if (error.code !== 'target_lost') void this.refreshStop();
      },
    );
  }

  // ---- breakpoints ----

  async setLineBreakpoint(
    clientId: string,
    file: string,
    line: number,
    condition?: string,
    extras: BreakpointExtras = {},
  ): Promise<BreakpointInfo> {
    return this.addBreakpoint(this.clients.get(clientId), placeLine(this.index, file, line, condition), extras);
  }

  async setFunctionBreakpoint(
    clientId: string,
    name: string,
    condition?: string,
    extras: BreakpointExtras = {},
  ): Promise<BreakpointInfo> {
    return this.addBreakpoint(this.clients.get(clientId), placeFunction(this.index, name, condition), extras);
  }

  async setAddressBreakpoint(
    clientId: string,
    address: Address,
    condition?: string,
    extras: BreakpointExtras = {},
  ): Promise<BreakpointInfo> {
    const owner = this.clients.get(clientId);
    this.checkRange(address, 1);
    return this.addBreakpoint(owner, placeAddress(this.index, address, condition), extras);
  }

  async clearBreakpoint(clientId: string, id: number): Promise<void> {
    this.clients.get(clientId);
    await this.breakpoints.remove(clientId, id);
    this.hits.forget([id]);
    this.emit({ type: 'breakpoints_changed', breakpoints: this.breakpoints.list() });
  }

  listBreakpoints(): BreakpointInfo[] {
    return this.breakpoints.list();
  }

  private async addBreakpoint(
    owner: ClientRef,
    fields: BreakpointFields,
    extras: BreakpointExtras,
  ): Promise<BreakpointInfo> {
    this.requireTarget();
    if (extras.hitCondition) fields.hit_condition = extras.hitCondition;
    if (extras.logMessage) fields.log_message = extras.logMessage;
    const logic = await this.hits.compile(fields, extras);
    const bp = await this.breakpoints.add(owner, fields);
    this.hits.keep(bp.id, logic);
    this.emit({ type: 'breakpoints_changed', breakpoints: this.breakpoints.list() });
    return bp;
  }

  // ---- inspection ----

  async backtrace(): Promise<StackFrameInfo[]> {
    return this.requireInspector().backtrace();
  }

  async variables(scope: ScopeName, frameIndex = 0): Promise<VariableValue[]> {
    return this.requireInspector().variables(scope, frameIndex);
  }

  async readVariable(expression: string, frameIndex = 0): Promise<VariableValue> {
    return this.requireInspector().evaluate(expression, frameIndex);
  }

  async readRegisters(): Promise<Register[]> {
    return this.facet('run').registers();
  }

  async readMemory(address: Address, length: number): Promise<Uint8Array> {
    this.checkRange(address, length);
    return this.requireTarget().memory.read(address, length);
  }

  async writeMemory(clientId: string, address: Address, data: Uint8Array, opts?: MutationOptions): Promise<void> {
    // A target without run control can never stop: it takes writes while running.
    const target = this.requireMutation(clientId, opts, this.target && !this.target.run ? undefined : 'stopped');
    this.checkRange(address, data.length);
    await target.memory.write(address, data);
    this.inspector?.invalidate();
    this.noteStateChangingWrite(address, data.length);
    const back = await target.memory.read(address, data.length);
    const bad = data.findIndex((b, i) => back[i] !== b);
    if (bad >= 0) {
      throw new RetroError(
        'bad_address',
        `The write did not stick at ${hex(address.offset + bad)} (read back ${hex(back[bad], 2)}, wrote ${hex(data[bad], 2)}): ROM or unmapped memory.`,
        { offset: address.offset + bad },
      );
    }
  }

  /** Set Value: `expression = value` in C, encoded by the object's type; needs the lease and a stopped CPU. */
  async setExpression(
    clientId: string,
    expression: string,
    value: string,
    frameIndex = 0,
    opts?: MutationOptions,
  ): Promise<VariableValue> {
    this.requireMutation(clientId, opts, 'stopped');
    const plan = await this.requireInspector().assignment(expression, value, frameIndex);
    await this.writeMemory(clientId, { space: 'cpu', offset: plan.address }, plan.bytes, opts);
    return this.readVariable(expression, frameIndex);
  }

  /** A write into code or into I/O (banking registers) changes what the C map describes: a new generation. */
  private noteStateChangingWrite(address: Address, length: number): void {
    const intoCode =
      address.space === 'cpu' &&
      this.index !== undefined &&
      Array.from({ length: Math.min(length, 4096) }, (_, i) => address.offset + i).some(
        (a) => this.index!.functionAt(a) !== undefined,
      );
    if (intoCode || address.space === 'io') {
      this.bumpGeneration(intoCode ? 'memory write into program code' : 'I/O write (may switch banks)');
    }
  }

  async screenshot(): Promise<ScreenImage> {
    return this.facet('screen').capture();
  }

  /** Types text on the machine's keyboard (the input facet), under the control lease. */
  async typeText(clientId: string, text: string, opts?: MutationOptions): Promise<void> {
    this.requireMutation(clientId, opts);
    await this.facet('input').typeText(text);
  }

  // ---- watchpoints ----

  async setWatchpoint(clientId: string, spec: WatchSpec): Promise<WatchpointInfo> {
    const owner = this.clients.get(clientId);
    this.checkRange(spec.address, spec.length);
    const wp = await this.watchpoints.add(owner, spec);
    this.emit({ type: 'watchpoints_changed', watchpoints: this.watchpoints.list() });
    return wp;
  }

  async clearWatchpoint(clientId: string, id: number): Promise<void> {
    this.clients.get(clientId);
    await this.watchpoints.remove(clientId, id);
    this.emit({ type: 'watchpoints_changed', watchpoints: this.watchpoints.list() });
  }

  listWatchpoints(): WatchpointInfo[] {
    return this.watchpoints.list();
  }

  // ---- held input ----

  trackInput(clientId: string, what: string, release: () => Promise<void>): number {
    return this.inputs.track(this.clients.get(clientId), what, release);
  }

  untrackInput(id: number): void {
    this.inputs.untrack(id);
  }

  heldInputs(): HeldInputInfo[] {
    return this.inputs.list();
  }

  locationAt(pc: number) {
    return this.inspector?.location(pc);
  }

  /** Input needs the lease: whoever lost it (take-over, release, lapse) lets go of what it held. */
  private async releaseInputsWithoutControl(): Promise<void> {
    const holder = this.lease.info()?.holder.id;
    this.rawLease.syncWithControl(holder);
    const owners = new Set(
      this.inputs
        .list()
        .map((h) => h.owner.id)
        .filter((id) => id !== holder),
    );
    for (const owner of owners) {
      const ids = await this.inputs.releaseOwnedBy(owner);
      if (ids.length)
        this.emit({ type: 'inputs_released', reason: 'the owner no longer holds the control lease', ids });
    }
  }

  // ---- the exclusive raw lease ----

  claimRawLease(clientId: string): void {
    this.requireMutation(clientId, undefined);
    this.rawLease.grant(this.clients.get(clientId));
    this.emit({
      type: 'output',
      text: `${this.clients.get(clientId).label} took the exclusive raw lease: unvetted emulator console commands may change the machine.\n`,
    });
  }

  releaseRawLease(clientId: string): void {
    this.rawLease.release(clientId);
  }

  requireRawLease(clientId: string, opts?: MutationOptions): void {
    this.requireMutation(clientId, opts);
    this.rawLease.syncWithControl(this.lease.info()?.holder.id);
    this.rawLease.require(this.clients.get(clientId));
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
    this.bumpGeneration(`raw console command: ${description}`);
  }

  // ---- labels ----

  /** Names for CPU addresses from symbol profiles and text definitions (not debug info); survive resets. */
  readonly labels = new LabelTable();

  /** The label covering a CPU address (read_memory, hovers ask for it by shape). */
  async symbolAt(address: Address): Promise<{ name: string; offset: number } | undefined> {
    if (address.space !== 'cpu') return undefined;
    const hit = this.labels.at(address.offset);
    return hit ? { name: hit.label.name, offset: hit.offset } : undefined;
  }

  // ---- connector features ----

  feature<T>(key: FeatureKey<T>): T {
    const target = this.requireTarget();
    const found = target.features.get(key);
    if (found === undefined) {
      throw new RetroError('unsupported', `This session's ${target.info.kind} target has no "${key.name}" feature.`, {
        feature: key.name,
        target: target.info.kind,
      });
    }
    return found;
  }

  async control<T, R>(
    clientId: string,
    key: FeatureKey<T>,
    guard: ControlGuard,
    act: (feature: T) => Promise<R>,
  ): Promise<R> {
    this.requireMutation(clientId, guard, guard.needs);
    const feature = this.feature(key);
    this.inspector?.invalidate();
    if (guard.effect !== 'runs') return act(feature);
    // the machine runs: clients hear it before the stop the target will report
    if (this.state === 'stopped') this.startRunning();
    try {
      return await act(feature);
    } catch (err) {
      void this.refreshStop();
      throw err;
    }
  }

  // ---- end ----

  async stop(reason = 'stopped by request'): Promise<void> {
    clearInterval(this.sweeper);
    if (this.state === 'exited' && !this.target) return;
    const target = this.target;
    this.target = undefined;
    this.unsubscribeTarget?.();
    this.stopWaiters.rejectAll(new RetroError('target_lost', `The session ended: ${reason}.`));
    await target?.close().catch(() => undefined);
    this.markExited(reason);
  }

  // ---- internals ----

  private onTargetEvent(e: TargetEvent): void {
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
        this.stopWaiters.rejectAll(new RetroError('target_lost', `The emulator went away: ${e.reason}.`));
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

  /** `decided`: the breakpoints that asked for this stop, once their conditions were evaluated. */
  private publishStop(stop: StopInfo, decided?: number[]): void {
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
    const watchpointIds = stop.reason === 'watchpoint' ? this.watchpoints.hit(stop) : undefined;
    const location = this.inspector?.location(stop.pc);
    this.lastStop = { ...stop, location, breakpoint_ids: breakpointIds, watchpoint_ids: watchpointIds };
    this.emit({
      type: 'stopped',
      stop,
      location,
      generation: this.generation,
      breakpoint_ids: breakpointIds,
      watchpoint_ids: watchpointIds,
    });
  }

  /**
   * A breakpoint with a condition, hit condition or log message was reached:
   * evaluate them at the stop (busy meanwhile, so nobody acts on it), print
   * the logpoints, and either publish the stop or resume without one.
   */
  private async decideStop(stop: StopInfo, ids: number[]): Promise<void> {
    this.busy = true;
    const inspector = this.inspector;
    const decision = await this.hits
      .decide(ids, {
        machine: () => inspector!.exprMachine(0),
        show: async (expression) => (await inspector!.evaluate(expression, 0)).value,
      })
      .catch((err: unknown) => ({ stopping: ids, counted: ids, logs: [], errors: [asRetroError(err).message] }));
    for (const id of decision.counted) this.breakpoints.countHit(id);
    // settled only now: nobody may see a stop that is about to be resumed
    if (!decision.stopping.length) {
      this.state = 'running';
      inspector?.invalidate();
    }
    this.busy = false;
    const location = inspector?.location(stop.pc);
    for (const log of decision.logs) {
      const owner = this.breakpoints.get(log.id).owner.id;
      this.emit({ type: 'output', text: log.text });
      this.emit({ type: 'logpoint', breakpoint_id: log.id, owner, text: log.text, location });
    }
    for (const text of decision.errors) this.emit({ type: 'output', text });
    if (decision.stopping.length) return this.publishStop(stop, decision.stopping);
    // nobody stops here: carry on as if the CPU had never paused
    await Promise.resolve()
      .then(() => this.facet('run').resume())
      .catch((err: unknown) => {
        this.emit({
          type: 'output',
          text: `Resuming after a breakpoint that did not stop failed: ${asRetroError(err).message}`,
        });
        void this.refreshStop();
      });
  }

  /** After a failed step: report wherever the machine actually is. */
  private async refreshStop(): Promise<void> {
    const status = await this.target?.status().catch(() => undefined);
    if (status?.state === 'stopped') this.publishStop({ reason: 'step', pc: status.pc ?? 0 });
  }

  private startRunning(): void {
    this.state = 'running';
    this.inspector?.invalidate();
    this.emit({ type: 'running' });
  }

  private markExited(reason: string): void {
    if (this.state === 'exited' && this.phase === 'exited') return;
    this.state = 'exited';
    this.bumpGeneration(`exit: ${reason}`);
    if (this.phase !== 'failed') this.setPhase('exited', reason);
    this.emit({ type: 'exited', reason });
  }

  private bumpGeneration(reason: string): void {
    this.generation++;
    this.emit({ type: 'generation', generation: this.generation, reason });
  }

  private emit(event: SessionEvent): void {
    this.events.push(event);
  }

  private requireTarget(): Target {
    if (this.target && this.state !== 'exited') return this.target;
    if (this.failure)
      throw new RetroError('target_lost', `The session failed to start: ${this.failure.message}`, {
        cause: this.failure.code,
      });
    if (this.state === 'exited') throw new RetroError('target_lost', 'The emulator of this session has exited.');
    throw new RetroError(
      'not_stopped',
      `The session is still starting (${this.phase}); wait for it with session_status or wait_for_stop.`,
    );
  }

  /** A facet of the target, or the one 'unsupported' refusal with the target's reason. */
  private facet<K extends FacetName>(name: K): NonNullable<Target[K]> {
    const target = this.requireTarget();
    const facet = target[name];
    if (facet) return facet as NonNullable<Target[K]>;
    throw new RetroError(
      'unsupported',
      target.info.missing?.[name] ?? `The ${target.info.kind} target has no ${FACET_TEXT[name]}.`,
      { target: target.info.kind, facet: name },
    );
  }

  private requireInspector(): Inspector {
    this.requireTarget();
    this.requireStopped();
    return this.inspector!;
  }

  private requireStopped(): void {
    if (this.state !== 'stopped' || this.busy) {
      throw notStopped(this.busy ? 'stepping' : this.state, { state: this.state });
    }
  }

  private requireMutation(clientId: string, opts: MutationOptions | undefined, needs?: 'stopped' | 'running'): Target {
    const client = this.clients.get(clientId);
    const target = this.requireTarget();
    if (opts?.generation !== undefined && opts.generation !== this.generation) {
      throw staleGeneration(opts.generation, this.generation);
    }
    this.lease.require(client);
    this.lease.beat(clientId);
    if (needs === 'stopped') this.requireStopped();
    if (needs === 'running' && this.state !== 'running') {
      throw new RetroError(
        'not_running',
        `The machine is ${this.state}; input and similar requests need it running (resume first).`,
        { state: this.state },
      );
    }
    return target;
  }

  private checkRange(address: Address, length: number): void {
    if (!Number.isInteger(length) || length < 1)
      throw new RetroError('bad_request', `Length must be a positive whole number, not ${length}.`);
    if (length > MAX_TRANSFER)
      throw new RetroError(
        'too_large',
        `At most ${MAX_TRANSFER} bytes can be transferred at once; ${length} were asked for.`,
        { max: MAX_TRANSFER },
      );
    if (address.space === 'cpu' || address.space === 'program') {
      const caps = this.requireTarget().info;
      const size = 2 ** (caps.spaceBits?.[address.space] ?? caps.addressBits);
      if (!Number.isInteger(address.offset) || address.offset < 0 || address.offset + length > size) {
        throw new RetroError(
          'bad_address',
          `${hex(address.offset)}+${length} is outside the ${address.space} space (0x0000–${hex(size - 1)}).`,
          { offset: address.offset, length },
        );
      }
    }
  }

  private async sweepExpired(): Promise<void> {
    const lapsed = this.lease.expireIfStale();
    if (lapsed) this.emit({ type: 'lease_changed', lease: undefined });
    if (this.inputs.list().length) await this.releaseInputsWithoutControl();
    for (const client of this.clients.expired()) await this.dropClient(client.id, true);
  }

  private async dropClient(clientId: string, expired: boolean): Promise<void> {
    const client = this.clients.detach(clientId);
    if (!client) return;
    this.releaseControl(clientId);
    this.rawLease.release(clientId);
    const live = this.target && this.state !== 'exited';
    const removed = live ? await this.breakpoints.removeOwnedBy(clientId).catch(() => [] as number[]) : [];
    this.hits.forget(removed);
    const removedWatch = live ? await this.watchpoints.removeOwnedBy(clientId).catch(() => [] as number[]) : [];
    const released = live ? await this.inputs.releaseOwnedBy(clientId) : [];
    if (expired || removed.length || removedWatch.length || released.length) {
      this.emit({
        type: 'owner_expired',
        client,
        removed_breakpoints: removed,
        removed_watchpoints: removedWatch,
        released_inputs: released,
      });
    }
    if (removed.length) this.emit({ type: 'breakpoints_changed', breakpoints: this.breakpoints.list() });
    if (removedWatch.length) this.emit({ type: 'watchpoints_changed', watchpoints: this.watchpoints.list() });
  }
}

const FACET_TEXT: Record<FacetName, string> = {
  run: 'run control or CPU registers',
  breakpoints: 'breakpoints',
  watch: 'watchpoints',
  screen: 'screen',
  input: 'keyboard input',
};
