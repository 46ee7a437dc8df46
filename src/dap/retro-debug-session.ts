/**
 * The `retro` Debug Adapter: one DAP client (VS Code, a test, the CLI's
 * `serve`) as one client of a shared Session. No `vscode` import, so the same
 * class runs inline in the extension host, over stdio and over TCP.
 *
 * Every request handler is async and answers with an error response instead
 * of throwing; a RetroError becomes the sentence a person reads.
 */
import { basename, resolve } from 'node:path';
import {
  BreakpointEvent,
  CapabilitiesEvent,
  ContinuedEvent,
  DebugSession,
  InitializedEvent,
  InvalidatedEvent,
  MemoryEvent,
  OutputEvent,
  StoppedEvent,
  TerminatedEvent,
  ThreadEvent,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { asRetroError, RetroError } from '../core/errors.js';
import type {
  LeaseInfo,
  ScopeName,
  SessionApi,
  SessionEvent,
  SessionManagerApi,
  SourceLocation,
  VariableValue,
} from '../session/types.js';
import type { StopInfo } from '../core/target.js';
import type { ClientSession } from '../session/client-session.js';
import { ClientBreakpoints, foreignBreakpointSummary } from './breakpoints.js';
import { holderFromError, TAKE_CONTROL_HINT, toDapMessage, userSentence } from './error-text.js';
import { parseAttachArgs, parseLaunchArgs } from './launch-args.js';
import { dapStopReason, describeStop } from './stop-text.js';
import { parseMemoryReference, toDapVariable, VariableHandles } from './variables.js';
import { evaluateLabel, labelScope } from './labels-view.js';
import {
  dosBios,
  dosFrames,
  dosOf,
  dosPrograms,
  dosSymbols,
  dosThreads,
  encodeSymbol,
  evaluateDos,
} from '../connectors/dosbox/front/dap-view.js';
import { hex } from '../core/hex.js';

export interface RetroDebugSessionOptions {
  /** how this client is named to others (lease refusals, breakpoint owners) */
  label?: string;
  /** heartbeat period while connected; must be well under the manager's lease time */
  heartbeatMs?: number;
  /** longest wait for MAME to boot and stop at main */
  bootTimeoutMs?: number;
  /** longest wait for the client's configurationDone after `initialized` */
  configurationTimeoutMs?: number;
}

const THREAD_ID = 1;
/** Bounds on what one request may move. */
const MAX_MEMORY_BYTES = 0x10000;
const MAX_EXPRESSION_CHARS = 256;

type Mode = 'launch' | 'attach';

export class RetroDebugSession extends DebugSession {
  private readonly label: string;
  private readonly heartbeatMs: number;
  private readonly bootTimeoutMs: number;
  private readonly configurationTimeoutMs: number;

  private clientCaps: Partial<DebugProtocol.InitializeRequestArguments> = {};
  /** this adapter's handle on the shared session while bound */
  private me?: ClientSession;
  private mode?: Mode;
  private cwd = process.cwd();
  private breakpoints?: ClientBreakpoints;
  private readonly handles = new VariableHandles();
  /** true once the client finished configuring: from then on session stops are forwarded */
  private configured = false;
  private configurationDone = deferred<void>();
  private lastForeignSummary?: string;
  private terminatedSent = false;
  private closing?: Promise<void>;
  private readonly closedSignal = deferred<void>();

  /** Resolves once the client disconnected (or the connection dropped) and the session was released. */
  readonly closed: Promise<void> = this.closedSignal.promise;

  constructor(
    private readonly manager: SessionManagerApi,
    options: RetroDebugSessionOptions = {},
  ) {
    super();
    this.label = options.label ?? 'VS Code debug session';
    this.heartbeatMs = options.heartbeatMs ?? Math.min(5_000, manager.leaseMs / 4);
    this.bootTimeoutMs = options.bootTimeoutMs ?? 120_000;
    this.configurationTimeoutMs = options.configurationTimeoutMs ?? 30_000;
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
    // Process lifetime belongs to whoever hosts us (stdio-main, serveDap, the
    // extension), never to the base class's process.exit in shutdown().
    this.setRunAsServer(true);
  }

  /** Releases the session (stops the emulator if this client launched it) and resolves `closed`. */
  end(): Promise<void> {
    this.closing ??= this.release(this.mode === 'launch' ? 'stop' : 'detach').then(() => this.closedSignal.resolve());
    return this.closing;
  }

  /** The connection closed or errored (base class calls this). */
  override shutdown(): void {
    void this.end();
  }

  override dispose(): void {
    void this.end();
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  protected override initializeRequest(
    response: DebugProtocol.InitializeResponse,
    args: DebugProtocol.InitializeRequestArguments,
  ): void {
    this.clientCaps = args ?? {};
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsFunctionBreakpoints: true,
      supportsConditionalBreakpoints: true,
      supportsEvaluateForHovers: true,
      supportsReadMemoryRequest: true,
      supportsWriteMemoryRequest: true,
      supportsSteppingGranularity: true,
      supportsTerminateRequest: true,
      supportTerminateDebuggee: true,
      supportsRestartRequest: false,
      supportsSetVariable: false,
    };
    this.sendResponse(response);
  }

  protected override launchRequest(
    response: DebugProtocol.LaunchResponse,
    args: DebugProtocol.LaunchRequestArguments,
  ): void {
    void this.runLaunch(response, args);
  }

  private async runLaunch(response: DebugProtocol.LaunchResponse, args: unknown): Promise<void> {
    let stopOnEntry: boolean;
    try {
      this.assertUnbound();
      const parsed = parseLaunchArgs(args);
      stopOnEntry = parsed.stopOnEntry;
      this.cwd = resolve(parsed.config.cwd ?? process.cwd());
      const me = this.manager.start(parsed.config, this.starter());
      this.bind(me, 'launch');
      try {
        me.claimControl();
        await this.waitForEntry(me);
      } catch (err) {
        await this.release('stop');
        throw err;
      }
      this.sendEvent(new InitializedEvent());
      await this.waitForConfiguration();
      this.sendResponse(response);
    } catch (err) {
      await this.sendError(response, err);
      return;
    }
    this.configured = true;
    this.announceForeignBreakpoints();
    if (await this.announceFreeRunning()) return;
    if (stopOnEntry) {
      await this.reportCurrentStop('entry');
    } else {
      await this.tryResume();
    }
  }

  protected override attachRequest(
    response: DebugProtocol.AttachResponse,
    args: DebugProtocol.AttachRequestArguments,
  ): void {
    void this.runAttach(response, args);
  }

  private async runAttach(response: DebugProtocol.AttachResponse, args: unknown): Promise<void> {
    try {
      this.assertUnbound();
      const parsed = parseAttachArgs(args);
      this.cwd = resolve(parsed.cwd ?? process.cwd());
      const me = this.manager.attach(parsed.sessionId, this.starter());
      this.bind(me, 'attach');
      await me.whenReady(this.bootTimeoutMs);
      this.takeControlIfFree(me);
      this.sendEvent(new InitializedEvent());
      await this.waitForConfiguration();
      this.sendResponse(response);
    } catch (err) {
      await this.release('detach');
      await this.sendError(response, err);
      return;
    }
    this.configured = true;
    this.announceForeignBreakpoints();
    if (await this.announceFreeRunning()) return;
    await this.reportCurrentStop();
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.configurationDone.resolve();
    this.sendResponse(response);
  }

  protected override disconnectRequest(
    response: DebugProtocol.DisconnectResponse,
    args: DebugProtocol.DisconnectArguments,
  ): void {
    // After attach the emulator always keeps running; after launch it stops unless told otherwise.
    const stop = this.mode === 'launch' && args?.terminateDebuggee !== false;
    this.closing ??= this.release(stop ? 'stop' : 'detach');
    void this.closing.then(() => {
      this.sendResponse(response);
      this.closedSignal.resolve();
    });
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.handle(response, async () => {
      await this.release(this.mode === 'launch' ? 'stop' : 'detach');
      this.sendTerminated();
    });
  }

  protected override restartRequest(response: DebugProtocol.RestartResponse): void {
    this.sendError(response, new RetroError('unsupported', 'Restart is not supported; stop and launch again.'));
  }

  // ---- breakpoints -------------------------------------------------------------------------

  protected override setBreakPointsRequest(
    response: DebugProtocol.SetBreakpointsResponse,
    args: DebugProtocol.SetBreakpointsArguments,
  ): void {
    this.handle(response, async () => {
      const { me, breakpoints } = this.bound();
      const path = args?.source?.path;
      if (!path) throw new RetroError('bad_request', 'Breakpoints need a source file on disk.');
      const wanted: DebugProtocol.SourceBreakpoint[] = args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }));
      me.tryClaim();
      const list = await breakpoints.replaceLineBreakpoints(
        resolve(this.cwd, path),
        wanted.map((b) => ({ line: b.line, condition: b.condition })),
      );
      return { breakpoints: list };
    });
  }

  protected override setFunctionBreakPointsRequest(
    response: DebugProtocol.SetFunctionBreakpointsResponse,
    args: DebugProtocol.SetFunctionBreakpointsArguments,
  ): void {
    this.handle(response, async () => {
      const { me, breakpoints } = this.bound();
      const wanted = (args?.breakpoints ?? []).map((b) => ({ name: b.name, condition: b.condition }));
      me.tryClaim();
      return { breakpoints: await breakpoints.replaceFunctionBreakpoints(wanted) };
    });
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse): void {
    this.sendResponse(response);
  }

  // ---- run control -------------------------------------------------------------------------

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    this.handle(response, async () => {
      const me = this.control();
      this.handles.reset();
      await me.resume();
      return { allThreadsContinued: true };
    });
  }

  protected override nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.handle(response, async () => {
      const me = this.control();
      this.handles.reset();
      await me.stepOver(granularity(args?.granularity));
    });
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    this.handle(response, async () => {
      const me = this.control();
      this.handles.reset();
      await me.stepInto(granularity(args?.granularity));
    });
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.handle(response, async () => {
      const me = this.control();
      this.handles.reset();
      await me.stepOut();
    });
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.handle(response, async () => {
      await this.control().pause();
    });
  }

  // ---- inspection --------------------------------------------------------------------------

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const dos = this.me && dosOf(this.me.session);
    if (dos) return this.handle(response, async () => ({ threads: await dosThreads(dos) }));
    response.body = { threads: [{ id: THREAD_ID, name: 'CPU' }] };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(
    response: DebugProtocol.StackTraceResponse,
    args: DebugProtocol.StackTraceArguments,
  ): void {
    this.handle(response, async () => {
      const dos = dosOf(this.bound().session);
      if (dos) {
        const stackFrames = await dosFrames(dos, args?.threadId ?? 0);
        return { stackFrames, totalFrames: stackFrames.length };
      }
      const frames = await this.bound().session.backtrace();
      const start = Math.max(0, args?.startFrame ?? 0);
      const end = args?.levels ? start + args.levels : frames.length;
      const stackFrames: DebugProtocol.StackFrame[] = frames.slice(start, end).map((f) => {
        const frame: DebugProtocol.StackFrame = {
          id: f.index + 1,
          name: f.function || hex(f.pc),
          line: f.location?.line ?? 0,
          column: f.location ? 1 : 0,
          instructionPointerReference: hex(f.pc),
        };
        if (f.location) frame.source = this.sourceOf(f.location);
        else frame.presentationHint = 'subtle';
        return frame;
      });
      return { stackFrames, totalFrames: frames.length };
    });
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    this.handle(response, async () => {
      const dos = dosOf(this.bound().session);
      if (dos) return { scopes: await this.dosScopes(dos) };
      const frameIndex = frameIndexOf(args?.frameId);
      const scope = (name: string, scope: ScopeName, hint?: string): DebugProtocol.Scope => ({
        name,
        presentationHint: hint,
        expensive: false,
        variablesReference: this.handles.create({ kind: 'scope', scope, frameIndex }),
      });
      const scopes = [
        scope('Locals', 'locals', 'locals'),
        scope('Globals', 'globals'),
        scope('Registers', 'registers', 'registers'),
      ];
      const labels = labelScope(this.bound().session);
      if (labels)
        scopes.push({
          name: 'Labels',
          expensive: false,
          variablesReference: this.handles.create({ kind: 'children', children: labels }),
        });
      return { scopes };
    });
  }

  protected override variablesRequest(
    response: DebugProtocol.VariablesResponse,
    args: DebugProtocol.VariablesArguments,
  ): void {
    this.handle(response, async () => {
      const { session } = this.bound();
      const container = this.handles.get(args?.variablesReference);
      // A reference from before the CPU last moved: nothing to show rather than an error popup.
      if (!container) return { variables: [] };
      const values =
        container.kind === 'scope'
          ? await session.variables(container.scope, container.frameIndex)
          : container.children;
      const start = Math.max(0, args.start ?? 0);
      const page = args.count ? values.slice(start, start + args.count) : values.slice(start);
      return { variables: page.map((v) => toDapVariable(v, this.handles)) };
    });
  }

  protected override evaluateRequest(
    response: DebugProtocol.EvaluateResponse,
    args: DebugProtocol.EvaluateArguments,
  ): void {
    this.handle(response, async () => {
      const { session } = this.bound();
      const expression = String(args?.expression ?? '').trim();
      if (!expression) throw new RetroError('bad_request', 'Nothing to evaluate: give a variable name.');
      if (expression.length > MAX_EXPRESSION_CHARS) {
        throw new RetroError('too_large', `Expressions are limited to ${MAX_EXPRESSION_CHARS} characters.`);
      }
      const dos = dosOf(session);
      const fromDos = dos && (await evaluateDos(dos, expression));
      if (dos && !fromDos)
        throw new RetroError(
          'not_found',
          `"${expression}" is neither "screen", a profile symbol nor a DOS address (e.g. 0192:0100, ds:10, 0x1D2C7).`,
        );
      // a name that is no C variable may be a session label (symbol profile, text definition)
      const value: VariableValue = fromDos
        ? fromDos
        : await session.readVariable(expression, frameIndexOf(args.frameId)).catch((err: unknown): VariableValue => {
            const label = evaluateLabel(session, expression);
            if (!label) throw err;
            return label;
          });
      const v = toDapVariable(value, this.handles);
      return {
        result: v.value,
        type: v.type,
        variablesReference: v.variablesReference,
        memoryReference: v.memoryReference,
      };
    });
  }

  protected override readMemoryRequest(
    response: DebugProtocol.ReadMemoryResponse,
    args: DebugProtocol.ReadMemoryArguments,
  ): void {
    this.handle(response, async () => {
      const { session } = this.bound();
      const count = args?.count ?? 0;
      if (!Number.isInteger(count) || count < 0)
        throw new RetroError('bad_request', 'The byte count must be a whole number.');
      if (count > MAX_MEMORY_BYTES) {
        throw new RetroError(
          'too_large',
          `At most ${MAX_MEMORY_BYTES} bytes can be read at once (asked for ${count}).`,
        );
      }
      const address = parseMemoryReference(args.memoryReference, args.offset ?? 0);
      const data = count ? await session.readMemory(address, count) : new Uint8Array(0);
      return { address: hex(address.offset), data: Buffer.from(data).toString('base64') };
    });
  }

  protected override writeMemoryRequest(
    response: DebugProtocol.WriteMemoryResponse,
    args: DebugProtocol.WriteMemoryArguments,
  ): void {
    this.handle(response, async () => {
      const address = parseMemoryReference(args?.memoryReference, args?.offset ?? 0);
      const data = Buffer.from(String(args.data ?? ''), 'base64');
      if (data.length > MAX_MEMORY_BYTES) {
        throw new RetroError('too_large', `At most ${MAX_MEMORY_BYTES} bytes can be written at once.`);
      }
      await this.control().writeMemory(address, data);
      if (this.clientCaps.supportsMemoryEvent) this.sendEvent(new MemoryEvent(hex(address.offset), 0, data.length));
      this.invalidate(['variables']);
      return { bytesWritten: data.length };
    });
  }

  /** Only for DOS guests (announced with a capabilities event): profile symbols are set by value. */
  protected override setVariableRequest(
    response: DebugProtocol.SetVariableResponse,
    args: DebugProtocol.SetVariableArguments,
  ): void {
    this.handle(response, async () => {
      const dos = dosOf(this.bound().session);
      if (!dos)
        throw new RetroError(
          'unsupported',
          'Setting variables is not supported here; write memory in the memory view.',
        );
      const { physical, bytes } = encodeSymbol(dos, String(args?.name ?? ''), String(args?.value ?? ''));
      await this.control().writeMemory({ space: 'cpu', offset: physical }, bytes);
      const now = await evaluateDos(dos, args.name);
      if (this.clientCaps.supportsMemoryEvent) this.sendEvent(new MemoryEvent(hex(physical, 5), 0, bytes.length));
      return { value: now?.value ?? '', type: now?.type };
    });
  }

  // ---- control commands (the extension's 'Retro Debug: Take Control', or custom requests) ----

  /** Takes the control lease over explicitly, even from another client. */
  takeControl(): LeaseInfo {
    const lease = this.bound().me.claimControl({ takeOver: true });
    this.output('This debug session now has control of the emulator.\n');
    return lease;
  }

  protected override customRequest(command: string, response: DebugProtocol.Response): void {
    switch (command) {
      case 'retro/takeControl':
        return this.handle(response, async () => {
          this.takeControl();
        });
      case 'retro/releaseControl':
        return this.handle(response, async () => {
          this.bound().me.releaseControl();
        });
      default:
        this.sendError(response, new RetroError('bad_request', `Unknown request "${command}".`));
    }
  }

  // ---- session binding ---------------------------------------------------------------------

  /** How this adapter joins a session: its label, and a heartbeat while the connection is open. */
  private starter() {
    return { kind: 'dap' as const, label: this.label, heartbeatMs: this.heartbeatMs };
  }

  private bind(me: ClientSession, mode: Mode): void {
    this.me = me;
    this.mode = mode;
    this.breakpoints = new ClientBreakpoints(me, (err) => this.refusalText(err));
    me.onEvent((e) => {
      try {
        this.onSessionEvent(e.event);
      } catch (err) {
        this.output(`Internal error while handling a session event: ${asRetroError(err).message}\n`, 'stderr');
      }
    });
    me.onControlLost((holder) => this.output(`Control taken by ${holder.label}; ${TAKE_CONTROL_HINT}.\n`));
  }

  /** Stops (launch) or leaves (attach) the session and forgets it; safe to call twice. */
  private async release(action: 'stop' | 'detach'): Promise<void> {
    const me = this.me;
    this.me = this.breakpoints = undefined;
    this.configured = false;
    this.configurationDone = deferred<void>();
    this.handles.reset();
    if (!me) return;
    try {
      if (action === 'stop') await me.session.stop(`${this.label} ended`);
    } catch {
      // Already gone: the emulator exited or the session was stopped elsewhere.
    }
    me.close();
  }

  private onSessionEvent(event: SessionEvent): void {
    switch (event.type) {
      case 'phase':
        this.output(`${event.message}\n`);
        if (this.configured && (event.phase === 'exited' || event.phase === 'failed')) this.sendTerminated();
        return;
      case 'stopped':
        if (!this.configured) return;
        this.handles.reset();
        this.sendStopped(event.stop, event.location, event.breakpoint_ids);
        return;
      case 'running':
        if (!this.configured) return;
        this.handles.reset();
        this.sendEvent(new ContinuedEvent(THREAD_ID, true));
        return;
      case 'exited':
        this.output(`The emulator exited: ${event.reason}\n`);
        if (this.configured) this.sendTerminated();
        return;
      case 'breakpoints_changed':
        for (const change of this.breakpoints?.changes(event.breakpoints) ?? []) {
          this.sendEvent(new BreakpointEvent(change.reason, change.breakpoint));
        }
        if (this.configured) this.announceForeignBreakpoints(event.breakpoints);
        return;
      case 'owner_expired': {
        const n = event.removed_breakpoints.length;
        const lost = n ? ` and its ${n} breakpoint${n === 1 ? ' was' : 's were'} removed` : '';
        this.output(
          event.client.id === this.me?.id
            ? `This debug session lost its control of the emulator${lost}.\n`
            : `${event.client.label} went away${lost}.\n`,
        );
        return;
      }
      case 'generation':
        this.handles.reset();
        if (this.configured) this.invalidate(['all']);
        return;
      case 'output':
        this.output(event.text.endsWith('\n') ? event.text : `${event.text}\n`, 'stdout');
        return;
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** A DOS guest's scopes; its values are live, so older handles are dropped on each listing. */
  private async dosScopes(dos: NonNullable<ReturnType<typeof dosOf>>): Promise<DebugProtocol.Scope[]> {
    this.handles.reset();
    const scope = (name: string, children: VariableValue[]): DebugProtocol.Scope => ({
      name,
      expensive: false,
      variablesReference: this.handles.create({ kind: 'children', children }),
    });
    const scopes = [scope('Programs', await dosPrograms(dos))];
    const symbols = await dosSymbols(dos);
    if (symbols.length) scopes.push(scope('Profile symbols', symbols));
    scopes.push(scope('BIOS data area', await dosBios(dos)));
    return scopes;
  }

  /**
   * After launch/attach on a target that always runs (a DOS guest): no stop to
   * report; say what runs, offer setVariable, and list the programs as threads.
   */
  private async announceFreeRunning(): Promise<boolean> {
    const dos = this.me && dosOf(this.me.session);
    if (!dos) return false;
    this.sendEvent(new CapabilitiesEvent({ supportsSetVariable: true }));
    try {
      const threads = await dosThreads(dos);
      this.output(
        `DOS guest running in ${dos.backend.description} (no CPU debugger: it is never paused). Programs: ${threads.map((t) => t.name).join('; ')}\n`,
      );
      for (const t of threads) this.sendEvent(new ThreadEvent('started', t.id));
    } catch (err) {
      this.output(`DOS guest running; its program list is not readable yet: ${asRetroError(err).message}\n`);
    }
    return true;
  }

  /**
   * Waits for the boot to finish: a debuggable CPU stops at main, a target that
   * runs on its own (a DOS guest) is ready once it runs. A failed boot rejects
   * with the session's own error.
   */
  private async waitForEntry(me: ClientSession): Promise<void> {
    const status = await me.whenReady(this.bootTimeoutMs);
    if (status.state === 'stopped' || (status.state === 'running' && dosOf(me.session))) return;
    throw new RetroError(
      'launch_failed',
      `The program did not stop at main (phase: ${status.phase}, state: ${status.state}).`,
    );
  }

  private async waitForConfiguration(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((done) => {
      timer = setTimeout(done, this.configurationTimeoutMs);
    });
    await Promise.race([this.configurationDone.promise, timeout]);
    clearTimeout(timer);
  }

  /** Tells the client where the CPU stands right after launch/attach. */
  private async reportCurrentStop(reasonOverride?: 'entry'): Promise<void> {
    const session = this.me?.session;
    if (!session) return;
    try {
      const status = await session.status();
      if (status.state !== 'stopped') return;
      const stop: StopInfo = { ...(status.last_stop ?? { reason: 'pause', pc: status.pc ?? 0 }) };
      if (reasonOverride) stop.reason = reasonOverride;
      this.sendStopped(stop, status.location ?? status.last_stop?.location, status.last_stop?.breakpoint_ids ?? []);
    } catch (err) {
      this.output(`Could not read the CPU state: ${asRetroError(err).message}\n`, 'stderr');
    }
  }

  private async tryResume(): Promise<void> {
    try {
      await this.control().resume();
    } catch (err) {
      this.output(`Could not run the program: ${await this.refusalText(err)}\n`, 'stderr');
      await this.reportCurrentStop();
    }
  }

  private sendStopped(stop: StopInfo, location: SourceLocation | undefined, hitIds: number[]): void {
    const event = new StoppedEvent(dapStopReason(stop.reason), THREAD_ID) as DebugProtocol.StoppedEvent;
    event.body.description = describeStop(stop, location);
    event.body.allThreadsStopped = true;
    const ids = this.breakpoints?.known(hitIds) ?? [];
    if (ids.length) event.body.hitBreakpointIds = ids;
    this.sendEvent(event);
  }

  private sendTerminated(): void {
    if (this.terminatedSent) return;
    this.terminatedSent = true;
    this.sendEvent(new TerminatedEvent());
  }

  private announceForeignBreakpoints(all = this.me?.session.listBreakpoints() ?? []): void {
    if (!this.me) return;
    const summary = foreignBreakpointSummary(all, this.me.id);
    if (summary && summary !== this.lastForeignSummary) this.output(summary);
    this.lastForeignSummary = summary;
  }

  private takeControlIfFree(me: ClientSession): void {
    try {
      me.claimControl();
    } catch (err) {
      const e = asRetroError(err);
      if (e.code !== 'lease_held') throw e;
      this.output(`${userSentence(e)} Until then you can inspect but not run, step or set breakpoints.\n`);
    }
  }

  /** The handle for a mutation; claims the lease first when nobody else holds it. */
  private control(): ClientSession {
    const { me } = this.bound();
    me.claimControl();
    return me;
  }

  private bound(): { me: ClientSession; session: SessionApi; breakpoints: ClientBreakpoints } {
    if (!this.me || !this.breakpoints) {
      throw new RetroError(
        'no_session',
        'No emulator session: start one with a launch configuration or attach to a running one.',
      );
    }
    return { me: this.me, session: this.me.session, breakpoints: this.breakpoints };
  }

  private assertUnbound(): void {
    if (this.me) throw new RetroError('session_exists', 'This debug session is already connected to an emulator.');
  }

  private sourceOf(location: SourceLocation): DebugProtocol.Source {
    const path = location.path ?? resolve(this.cwd, location.file);
    return { name: basename(path), path };
  }

  private invalidate(areas: DebugProtocol.InvalidatedAreas[]): void {
    if (this.clientCaps.supportsInvalidatedEvent) this.sendEvent(new InvalidatedEvent(areas));
  }

  private output(text: string, category: 'console' | 'stdout' | 'stderr' = 'console'): void {
    this.sendEvent(new OutputEvent(text, category));
  }

  /** Runs an async handler and answers: its result as the body, or an error response. */
  private handle<R extends DebugProtocol.Response>(response: R, work: () => Promise<R['body'] | void>): void {
    work().then(
      (body) => {
        if (body !== undefined) response.body = body;
        this.sendResponse(response);
      },
      (err) => this.sendError(response, err),
    );
  }

  private async sendError(response: DebugProtocol.Response, err: unknown): Promise<void> {
    try {
      this.sendErrorResponse(response, toDapMessage(err, await this.holderLabel(err)));
    } catch {
      // the connection is gone
    }
  }

  private async refusalText(err: unknown): Promise<string> {
    return userSentence(asRetroError(err), await this.holderLabel(err));
  }

  /** Who holds the lease, for lease refusals whose error does not say. */
  private async holderLabel(err: unknown): Promise<string | undefined> {
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
}

function granularity(g?: DebugProtocol.SteppingGranularity): 'line' | 'instruction' {
  return g === 'instruction' ? 'instruction' : 'line';
}

/** DAP frame ids are backtrace index + 1 (0 is not a usable id for some clients). */
function frameIndexOf(frameId?: number): number {
  return typeof frameId === 'number' && frameId > 0 ? frameId - 1 : 0;
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolveFn!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolveFn = r;
  });
  return { promise, resolve: resolveFn };
}
