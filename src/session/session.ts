import { targetSpaceChoices } from '../core/memory-spaces.js';
import { asRetroError, badAddress, unsupported, targetLost } from '../core/errors.js';
import { hex } from '../core/hex.js';
import type {
  Address,
  FeatureKey,
  FrameListener,
  FrameRequest,
  FrameSourceInfo,
  Register,
  ScreenFrame,
  ScreenImage,
  TypedKeys,
} from '../core/target.js';
import type { KeyStroke } from '../core/keys.js';
import { ScreenFeed } from './screen-feed.js';
import type { BreakpointExtras } from './bp-logic.js';
import type { LaunchConfig } from '../core/launch.js';
import { type StepKind } from './line-stepper.js';
import { LabelTable } from './labels.js';
import { ClientHandle, type ClientEngine, type ClientOptions, type ClientSession } from './client-session.js';
import { placeAddress, placeFunction, placeLine, type BreakpointFields } from './breakpoint-placement.js';
import { SessionLifecycle } from './session-lifecycle.js';
import type { SessionWatchSpec } from './types.js';
import { refreshWatched } from './watch-hits.js';
import { annotate, disassemblerFor, disassemblyWindow } from './disassembly.js';
import type {
  BreakpointInfo,
  ClientKind,
  ControlGuard,
  ClientRef,
  LeaseInfo,
  MutationOptions,
  ScopeName,
  SessionApi,
  StackFrameInfo,
  StepGranularity,
  VariableValue,
  HeldInputInfo,
  WatchpointInfo,
} from './types.js';

export type { SessionDeps } from './session-core.js';

/**
 * One live emulator shared by every client. The only place with shared
 * mutable state: run state, the lease, owners, breakpoints, generations.
 * Booting (starting the emulator, running to main) is done by the manager,
 * which hands over a ready Target through `attachTarget`.
 */
export class Session extends SessionLifecycle implements SessionApi, ClientEngine {
  private readonly sweeper: NodeJS.Timeout;
  private feed?: ScreenFeed;

  constructor(config: LaunchConfig, leaseMs: number, clock?: () => number) {
    super(config, leaseMs, clock);
    this.sweeper = setInterval(() => void this.sweepExpired(), Math.max(200, Math.min(1000, leaseMs / 4)));
    this.sweeper.unref();
  }

  attach(kind: ClientKind, label: string, opts?: ClientOptions): ClientSession {
    return new ClientHandle(this, this, this.clients.attach(kind, label, !opts?.closedByFrontEnd), opts);
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

  async resume(clientId: string, opts?: MutationOptions): Promise<void> {
    this.requireMutation(clientId, opts, 'stopped');
    const run = this.facet('run');
    this.startRunning();
    await run.resume();
  }

  async pause(clientId: string, opts?: MutationOptions): Promise<void> {
    this.requireMutation(clientId, opts);
    const run = this.facet('run');
    if (await this.pauseSettled()) return;
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
    this.breakpoints.stepGate.during(run);
  }

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
  }

  /** The loaded program's source files as its debug info names them, with the file on disk when found. */
  sourceFiles(): { file: string; path?: string }[] {
    return (this.index?.sourceFiles() ?? []).map((file) => ({ file, path: this.paths.resolve(file) }));
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
    await this.buildWatch?.assertSame();
    if (extras.hitCondition) fields.hit_condition = extras.hitCondition;
    if (extras.logMessage) fields.log_message = extras.logMessage;
    const logic = await this.hits.compile(fields, extras);
    const bp = await this.breakpoints.add(owner, fields);
    this.hits.keep(bp.id, logic);
    return bp;
  }

  async backtrace(): Promise<StackFrameInfo[]> {
    return this.requireInspector().backtrace();
  }

  async variables(scope: ScopeName, frameIndex = 0): Promise<VariableValue[]> {
    return this.requireInspector().variables(scope, frameIndex);
  }

  async readVariable(expression: string, frameIndex = 0): Promise<VariableValue> {
    return this.requireInspector().evaluate(expression, frameIndex);
  }

  async locateLvalue(expression: string, frameIndex = 0) {
    return this.requireInspector().locate(expression, frameIndex);
  }

  async readRegisters(): Promise<Register[]> {
    return this.facet('run').registers();
  }

  async readMemory(address: Address, length: number): Promise<Uint8Array> {
    this.checkRange(address, length);
    return this.requireTarget().memory.read(address, length);
  }

  readonly memorySpaces = () => targetSpaceChoices(this.requireTarget());

