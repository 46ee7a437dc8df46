/**
 * One DAP client's tie to a shared session: its ClientSession handle, the
 * session's DebugView, its breakpoints, and the launch/attach sequence up to
 * the first stop (or, for a free-running target, what runs). The adapter
 * routes requests; this keeps the state they act on.
 */
import { basename, resolve } from 'node:path';
import { CapabilitiesEvent, ThreadEvent } from '@vscode/debugadapter';
import { hasTimeTravel } from '../session/time-travel.js';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { asRetroError, noSession, launchFailed } from '../core/errors.js';
import type { StopInfo } from '../core/target.js';
import type { ClientSession } from '../session/client-session.js';
import type { SessionApi, SessionManagerApi, SourceLocation } from '../session/types.js';
import { deferred } from './adapter-parts.js';
import { ClientBreakpoints } from './breakpoints.js';
import { ClientDataBreakpoints } from './data-breakpoints.js';
import { CDebugView } from './c-view.js';
import type { DapNotifier } from './dap-notifier.js';
import type { DebugView, DebugViewChooser, DebugViewContext } from './debug-view.js';
import { holderFromError, TAKE_CONTROL_HINT, userSentence } from './error-text.js';
import { parseAttachArgs, parseLaunchArgs } from './launch-args.js';
import { forwardSessionEvent } from './session-events.js';
import type { VariableHandles } from './variables.js';

export type Mode = 'launch' | 'attach';

export interface BindingOptions {
  label: string;
  heartbeatMs: number;
  bootTimeoutMs: number;
  configurationTimeoutMs: number;
  chooseView: DebugViewChooser;
}

/** What runs after the client configured itself: report the stop, or resume. */
export type AfterConfiguration = () => Promise<void>;

export class DapBinding {
  /** this adapter's handle on the shared session while bound */
  private me?: ClientSession;
  /** the bound session's view, chosen once it finished booting */
  private view?: DebugView;
  private breakpoints?: ClientBreakpoints;
  private dataBreakpoints?: ClientDataBreakpoints;
  private cwd = process.cwd();
  /** true once the client finished configuring: from then on session stops are forwarded */
  private configured = false;
  private configurationDone = deferred<void>();
  mode?: Mode;

  constructor(
    private readonly manager: SessionManagerApi,
    private readonly opts: BindingOptions,
    private readonly notify: DapNotifier,
    private readonly handles: VariableHandles,
    private readonly sendEvent: (e: DebugProtocol.Event) => void,
  ) {}

  get isBound(): boolean {
    return this.me !== undefined;
  }

  /** this adapter's handle while bound: the screen panel types and clicks through it for the user */
  get handle(): ClientSession | undefined {
    return this.me;
  }

  async launch(args: unknown): Promise<AfterConfiguration> {
    const parsed = parseLaunchArgs(args, this.manager.connectors);
    this.cwd = resolve(parsed.config.cwd ?? process.cwd());
    const me = this.bind(this.manager.start(parsed.config, this.starter()), 'launch');
    me.claimControl();
    await this.ready(me, true);
    return () => (parsed.stopOnEntry ? this.reportCurrentStop('entry') : this.tryResume());
  }

  async attach(args: unknown): Promise<AfterConfiguration> {
    const parsed = parseAttachArgs(args);
    this.cwd = resolve(parsed.cwd ?? process.cwd());
    const me = this.bind(this.manager.attach(parsed.sessionId, this.starter()), 'attach');
    await this.ready(me, false);
    this.takeControlIfFree(me);
    return () => this.reportCurrentStop();
  }

  configurationFinished(): void {
    this.configurationDone.resolve();
  }

  /** Bounded: a client that never sends configurationDone still gets its session. */
  async waitForConfiguration(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((done) => {
      timer = setTimeout(done, this.opts.configurationTimeoutMs);
    });
    await Promise.race([this.configurationDone.promise, timeout]);
    clearTimeout(timer);
  }

  /** The client is configured: forward stops from now on, then say what runs or where it stopped. */
  async finishConfiguration(after: AfterConfiguration): Promise<void> {
    this.configured = true;
    if (this.me) this.notify.foreignBreakpoints(this.me.session.listBreakpoints(), this.me.id);
    if (await this.announceFreeRunning()) return;
    // also when the launch runs on (no stop reported): VS Code's toolbar offers Step Back only once told
    if (this.me && hasTimeTravel(this.me.session)) this.sendEvent(new CapabilitiesEvent({ supportsStepBack: true }));
    await after();
  }

  /** Stops (launch) or leaves (attach) the session and forgets it; safe to call twice. */
  async release(action: 'stop' | 'detach'): Promise<void> {
    const me = this.me;
    this.me = this.breakpoints = this.dataBreakpoints = this.view = undefined;
    this.configured = false;
    this.configurationDone = deferred<void>();
    this.handles.reset();
    if (!me) return;
    try {
      if (action === 'stop') await me.session.stop(`${this.opts.label} ended`);
    } catch {
      // Already gone: the emulator exited or the session was stopped elsewhere.
    }
    me.close();
  }

  /** A source path from the client, against the launch's cwd. */
  resolvePath(path: string): string {
    return resolve(this.cwd, path);
  }

  bound(): {
    me: ClientSession;
    session: SessionApi;
    breakpoints: ClientBreakpoints;
    dataBreakpoints: ClientDataBreakpoints;
  } {
    if (!this.me || !this.breakpoints || !this.dataBreakpoints) {
      throw noSession('No emulator session: start one with a launch configuration or attach to a running one.');
    }
    const { me, breakpoints, dataBreakpoints } = this;
    return { me, session: me.session, breakpoints, dataBreakpoints };
  }

