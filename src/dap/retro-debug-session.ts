/**
 * The `retro` Debug Adapter: one DAP client (VS Code, a test, the CLI's
 * `serve`) as one client of a shared Session, through its ClientSession
 * handle. It knows no emulator: what threads, stack, scopes and evaluate show
 * comes from the target's DebugView (chosen by the registry's chooseView). No `vscode` import, so the
 * same class runs inline in the extension host, over stdio and over TCP.
 *
 * Every request handler is async and answers with an error response instead
 * of throwing; a RetroError becomes the sentence a person reads.
 */
import { DebugSession, InitializedEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import {
  frameCycle,
  granularityNote,
  reverseContinue,
  stepBackOutTarget,
  stepBackTarget,
  timeTravel,
  travelTo,
} from '../session/time-travel.js';
import { lastWriteReply } from './last-write-request.js';
import { unaskedMove } from './unasked-move.js';
import { frameSourceReply } from './frame-source-request.js';
import { unsupported, sessionExists, badRequest } from '../core/errors.js';
import type { LeaseInfo, SessionManagerApi } from '../session/types.js';
import type { ClientSession } from '../session/client-session.js';
import { toDapMessage } from './error-text.js';
import { VariableHandles, rowExpression, type RowArguments } from './variables.js';
import { evaluate, setExpression, setVariable, variables } from './inspect-requests.js';
import type { DebugViewChooser } from './debug-view.js';
import { CDebugView } from './c-view.js';
import { DapNotifier } from './dap-notifier.js';
import { readMemory, writeMemory } from './memory-requests.js';
import {
  CAPABILITIES,
  deferred,
  FRAME_SOURCE_REQUEST,
  LAST_WRITE_REQUEST,
  GO_TO_FRAME_REQUEST,
  goToFrameArgs,
  MEMORY_SPACES_REQUEST,
  STEP_BACK_OUT_REQUEST,
  frameIndexOf,
  granularity,
} from './adapter-parts.js';
import { DapBinding, type AfterConfiguration, type Mode } from './binding.js';

export interface RetroDebugSessionOptions {
  /** how this client is named to others (lease refusals, breakpoint owners) */
  label?: string;
  /** heartbeat period while connected; must be well under the manager's lease time */
  heartbeatMs?: number;
  /** longest wait for the emulator to boot (and stop at main) */
  bootTimeoutMs?: number;
  /** longest wait for the client's configurationDone after `initialized` */
  configurationTimeoutMs?: number;
  /** which DebugView a session gets (default: the C view; the wiring passes the registry's chooseView) */
  chooseView?: DebugViewChooser;
  /** where the host tells the user of run control refused for another's lease (DapBinding.refusable) */
  onRefused?: (sentence: string) => void;
}

export class RetroDebugSession extends DebugSession {
  private clientCaps: Partial<DebugProtocol.InitializeRequestArguments> = {};
  private readonly handles = new VariableHandles();
  private readonly notify = new DapNotifier(
    (e) => this.sendEvent(e),
    () => this.clientCaps,
  );
  private readonly binding: DapBinding;
  private closing?: Promise<void>;
  private readonly closedSignal = deferred<void>();
  private readonly onRefused?: (sentence: string) => void;

  /** Resolves once the client disconnected (or the connection dropped) and the session was released. */
  readonly closed: Promise<void> = this.closedSignal.promise;

  constructor(manager: SessionManagerApi, options: RetroDebugSessionOptions = {}) {
    super();
    const opts = {
      label: options.label ?? 'VS Code debug session',
      heartbeatMs: options.heartbeatMs ?? Math.min(5_000, manager.leaseMs / 4),
      bootTimeoutMs: options.bootTimeoutMs ?? 120_000,
      configurationTimeoutMs: options.configurationTimeoutMs ?? 30_000,
      chooseView: options.chooseView ?? ((ctx) => new CDebugView(ctx)),
    };
    this.binding = new DapBinding(manager, opts, this.notify, this.handles, (e) => this.sendEvent(e));
    this.onRefused = options.onRefused;
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
    // Process lifetime belongs to whoever hosts us (stdio-main, serveDap, the
    // extension), never to the base class's process.exit in shutdown().
    this.setRunAsServer(true);
  }

  /** Releases the session (stops the emulator if this client launched it) and resolves `closed`. */
  end(): Promise<void> {
    this.closing ??= this.binding
      .release(this.binding.mode === 'launch' ? 'stop' : 'detach')
      .then(() => this.closedSignal.resolve());
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
    response.body = { ...CAPABILITIES };
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: unknown): void {
    void this.bindThen(response, 'launch', () => this.binding.launch(args));
  }

  protected override attachRequest(response: DebugProtocol.AttachResponse, args: unknown): void {
    void this.bindThen(response, 'attach', () => this.binding.attach(args));
  }

  /**
   * Binds (launch or attach), hands the client `initialized`, waits for its
   * configuration and answers; then reports what runs or where it stopped.
   */
  private async bindThen(response: DebugProtocol.Response, mode: Mode, bind: () => Promise<AfterConfiguration>) {
    if (this.binding.isBound) {
      const exists = sessionExists('This debug session is already connected to an emulator.');
      return this.sendError(response, exists);
    }
    let after: AfterConfiguration;
    try {
      after = await bind();
      this.sendEvent(new InitializedEvent());
      await this.binding.waitForConfiguration();
      this.sendResponse(response);
    } catch (err) {
      await this.binding.release(mode === 'launch' ? 'stop' : 'detach');
      await this.sendError(response, err);
      return;
    }
    await this.binding.finishConfiguration(after);
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.binding.configurationFinished();
    this.sendResponse(response);
  }

  protected override disconnectRequest(
    response: DebugProtocol.DisconnectResponse,
    args: DebugProtocol.DisconnectArguments,
  ): void {
    // After attach the emulator always keeps running; after launch it stops unless told otherwise.
    const stop = this.binding.mode === 'launch' && args?.terminateDebuggee !== false;
    this.closing ??= this.binding.release(stop ? 'stop' : 'detach');
    void this.closing.then(() => {
      this.sendResponse(response);
      this.closedSignal.resolve();
    });
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.handle(response, async () => {
      await this.binding.release(this.binding.mode === 'launch' ? 'stop' : 'detach');
      this.notify.terminated();
    });
  }

  /** VS Code's Restart: the program loaded again and stopped at main, breakpoints kept (armed once). */
  protected override restartRequest(response: DebugProtocol.RestartResponse): void {
    this.run(response, (me) => me.reset('reload'));
  }

  // ---- breakpoints -------------------------------------------------------------------------

  protected override setBreakPointsRequest(
    response: DebugProtocol.SetBreakpointsResponse,
    args: DebugProtocol.SetBreakpointsArguments,
  ): void {
    this.handle(response, async () => {
      const { me, breakpoints } = this.binding.bound();
      const path = args?.source?.path;
      if (!path) throw badRequest('Breakpoints need a source file on disk.');
      const wanted: DebugProtocol.SourceBreakpoint[] = args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }));
      me.tryClaim();
      const list = wanted.map((b) => ({
        line: b.line,
        condition: b.condition,
        hitCondition: b.hitCondition,
        logMessage: b.logMessage,
      }));
      return { breakpoints: await breakpoints.replaceLineBreakpoints(this.binding.resolvePath(path), list) };
    });
  }

  protected override setFunctionBreakPointsRequest(
    response: DebugProtocol.SetFunctionBreakpointsResponse,
    args: DebugProtocol.SetFunctionBreakpointsArguments,
  ): void {
    this.handle(response, async () => {
      const { me, breakpoints } = this.binding.bound();
      const wanted = (args?.breakpoints ?? []).map((b) => ({
        name: b.name,
        condition: b.condition,
        hitCondition: b.hitCondition,
      }));
      me.tryClaim();
      return { breakpoints: await breakpoints.replaceFunctionBreakpoints(wanted) };
    });
  }

  protected override setInstructionBreakpointsRequest(
    response: DebugProtocol.SetInstructionBreakpointsResponse,
    args: DebugProtocol.SetInstructionBreakpointsArguments,
  ): void {
    this.handle(response, async () => {
      const { me, breakpoints } = this.binding.bound();
      me.tryClaim();
      return { breakpoints: await breakpoints.replaceInstructionBreakpoints(args?.breakpoints ?? []) };
    });
  }

  protected override dataBreakpointInfoRequest(
    response: DebugProtocol.DataBreakpointInfoResponse,
    args: DebugProtocol.DataBreakpointInfoArguments,
  ): void {
    this.handle(response, () => this.binding.bound().dataBreakpoints.info(this.handles, args));
  }

  protected override setDataBreakpointsRequest(
    response: DebugProtocol.SetDataBreakpointsResponse,
    args: DebugProtocol.SetDataBreakpointsArguments,
  ): void {
    this.handle(response, async () => {
      const { me, dataBreakpoints } = this.binding.bound();
      me.tryClaim();
      return { breakpoints: await dataBreakpoints.replace(args?.breakpoints ?? []) };
    });
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse): void {
    this.sendResponse(response);
  }

  // ---- run control -------------------------------------------------------------------------

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    this.run(response, (me) => me.resume(), { allThreadsContinued: true });
  }

  protected override nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.run(response, (me) => me.stepOver(granularity(args?.granularity)));
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    this.run(response, (me) => me.stepInto(granularity(args?.granularity)));
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.run(response, (me) => me.stepOut());
  }

  /** Step Back: the C line run before this one (an instruction in the Disassembly view), in the recorded past. */
  protected override stepBackRequest(
    response: DebugProtocol.StepBackResponse,
    args: DebugProtocol.StepBackArguments,
  ): void {
    this.travel(response, async (me) => travelTo(me, await stepBackTarget(me.session, granularity(args?.granularity))));
  }

  /**
   * Reverse Continue: back to the latest earlier breakpoint hit whose condition held there and whose hit condition
   * the hits counted backwards meet (logpoints do not stop), else the history's start.
   */
  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.travel(response, (me) => reverseContinue(me));
  }

  /** A move in the recorded past: the stop says it is the past, the Debug Console how exact this machine's past is. */
  private travel<R extends DebugProtocol.Response>(response: R, move: (me: ClientSession) => Promise<unknown>): void {
    this.run(response, async (me) => {
      await move(me);
      this.notify.output(`${granularityNote(me.session)}\n`);
    });
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.handle(response, () => this.binding.refusable(this.onRefused, () => this.binding.control().pause()));
  }

  /** A command that moves the CPU: the variable handles of the old stop are dropped first. */
  private run<R extends DebugProtocol.Response>(
    response: R,
    command: (me: ClientSession) => Promise<R['body'] | void>,
    body?: R['body'],
  ): void {
    const release = this.notify.holdRunEvents();
    this.handle(
      response,
      () =>
        this.binding.refusable(this.onRefused, async () => {
          const me = this.binding.control();
          this.handles.reset();
          return (await command(me)) ?? body;
        }),
      release,
    );
  }

  // ---- inspection: through the session's view -----------------------------------------------

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    this.handle(response, async () => ({ threads: await this.binding.currentView().threads() }));
  }

  protected override stackTraceRequest(
    response: DebugProtocol.StackTraceResponse,
    args: DebugProtocol.StackTraceArguments,
  ): void {
    this.handle(response, () => this.binding.currentView().stackTrace(args), undefined, false);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const scopes = async () => ({ scopes: await this.binding.currentView().scopes(frameIndexOf(args?.frameId)) });
    this.handle(response, scopes, undefined, false);
  }

  protected override variablesRequest(
    response: DebugProtocol.VariablesResponse,
    args: DebugProtocol.VariablesArguments,
  ): void {
    this.handle(response, () => variables(this.binding, this.handles, args), undefined, false);
  }

  protected override evaluateRequest(
    response: DebugProtocol.EvaluateResponse,
    args: DebugProtocol.EvaluateArguments,
  ): void {
    // the Debug Console and watches show an evaluate's error themselves: no toast on top
    this.handle(response, () => evaluate(this.binding, this.handles, args), undefined, false);
  }

  protected override setVariableRequest(
    response: DebugProtocol.SetVariableResponse,
    args: DebugProtocol.SetVariableArguments,
  ): void {
    this.handle(response, () => setVariable(this.binding, this.notify, args));
  }

  protected override setExpressionRequest(
    response: DebugProtocol.SetExpressionResponse,
    args: DebugProtocol.SetExpressionArguments,
  ): void {
    this.handle(response, () => setExpression(this.binding, this.notify, this.handles, args));
  }

  protected override disassembleRequest(
    response: DebugProtocol.DisassembleResponse,
    args: DebugProtocol.DisassembleArguments,
  ): void {
    this.handle(response, async () => {
      const view = this.binding.currentView();
      if (!view.disassemble)
        throw unsupported('Disassembly is not available here: this target shows no CPU to disassemble.');
      return view.disassemble(args);
    });
  }

  protected override readMemoryRequest(
    response: DebugProtocol.ReadMemoryResponse,
    args: DebugProtocol.ReadMemoryArguments,
  ): void {
    this.handle(response, () => readMemory(this.binding.bound().session, args));
  }

  protected override writeMemoryRequest(
    response: DebugProtocol.WriteMemoryResponse,
    args: DebugProtocol.WriteMemoryArguments,
  ): void {
    this.handle(response, async () => {
      const written = await writeMemory(() => this.binding.control(), args);
      this.notify.memoryChanged(written.reference, written.length);
      this.notify.invalidate(['variables']);
      return { bytesWritten: written.length };
    });
  }

  // ---- control commands (the extension's 'Retro Debug: Take Control', or custom requests) ----

  /** This adapter's client in its session while bound (the screen panel acts through it for the user). */
  get client(): ClientSession | undefined {
    return this.binding.handle;
  }

  /** Takes the control lease over explicitly, even from another client. */
  takeControl(): LeaseInfo {
    const lease = this.binding.bound().me.claimControl({ takeOver: true });
    this.notify.output('This debug session now has control of the emulator.\n');
    return lease;
  }

  protected override customRequest(command: string, response: DebugProtocol.Response, args?: unknown): void {
    switch (command) {
      case FRAME_SOURCE_REQUEST:
        return this.handle(response, () => frameSourceReply(this.binding.currentView(), args));
      case STEP_BACK_OUT_REQUEST:
        return this.travel(response, async (me) => {
          const cycle = await stepBackOutTarget(me.session);
          await unaskedMove(this.notify, this.binding, () => travelTo(me, cycle));
        });
      case GO_TO_FRAME_REQUEST:
        return this.travel(response, (me) =>
          unaskedMove(this.notify, this.binding, () =>
            travelTo(me, frameCycle(timeTravel(me.session).span(), goToFrameArgs(args))),
          ),
        );
      case LAST_WRITE_REQUEST:
        return this.lastWrite(response, args as RowArguments);
      case MEMORY_SPACES_REQUEST:
        return this.handle(response, async () => ({ spaces: await this.binding.bound().session.memorySpaces() }));
      case 'retro/takeControl':
        return this.handle(response, async () => void this.takeControl());
      case 'retro/releaseControl':
        return this.handle(response, async () => this.binding.bound().me.releaseControl());
      default:
        this.sendError(response, badRequest(`Unknown request "${command}".`));
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** The row is resolved before the move (which drops the variable handles). */
  private lastWrite(response: DebugProtocol.Response, args: RowArguments): void {
    let row: { expression: string; frameIndex: number };
    try {
      row = rowExpression(this.handles, args ?? {});
    } catch (err) {
      void this.sendError(response, err);
      return;
    }
    this.run(response, (me) =>
      lastWriteReply(me, row, (cycle) => unaskedMove(this.notify, this.binding, () => travelTo(me, cycle))),
    );
  }

  /**
   * Runs a handler and answers: its result as the body, or an error response; `answered` runs once either is
   * sent. A handler that throws before its first await is answered the same way: escaping into the base class's
   * dispatch would send the JavaScript stack as the message (VS Code showed it in a modal on Debug: Pause).
   * `showUser` false where VS Code shows the error in place (Debug Console, Call Stack, Variables): no toast too.
   */
  private handle<R extends DebugProtocol.Response>(
    response: R,
    work: () => Promise<R['body'] | void>,
    answered?: () => void,
    showUser = true,
  ): void {
    Promise.resolve()
      .then(work)
      .then(
        (body) => {
          if (body !== undefined) response.body = body;
          this.sendResponse(response);
        },
        (err) => this.sendError(response, err, showUser),
      )
      .finally(answered);
  }

  private async sendError(response: DebugProtocol.Response, err: unknown, showUser = true): Promise<void> {
    try {
      this.sendErrorResponse(response, toDapMessage(err, await this.binding.holderLabel(err), showUser));
    } catch {
      // the connection is gone
    }
  }
}