  async writeMemory(clientId: string, address: Address, data: Uint8Array, opts?: MutationOptions): Promise<void> {
    // A target without run control can never stop: it takes writes while running.
    const target = this.requireMutation(clientId, opts, this.target && !this.target.run ? undefined : 'stopped');
    this.refuseInPast('memory');
    this.checkRange(address, data.length);
    await target.memory.write(address, data);
    this.inspector?.invalidate();
    this.noteStateChangingWrite(address, data.length);
    if (address.space === 'cpu')
      await refreshWatched(this.watchpoints, address.offset, data.length, (a, n) => target.memory.read(a, n));
    const back = await target.memory.read(address, data.length);
    const bad = data.findIndex((b, i) => back[i] !== b);
    if (bad >= 0) {
      throw badAddress(
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
    this.refuseInPast('every variable and register');
    const plan = await this.requireInspector().assignment(expression, value, frameIndex);
    await this.applyAssignment(plan, (address, bytes) => this.writeMemory(clientId, address, bytes, opts));
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

  screenshot(): Promise<ScreenImage> {
    return this.screenFeed().screenshot();
  }

  /** Live frames for a viewer (the panel): pushed by the connector, or a screenshot each where it has no push. */
  watchScreen(request: FrameRequest, listener: FrameListener): () => void {
    return this.screenFeed().watch(request, listener);
  }

  /** Changed frames after `sinceFrame` (watch_screen): kept ones, or those that come within `waitMs`. */
  screenFrames(sinceFrame: number, maxFrames: number, waitMs: number): Promise<ScreenFrame[]> {
    return this.screenFeed().collect(sinceFrame, maxFrames, waitMs);
  }

  frameSource(): FrameSourceInfo {
    return this.screenFeed().info;
  }

  setScreenRefresh(fps: number): FrameSourceInfo {
    return this.screenFeed().setRefresh(fps, `${this.config.emulator} session ${this.id}`);
  }

  private screenFeed(): ScreenFeed {
    return (this.feed ??= ScreenFeed.following(
      this,
      () => this.facet('screen'),
      () => this.state === 'running',
    ));
  }

  /** Types strokes (core/keys.ts) on the machine's keyboard (the input facet), under the control lease. */
  async typeKeys(clientId: string, strokes: readonly KeyStroke[], opts?: MutationOptions): Promise<TypedKeys> {
    this.requireMutation(clientId, opts);
    return this.facet('input').typeKeys(strokes);
  }

  async setWatchpoint(clientId: string, spec: SessionWatchSpec): Promise<WatchpointInfo> {
    const owner = this.clients.get(clientId);
    this.checkRange(spec.address, spec.length);
    await this.buildWatch?.assertSame();
    // the bytes now, which its first hit compares against (unreadable: that hit counts as a change)
    const initial = await this.requireTarget()
      .memory.read(spec.address, spec.length)
      .catch(() => undefined);
    const wp = await this.watchpoints.add(owner, spec, initial);
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

  trackInput(clientId: string, what: string, release: () => Promise<void>): number {
    return this.inputs.track(this.clients.get(clientId), what, release);
  }

  untrackInput(id: number): void {
    this.inputs.untrack(id);
  }

  heldInputs(): HeldInputInfo[] {
    return this.inputs.list();
  }

  async disassemble(address: number, offset: number, count: number) {
    const target = this.requireTarget();
    const window = await disassemblyWindow(disassemblerFor(target), address, offset, count);
    return annotate(window, {
      readMemory: (at, length) => target.memory.read({ space: 'cpu', offset: at }, length),
      functionStart: (at) => {
        const fn = this.index?.functionAt(at);
        return fn && fn.start === at ? fn.name : undefined;
      },
      label: (at) => {
        const hit = this.labels.at(at);
        return hit?.offset === 0 ? hit.label.name : this.index?.symbolAt(at);
      },
      location: (at) => this.locationAt(at),
    });
  }

  readonly locationAt = (pc: number) => this.inspector?.location(pc);
  readonly inPrologue = (pc: number) => this.inspector?.inPrologue(pc) ?? false;

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

  /** Names for CPU addresses from symbol profiles and text definitions (not debug info); survive resets. */
  readonly labels = new LabelTable();

  /** The label covering a CPU address (read_memory, hovers ask for it by shape). */
  async symbolAt(address: Address): Promise<{ name: string; offset: number } | undefined> {
    if (address.space !== 'cpu') return undefined;
    const hit = this.labels.at(address.offset);
    return hit ? { name: hit.label.name, offset: hit.offset } : undefined;
  }

  feature<T>(key: FeatureKey<T>): T {
    const target = this.requireTarget();
    const found = target.features.get(key);
    if (found === undefined) {
      throw unsupported(`This session's ${target.info.kind} target has no "${key.name}" feature.`, {
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

  async stop(reason = 'stopped by request'): Promise<void> {
    clearInterval(this.sweeper);
    if (this.state === 'exited' && !this.target) return;
    const target = this.target;
    this.target = undefined;
    this.unsubscribeTarget?.();
    this.stopWaiters.rejectAll(targetLost(`The session ended: ${reason}.`));
    await target?.close().catch(() => undefined);
    this.markExited(reason);
  }

  protected override leaseLapsed(holder: ClientRef): void {
    super.leaseLapsed(holder);
    void this.releaseInputsWithoutControl();
  }

  private async sweepExpired(): Promise<void> {
    this.lease.expireIfStale(); // a lapse is announced by leaseLapsed
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
    if (removedWatch.length) this.emit({ type: 'watchpoints_changed', watchpoints: this.watchpoints.list() });
  }
}