  /** The handle for a mutation; claims the lease first when nobody else holds it. */
  control(): ClientSession {
    const { me } = this.bound();
    me.claimControl();
    return me;
  }

  /** The bound session's view; before one is chosen (or unbound) the C view, whose requests need a session. */
  currentView(): DebugView {
    return this.view ?? new CDebugView(this.viewContext());
  }

  async refusalText(err: unknown): Promise<string> {
    return userSentence(asRetroError(err), await this.holderLabel(err));
  }

  /**
   * Run control (pause, continue, steps) refused for the lease another client holds: with a host that tells the
   * user itself (`tell`: VS Code's command palette shows any failed request in a modal dialog), it hears the one
   * sentence, the stop the client had is reported again (VS Code waits for one after a step) and the request is
   * answered as done; without one the refusal is the request's error.
   */
  async refusable<T>(tell: ((sentence: string) => void) | undefined, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (err) {
      if (!tell || asRetroError(err).code !== 'lease_held') throw err;
      tell(await this.refusalText(err));
      await this.reportCurrentStop();
      return undefined;
    }
  }

  /** Who holds the lease, for lease refusals whose error does not say. */
  async holderLabel(err: unknown): Promise<string | undefined> {
    const e = asRetroError(err);
    if (e.code !== 'lease_held') return undefined;
    const fromError = holderFromError(e);
    if (fromError || !this.me) return fromError;
    try {
      return (await this.me.session.status()).lease?.holder.label;
    } catch {
      return undefined;
    }
  }

  // ---- internals ----

  /** How this adapter joins a session: its label, and a heartbeat while the connection is open. */
  private starter() {
    return { kind: 'dap' as const, label: this.opts.label, heartbeatMs: this.opts.heartbeatMs };
  }

  private bind(me: ClientSession, mode: Mode): ClientSession {
    this.me = me;
    this.mode = mode;
    const breakpoints = (this.breakpoints = new ClientBreakpoints(me, (err) => this.refusalText(err)));
    const dataBreakpoints = (this.dataBreakpoints = new ClientDataBreakpoints(me, (err) => this.refusalText(err)));
    me.onEvent((e) => {
      try {
        const { configured, handles, notify } = this;
        forwardSessionEvent(e.event, { configured, handles, notify, breakpoints, dataBreakpoints, myId: me.id });
      } catch (err) {
        this.notify.output(`Internal error while handling a session event: ${asRetroError(err).message}\n`, 'stderr');
      }
    });
    me.onControlLost((holder) => this.notify.output(`Control taken by ${holder.label}; ${TAKE_CONTROL_HINT}.\n`));
    return me;
  }

  /**
   * Waits for the boot to finish and picks the session's view. After launch a
   * debuggable CPU must stand at main; a free-running target (a DOS guest) is
   * ready once it runs. A failed boot rejects with the session's own error.
   */
  private async ready(me: ClientSession, mustStop: boolean): Promise<void> {
    const status = await me.whenReady(this.opts.bootTimeoutMs);
    this.view = this.opts.chooseView(this.viewContext());
    if (!mustStop || status.state === 'stopped' || (status.state === 'running' && this.view.freeRunning)) return;
    throw launchFailed(`The program did not stop at main (phase: ${status.phase}, state: ${status.state}).`);
  }

  private viewContext(): DebugViewContext {
    const session = () => this.bound().session;
    return {
      get session(): SessionApi {
        return session();
      },
      handles: this.handles,
      sourceOf: (location: SourceLocation): DebugProtocol.Source => {
        const path = location.path ?? resolve(this.cwd, location.file);
        return { name: basename(path), path };
      },
    };
  }

  /** After launch/attach on a target that always runs: no stop to report; say what runs, list its threads. */
  private async announceFreeRunning(): Promise<boolean> {
    const view = this.view;
    if (!view?.freeRunning) return false;
    if (view.capabilities) this.sendEvent(new CapabilitiesEvent(view.capabilities));
    const what = await view.announce?.();
    if (what) {
      this.notify.output(what.text);
      for (const id of what.threads) this.sendEvent(new ThreadEvent('started', id));
    }
    return true;
  }

  /** Tells the client where the machine stopped, if it is stopped (after a launch, an attach, a refused step). */
  async reportCurrentStop(reasonOverride?: 'entry'): Promise<void> {
    const session = this.me?.session;
    if (!session) return;
    try {
      const status = await session.status();
      if (status.state !== 'stopped') return;
      const stop: StopInfo = { ...(status.last_stop ?? { reason: 'pause', pc: status.pc ?? 0 }) };
      if (reasonOverride) stop.reason = reasonOverride;
      const location = status.location ?? status.last_stop?.location;
      this.notify.stopped(stop, location, status.last_stop?.breakpoint_ids ?? [], this.breakpoints);
    } catch (err) {
      this.notify.output(`Could not read the CPU state: ${asRetroError(err).message}\n`, 'stderr');
    }
  }

  private async tryResume(): Promise<void> {
    try {
      await this.control().resume();
    } catch (err) {
      this.notify.output(`Could not run the program: ${await this.refusalText(err)}\n`, 'stderr');
      await this.reportCurrentStop();
    }
  }

  private takeControlIfFree(me: ClientSession): void {
    try {
      me.claimControl();
    } catch (err) {
      const e = asRetroError(err);
      if (e.code !== 'lease_held') throw e;
      this.notify.output(`${userSentence(e)} Until then you can inspect but not run, step or set breakpoints.\n`);
    }
  }
}
