/**
 * One front end's handle on a shared session: it owns the client id, the
 * heartbeat and what this client knows about the lease, so front ends never
 * pass a client id around or mirror the lease themselves. Every call made
 * through the handle counts as life; the optional timer keeps a connected but
 * quiet front end (an idle VS Code debug session) alive.
 */
import { RetroError, targetLost, notFound, timedOut } from '../core/errors.js';
import type { Address, FeatureKey, TypedKeys } from '../core/target.js';
import type { SessionWatchSpec, SnapshotSource } from './types.js';
import type { KeyStroke } from '../core/keys.js';
import type {
  BreakpointExtras,
  BreakpointInfo,
  ClientOptions,
  ClientRef,
  ClientSession,
  ControlGuard,
  LeaseInfo,
  MutationOptions,
  QueuedEvent,
  RestartKind,
  SessionApi,
  SessionStatus,
  StepGranularity,
  VariableValue,
  WatchpointInfo,
} from './types.js';

export type { ClientOptions, ClientSession } from './types.js';

/** What the session engine offers per client; only src/session implements it, only ClientSession calls it. */
export interface ClientEngine {
  leaseHolderId(): string | undefined;
  detachClient(clientId: string): void;
  heartbeat(clientId: string): void;
  claimControl(clientId: string, opts?: { takeOver?: boolean }): LeaseInfo;
  releaseControl(clientId: string): void;
  resume(clientId: string, opts?: MutationOptions): Promise<void>;
  pause(clientId: string, opts?: MutationOptions): Promise<void>;
  stepInto(clientId: string, granularity?: StepGranularity, opts?: MutationOptions): Promise<void>;
  stepOver(clientId: string, granularity?: StepGranularity, opts?: MutationOptions): Promise<void>;
  stepOut(clientId: string, opts?: MutationOptions): Promise<void>;
  reset(clientId: string, kind: RestartKind, opts?: MutationOptions): Promise<void>;
  saveState(clientId: string, opts?: MutationOptions): Promise<Uint8Array>;
  loadState(clientId: string, file: SnapshotSource, opts?: MutationOptions): Promise<void>;
  setLineBreakpoint(
    clientId: string,
    file: string,
    line: number,
    condition?: string,
    extras?: BreakpointExtras,
  ): Promise<BreakpointInfo>;
  setFunctionBreakpoint(
    clientId: string,
    name: string,
    condition?: string,
    extras?: BreakpointExtras,
  ): Promise<BreakpointInfo>;
  setAddressBreakpoint(
    clientId: string,
    address: Address,
    condition?: string,
    extras?: BreakpointExtras,
  ): Promise<BreakpointInfo>;
  clearBreakpoint(clientId: string, id: number): Promise<void>;
  writeMemory(clientId: string, address: Address, data: Uint8Array, opts?: MutationOptions): Promise<void>;
  setExpression(
    clientId: string,
    expression: string,
    value: string,
    frameIndex?: number,
    opts?: MutationOptions,
  ): Promise<VariableValue>;
  setWatchpoint(clientId: string, spec: SessionWatchSpec): Promise<WatchpointInfo>;
  clearWatchpoint(clientId: string, id: number): Promise<void>;
  control<T, R>(clientId: string, key: FeatureKey<T>, guard: ControlGuard, act: (feature: T) => Promise<R>): Promise<R>;
  typeKeys(clientId: string, strokes: readonly KeyStroke[], opts?: MutationOptions): Promise<TypedKeys>;
  trackInput(clientId: string, what: string, release: () => Promise<void>): number;
  claimRawLease(clientId: string): void;
  releaseRawLease(clientId: string): void;
  requireRawLease(clientId: string, opts?: MutationOptions): void;
}

/** Bootstrapping phases: not yet ready, not ended. */
const BOOTING = new Set(['starting_emulator', 'booting', 'program_loaded']);

export class ClientHandle implements ClientSession {
  private timer?: NodeJS.Timeout;
  private closedFlag = false;
  private holding = false;
  private releasing = false;
  private readonly losses: string[] = [];
  private readonly unsubscribe: () => void;
  private readonly controlLost = new Set<(holder: ClientRef) => void>();
  private readonly lossListeners = new Set<(text: string) => void>();
  private readonly subscriptions = new Set<() => void>();

  constructor(
    /** the shared session: reads, events and identity, the same for every client */
    readonly session: SessionApi,
    private readonly engine: ClientEngine,
    /** who this handle is, as others see it (breakpoint owners, lease refusals) */
    readonly client: ClientRef,
    opts: ClientOptions = {},
  ) {
    this.holding = engine.leaseHolderId() === client.id;
    this.unsubscribe = session.onEvent((q) => this.noteLoss(q));
    if (opts.heartbeatMs) {
      this.timer = setInterval(() => {
        if (opts.isAlive?.() ?? true) this.beatQuietly();
      }, opts.heartbeatMs);
      this.timer.unref();
    }
  }

  /** This client's id in the session. */
  get id(): string {
    return this.client.id;
  }

  /** how others see this client, e.g. "MCP client claude-code" */
  get label(): string {
    return this.client.label;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Whether this client holds the control lease, as of the latest lease change. */
  get holdsControl(): boolean {
    return this.holding;
  }

  /** Called when another client takes the lease from this one (not on release or lapse). */
  onControlLost(listener: (holder: ClientRef) => void): () => void {
    this.controlLost.add(listener);
    return () => this.controlLost.delete(listener);
  }

  /** A sign of life (any request counts); throws not_found once the session dropped this client. */
  beat(): void {
    this.live();
  }

  /** What this client lost since the last call (each sentence once), for the front end's next reply. */
  takeLosses(): string[] {
    return this.losses.splice(0);
  }

  /** Each loss as it happens (MCP sends it as a logging notification at once; the next reply repeats it). */
  onLoss(listener: (text: string) => void): () => void {
    this.lossListeners.add(listener);
    return () => this.lossListeners.delete(listener);
  }

  private lose(text: string): void {
    this.losses.push(text);
    for (const l of [...this.lossListeners]) l(text);
  }

  // ---- lease ----

  claimControl(opts: { takeOver?: boolean } = {}): LeaseInfo {
    const lease = this.engine.claimControl(this.live(), opts);
    this.holding = true;
    return lease;
  }

  /** Claims the lease when nobody else holds it; false (no error) when someone does. */
  tryClaim(): boolean {
    try {
      this.claimControl();
      return true;
    } catch (err) {
      if (err instanceof RetroError && err.code === 'lease_held') return false;
      throw err;
    }
  }

  releaseControl(): void {
    const id = this.live();
    this.releasing = true; // our own release is no loss
    try {
      this.engine.releaseControl(id);
    } finally {
      this.releasing = false;
    }
    this.holding = false;
  }

  /**
   * The one guarded path for mutating through a connector feature: refused
   * unless this client holds the lease, names the current generation (when
   * given) and the CPU is as `guard.needs` says; then runs `act` with the
   * feature, the session following the run-state change `guard.effect` names.
   */
  async control<T, R>(key: FeatureKey<T>, guard: ControlGuard, act: (feature: T) => Promise<R>): Promise<R> {
    return this.engine.control(this.live(), key, guard, act);
  }

  /** Types strokes (core/keys.ts) on the machine's keyboard (the target's input facet); needs the lease. */
  async typeKeys(strokes: readonly KeyStroke[], opts?: MutationOptions): Promise<TypedKeys> {
    return this.engine.typeKeys(this.live(), strokes, opts);
  }

  claimRawLease(): void {
    this.engine.claimRawLease(this.live());
  }

  releaseRawLease(): void {
    this.engine.releaseRawLease(this.live());
  }

  requireRawLease(opts?: MutationOptions): void {
    this.engine.requireRawLease(this.live(), opts);
  }

  // ---- waiting, without polling ----

  /**
   * Resolves once the session finished booting (phase 'ready'), at once when it
   * already has; rejects with the session's own error when the boot failed,
   * target_lost when it ended, timeout after `timeoutMs`.
   */
  async whenReady(timeoutMs: number, signal?: AbortSignal): Promise<SessionStatus> {
    const status = await this.until(
      timeoutMs,
      (q) => q.event.type === 'phase' || q.event.type === 'exited',
      async () => {
        const s = await this.session.status();
        return BOOTING.has(s.phase) ? undefined : s;
      },
      (s) =>
        `Session ${this.session.id} was still starting after ${timeoutMs / 1000} s (${s.progress.at(-1) ?? s.phase}).`,
      signal,
    );
    if (status.phase === 'ready') return status;
    if (status.error) throw new RetroError(status.error.code as never, status.error.message);
    throw targetLost(`Session ${this.session.id} has ended (${status.progress.at(-1) ?? status.phase}).`);
  }

  /**
   * The next stop (or exit) after this call. With `command`, the wait is armed
   * before the command runs, so a stop that comes while it is acknowledged is
   * not missed; the timeout counts from the command's end. Rejects with
   * 'timeout' when none came in time.
   */
  async nextStop(timeoutMs: number, command?: () => Promise<void>, signal?: AbortSignal): Promise<SessionStatus> {
    let seen = false;
    const off = this.session.onEvent((q) => {
      if (isStop(q)) seen = true;
    });
    try {
      if (command) await command();
      return await this.until(
        timeoutMs,
        isStop,
        async () => (seen ? this.session.status() : undefined),
        (s) => `The machine did not stop within ${timeoutMs} ms; it is still ${s.state}.`,
        signal,
      );
    } finally {
      off();
    }
  }

  /** Events of the shared session; the subscription ends with the handle. */
  onEvent(listener: (e: QueuedEvent) => void): () => void {
    const off = this.session.onEvent(listener);
    this.subscriptions.add(off);
    return () => {
      off();
      this.subscriptions.delete(off);
    };
  }

  // ---- run control (need the lease) ----

  async resume(opts?: MutationOptions): Promise<void> {
    return this.engine.resume(this.live(), opts);
  }

  async pause(opts?: MutationOptions): Promise<void> {
    return this.engine.pause(this.live(), opts);
  }

  async stepInto(granularity?: StepGranularity, opts?: MutationOptions): Promise<void> {
    return this.engine.stepInto(this.live(), granularity, opts);
  }

  async stepOver(granularity?: StepGranularity, opts?: MutationOptions): Promise<void> {
    return this.engine.stepOver(this.live(), granularity, opts);
  }

  async stepOut(opts?: MutationOptions): Promise<void> {
    return this.engine.stepOut(this.live(), opts);
  }

  async reset(kind: RestartKind, opts?: MutationOptions): Promise<void> {
    return this.engine.reset(this.live(), kind, opts);
  }

  async saveState(opts?: MutationOptions): Promise<Uint8Array> {
    return this.engine.saveState(this.live(), opts);
  }

  async loadState(file: SnapshotSource, opts?: MutationOptions): Promise<void> {
    return this.engine.loadState(this.live(), file, opts);
  }

  async writeMemory(address: Address, data: Uint8Array, opts?: MutationOptions): Promise<void> {
    return this.engine.writeMemory(this.live(), address, data, opts);
  }

  /** Set Value on a C lvalue (`x`, `p->y`, `arr[3]`) in a frame: range-checked by its type, never into code. */
  async setExpression(
    expression: string,
    value: string,
    frameIndex = 0,
    opts?: MutationOptions,
  ): Promise<VariableValue> {
    return this.engine.setExpression(this.live(), expression, value, frameIndex, opts);
  }

  // ---- what this client owns: breakpoints, watchpoints, held input ----

  /** `condition` is C; `extras` a hit condition and a logpoint message (session/bp-logic.ts). */
  async setLineBreakpoint(
    file: string,
    line: number,
    condition?: string,
    extras?: BreakpointExtras,
  ): Promise<BreakpointInfo> {
    return this.engine.setLineBreakpoint(this.live(), file, line, condition, extras);
  }

  async setFunctionBreakpoint(name: string, condition?: string, extras?: BreakpointExtras): Promise<BreakpointInfo> {
    return this.engine.setFunctionBreakpoint(this.live(), name, condition, extras);
  }

  async setAddressBreakpoint(address: Address, condition?: string, extras?: BreakpointExtras): Promise<BreakpointInfo> {
    return this.engine.setAddressBreakpoint(this.live(), address, condition, extras);
  }

  async clearBreakpoint(id: number): Promise<void> {
    return this.engine.clearBreakpoint(this.live(), id);
  }

  async setWatchpoint(spec: SessionWatchSpec): Promise<WatchpointInfo> {
    return this.engine.setWatchpoint(this.live(), spec);
  }

  async clearWatchpoint(id: number): Promise<void> {
    return this.engine.clearWatchpoint(this.live(), id);
  }

  /** Records an input this client now holds; `release` undoes it. Returns its id. */
  trackInput(what: string, release: () => Promise<void>): number {
    return this.engine.trackInput(this.live(), what, release);
  }

  /** Whether a breakpoint, watchpoint or held input belongs to this client. */
  owns(thing: { owner: ClientRef }): boolean {
    return thing.owner.id === this.client.id;
  }

  // ---- end ----

  /** Leaves the session: the lease and everything this client owns are released. Safe to call twice. */
  close(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    clearInterval(this.timer);
    this.unsubscribe();
    for (const off of this.subscriptions) off();
    this.subscriptions.clear();
    try {
      this.engine.detachClient(this.client.id);
    } catch {
      // the session is gone already
    }
  }

  // ---- internals ----

  /** The client id for a call, counting the call as life. */
  private live(): string {
    if (this.closedFlag)
      throw notFound(`${this.client.label} has left session ${this.session.id}.`, {
        client_id: this.client.id,
      });
    this.engine.heartbeat(this.client.id);
    return this.client.id;
  }

  private beatQuietly(): void {
    try {
      this.engine.heartbeat(this.client.id);
    } catch {
      // dropped by the session (expired, or it ended): its events tell the front end
    }
  }

  private noteLoss(q: QueuedEvent): void {
    const e = q.event;
    if (e.type === 'owner_expired' && e.client.id === this.client.id) {
      const what = [
        ...(e.removed_breakpoints.length ? [`breakpoints ${e.removed_breakpoints.join(', ')}`] : []),
        ...(e.removed_watchpoints?.length ? [`watchpoints ${e.removed_watchpoints.join(', ')}`] : []),
        ...(e.released_inputs?.length ? [`held inputs ${e.released_inputs.join(', ')}`] : []),
      ];
      this.lose(
        `Session ${this.session.id} dropped this client after it showed no life for the lease time` +
          (what.length ? `; removed its ${what.join(', ')}.` : '.'),
      );
      return;
    }
    if (e.type !== 'lease_changed') return;
    const mine = e.lease?.holder.id === this.client.id;
    const lost = this.holding && !mine;
    this.holding = mine;
    if (!lost || this.closedFlag) return;
    if (e.lease) {
      this.lose(`${e.lease.holder.label} took the control lease of session ${this.session.id} from this client.`);
      for (const l of [...this.controlLost]) l(e.lease.holder);
    } else if (e.lapsed?.id === this.client.id) {
      this.lose(
        `The control lease of session ${this.session.id} lapsed: no request from this client within the lease time. ` +
          'Its breakpoints and watchpoints are kept; claim control again to run, step or write.',
      );
    } else if (!this.releasing) {
      this.lose(`This client no longer holds the control lease of session ${this.session.id}.`);
    }
  }

  /**
   * Waits until `check` yields a status, re-checking after each event `relevant`
   * accepts. The listener is armed before the first check, so an event cannot
   * slip between a check and the wait.
   */
  private async until(
    timeoutMs: number,
    relevant: (q: QueuedEvent) => boolean,
    check: () => Promise<SessionStatus | undefined>,
    timeoutText: (last: SessionStatus) => string,
    signal?: AbortSignal,
  ): Promise<SessionStatus> {
    let wake: () => void = () => undefined;
    const off = this.session.onEvent((q) => {
      if (relevant(q)) wake();
    });
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    // the caller gave up (an MCP client's notifications/cancelled): end the wait now, nothing changed
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(timedOut('The wait was cancelled by the client; nothing changed.'));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    try {
      for (;;) {
        const woken = new Promise<'event'>((resolve) => (wake = () => resolve('event')));
        const hit = await check();
        if (hit) return hit;
        if ((await Promise.race([woken, expired, aborted])) === 'timeout') {
          throw timedOut(timeoutText(await this.session.status()), { timeout_ms: timeoutMs });
        }
      }
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      off();
    }
  }
}

function isStop(q: QueuedEvent): boolean {
  return q.event.type === 'stopped' || q.event.type === 'exited';
}
