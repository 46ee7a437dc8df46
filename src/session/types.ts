/**
 * The Session contract that every front end (DAP, MCP, screen panel, CLI)
 * uses. Only src/session/ implements it; front ends never touch a Target.
 */
import type { Address, FeatureKey, Register, RunState, StopInfo, TypedKeys, WatchSpec } from '../core/target.js';
import type { KeyStroke } from '../core/keys.js';
import type { VariableValue } from '../debuginfo/values.js';
import type { CType } from '../debuginfo/model.js';
import type { DisassembledInstruction } from '../core/disassembly.js';

export type ClientKind = 'dap' | 'mcp' | 'ui' | 'cli';

/** A connected client (a DAP session, one MCP connection, …). */
export interface ClientRef {
  id: string;
  kind: ClientKind;
  /** shown to people in refusals, e.g. "VS Code debug session", "MCP client claude-code" */
  label: string;
}

export interface ClientOptions {
  /** beat on a timer this often while the handle is open (none: only calls through the handle count as life) */
  heartbeatMs?: number;
  /** whether the peer still shows life between calls (e.g. an open event stream); checked before each timed beat */
  isAlive?: () => boolean;
  /**
   * The front end closes this handle when its client goes (an MCP session
   * deleted or evicted, a pipe or socket closed): what the client owns stays
   * until then however long it is silent, and silence costs only the control
   * lease. Without it, a client silent for the lease time is dropped with
   * its breakpoints.
   */
  closedByFrontEnd?: boolean;
}

/**
 * One front end's handle on a shared session (client-session.ts implements
 * it): it owns the client id, the heartbeat and what this client knows about
 * the lease; every call through it counts as life. Mutations go only through
 * a handle, so no front end passes a client id around.
 */
export interface ClientSession {
  /** the shared session: reads, events and identity, the same for every client */
  readonly session: SessionApi;
  /** who this handle is, as others see it (breakpoint owners, lease refusals) */
  readonly client: ClientRef;
  readonly id: string;
  readonly label: string;
  readonly closed: boolean;
  /** whether this client holds the control lease, as of the latest lease change */
  readonly holdsControl: boolean;
  /** called when another client takes the lease from this one (not on release or lapse) */
  onControlLost(listener: (holder: ClientRef) => void): () => void;
  /** a sign of life; throws not_found once the session dropped this client */
  beat(): void;
  /**
   * What this client lost since the last call, in sentences (its lease
   * lapsed or was taken, the session dropped it with its breakpoints); each is
   * returned once, so a front end tells its client in the next reply.
   */
  takeLosses(): string[];
  /** each loss as it happens, besides takeLosses */
  onLoss(listener: (text: string) => void): () => void;
  claimControl(opts?: { takeOver?: boolean }): LeaseInfo;
  /** claims the lease when nobody else holds it; false (no error) when someone does */
  tryClaim(): boolean;
  releaseControl(): void;
  /**
   * The one guarded path for mutating through a connector feature: refused
   * unless this client holds the lease, names the current generation (when
   * given) and the CPU is as `guard.needs` says; then runs `act` with the
   * feature, the session following the run-state change `guard.effect` names.
   */
  control<T, R>(key: FeatureKey<T>, guard: ControlGuard, act: (feature: T) => Promise<R>): Promise<R>;
  /** types strokes (core/keys.ts) on the machine's keyboard (the target's input facet); needs the lease */
  typeKeys(strokes: readonly KeyStroke[], opts?: MutationOptions): Promise<TypedKeys>;
  claimRawLease(): void;
  releaseRawLease(): void;
  requireRawLease(opts?: MutationOptions): void;
  /**
   * Resolves once the session finished booting (phase 'ready'), at once when it
   * already has; rejects with the session's own error when the boot failed,
   * target_lost when it ended, timeout after `timeoutMs`. No polling.
   */
  whenReady(timeoutMs: number, signal?: AbortSignal): Promise<SessionStatus>;
  /**
   * The next stop (or exit) after this call. With `command`, the wait is armed
   * before the command runs, so a stop that comes while it is acknowledged is
   * not missed; the timeout counts from the command's end. Rejects with
   * 'timeout' when none came in time.
   */
  nextStop(timeoutMs: number, command?: () => Promise<void>, signal?: AbortSignal): Promise<SessionStatus>;
  /** events of the shared session; the subscription ends with the handle */
  onEvent(listener: (e: QueuedEvent) => void): () => void;
  resume(opts?: MutationOptions): Promise<void>;
  pause(opts?: MutationOptions): Promise<void>;
  stepInto(granularity?: StepGranularity, opts?: MutationOptions): Promise<void>;
  stepOver(granularity?: StepGranularity, opts?: MutationOptions): Promise<void>;
  stepOut(opts?: MutationOptions): Promise<void>;
  /** soft/hard: the machine restarts and runs; reload: the program loaded again, stopped at main; re-armed once */
  reset(kind: RestartKind, opts?: MutationOptions): Promise<void>;
  /** the machine's state as a snapshot file's bytes (stopped CPU) */
  saveState(opts?: MutationOptions): Promise<Uint8Array>;
  /** a snapshot file's bytes put back whole (or refused with nothing changed); bumps the generation */
  loadState(file: SnapshotSource, opts?: MutationOptions): Promise<void>;
  writeMemory(address: Address, data: Uint8Array, opts?: MutationOptions): Promise<void>;
  /** Set Value on a C lvalue (`x`, `p->y`, `arr[3]`) in a frame: range-checked by its type, never into code. */
  setExpression(expression: string, value: string, frameIndex?: number, opts?: MutationOptions): Promise<VariableValue>;
  /** `condition` is C; `extras` a hit condition and a logpoint message (session/bp-logic.ts). */
  setLineBreakpoint(file: string, line: number, condition?: string, extras?: BreakpointExtras): Promise<BreakpointInfo>;
  setFunctionBreakpoint(name: string, condition?: string, extras?: BreakpointExtras): Promise<BreakpointInfo>;
  setAddressBreakpoint(address: Address, condition?: string, extras?: BreakpointExtras): Promise<BreakpointInfo>;
  clearBreakpoint(id: number): Promise<void>;
  setWatchpoint(spec: SessionWatchSpec): Promise<WatchpointInfo>;
  clearWatchpoint(id: number): Promise<void>;
  /** records an input this client now holds; `release` undoes it; returns its id */
  trackInput(what: string, release: () => Promise<void>): number;
  /** whether a breakpoint, watchpoint or held input belongs to this client */
  owns(thing: { owner: ClientRef }): boolean;
  /** leaves the session: the lease and everything this client owns are released; safe to call twice */
  close(): void;
}

export type RestartKind = 'soft' | 'hard' | 'reload';
/** A snapshot file's bytes, or how to read them once the session has checked it could load them. */
export type SnapshotSource = Uint8Array | (() => Promise<Uint8Array>);

/** Who joins a session, and how its handle keeps itself alive. */
export interface ClientStarter extends ClientOptions {
  kind: ClientKind;
  label: string;
}

/** Every reply carries these. */
export interface Identity {
  session_id: string;
  build_id: string;
  generation: number;
}

export type SessionPhase = 'starting_emulator' | 'booting' | 'program_loaded' | 'ready' | 'exited' | 'failed';

export interface SourceLocation {
  /** path as in the debug info */
  file: string;
  /** absolute path on disk when resolvable */
  path?: string;
  line: number;
  function?: string;
}

export interface LeaseInfo {
  holder: ClientRef;
  expires_in_ms: number;
}

export interface SessionStatus extends Identity {
  phase: SessionPhase;
  /** sentences describing boot progress, oldest first */
  progress: string[];
  state: RunState;
  machine: string;
  emulator: string;
  program?: string;
  pc?: number;
  location?: SourceLocation;
  last_stop?: StopInfo & {
    location?: SourceLocation;
    breakpoint_ids: number[];
    watchpoint_ids?: number[];
    watch?: WatchHit[];
  };
  lease?: LeaseInfo;
  error?: { code: string; message: string };
  /** false when the target has no run control and never stops (a DOS guest); absent otherwise */
  run_control?: false;
  /** records of the debug-info file the parser skipped, with file and line; absent when none */
  debug_info_warnings?: string[];
}

/** What a breakpoint does besides its C condition (session/bp-logic.ts reads them). */
export interface BreakpointExtras {
  /** `3`, `>= 3`, `% 4` */
  hitCondition?: string;
  /** logpoint text with `{expr}` parts */
  logMessage?: string;
}

export interface BreakpointInfo {
  /** session-level id, stable for the breakpoint's life */
  id: number;
  owner: ClientRef;
  kind: 'line' | 'function' | 'address';
  file?: string;
  line?: number;
  function?: string;
  address?: Address;
  /** a C expression: stops only when true */
  condition?: string;
  /** the condition compiled to the emulator's own language: a false one never stops the CPU */
  native_condition?: string;
  /** why the condition is evaluated by the session at each hit instead (the CPU stops, then resumes) */
  condition_host?: string;
  /**
   * a host-side `&&` condition's parts that compile, in the emulator's language: the emulator tests them first, so
   * a hit where they are false never stops the CPU; the session evaluates the whole condition at the others
   */
  native_guard?: string;
  /** `3`, `>= 3`, `% 4`: over the hits whose condition held */
  hit_condition?: string;
  /** a logpoint: prints this (with `{expr}` parts evaluated) instead of stopping */
  log_message?: string;
  verified: boolean;
  /** why unverified, or where it moved */
  message?: string;
  /** unverified for good: the loaded debug info has no such file, function or line (message names the nearest) */
  nowhere?: boolean;
  hit_count: number;
}

export interface WatchpointInfo {
  /** session-level id, stable for the watchpoint's life */
  id: number;
  owner: ClientRef;
  address: Address;
  length: number;
  kind: import('../core/target.js').WatchKind;
  condition?: string;
  /** the C lvalue it was set by */
  expression?: string;
  /** stops only when a write changed the bytes (a write of the same value resumes silently) */
  change_only: boolean;
  hit_count: number;
  /** the latest hit: pc = where the CPU stopped (the next instruction), access_pc = the instruction that accessed */
  last_hit?: { pc: number; access_pc?: number; access?: string; address?: number; value?: number };
}

/** One breakpoint's change: `added` and `changed` carry it as it is now, `removed` its id and owner only. */
export interface BreakpointChange {
  change: 'added' | 'changed' | 'removed';
  id: number;
  owner: ClientRef;
  breakpoint?: BreakpointInfo;
}

/** An input someone holds right now: a held key/field or a sequence being typed. */
export interface HeldInputInfo {
  id: number;
  owner: ClientRef;
  /** e.g. 'key "a" for 5 frames', 'field :LINE1/a held' */
  what: string;
  since: number;
}

export interface StackFrameInfo {
  index: number;
  function: string;
  pc: number;
  location?: SourceLocation;
}

export type ScopeName = 'locals' | 'globals' | 'registers';

export type { VariableValue };

export type SessionEvent =
  | { type: 'phase'; phase: SessionPhase; message: string }
  | {
      type: 'stopped';
      stop: StopInfo;
      location?: SourceLocation;
      generation: number;
      breakpoint_ids: number[];
      watchpoint_ids?: number[];
      /** a watchpoint stop: each watchpoint that fired, its accessor and old → new */
      watch?: WatchHit[];
    }
  | { type: 'running' }
  | { type: 'exited'; reason: string }
  /** what changed, never the whole list (listBreakpoints has it); `generation`: the session's when it changed */
  | { type: 'breakpoints_changed'; generation: number; changes: BreakpointChange[] }
  /** `lapsed`: the holder whose lease ran out (no life for the lease time), when that is why it changed */
  | { type: 'lease_changed'; lease?: LeaseInfo; lapsed?: ClientRef }
  | {
      type: 'owner_expired';
      client: ClientRef;
      removed_breakpoints: number[];
      removed_watchpoints?: number[];
      released_inputs?: number[];
    }
  | { type: 'watchpoints_changed'; watchpoints: WatchpointInfo[] }
  | { type: 'inputs_released'; reason: string; ids: number[] }
  | { type: 'generation'; generation: number; reason: string }
  /** `machine`: the emulated machine's own message; MCP replies carry these as machine_messages */
  | { type: 'output'; text: string; machine?: boolean }
  /** a logpoint fired: its owner's breakpoint and the message */
  | { type: 'logpoint'; breakpoint_id: number; owner: string; text: string; location?: SourceLocation };

export interface QueuedEvent {
  seq: number;
  time: number;
  event: SessionEvent;
}

export type StepGranularity = 'line' | 'instruction';

/** Where a C lvalue's object lies (a bit-field: the bytes that hold it). */
export interface LvalueLocation {
  /** CPU address */
  address: number;
  length: number;
  /** its C type as written */
  type: string;
  /** the type itself, to decode its bytes */
  ctype?: CType;
}

/** What a client asks the session to watch: the emulator's part, plus what only the session judges. */
export interface SessionWatchSpec extends WatchSpec {
  /** the C lvalue it was set by, shown in its stops */
  expression?: string;
  /** its C type, to show old → new as C values */
  ctype?: CType;
  /** a write that leaves the bytes as they were resumes silently ("Break on Value Change") */
  changeOnly?: boolean;
}

/** A watchpoint's part in a stop: who accessed it, where in the C source, and its value before and after. */
export interface WatchHit {
  id: number;
  expression?: string;
  address: Address;
  length: number;
  /** the access that fired it: write, read, or (a read-write watch on a CPU that does not say) access */
  access: string;
  /** the instruction that made the access (the stop's pc is the next one), when known */
  access_pc?: number;
  /** that instruction's C line and function */
  location?: SourceLocation;
  /** the value before the access (as last seen) and now, as C shows them (bytes in hex without a C type) */
  old?: string;
  new?: string;
  changed: boolean;
}

/** A decoded instruction as the front ends show it: its bytes, a name where one starts there, its C line. */
export interface DisassemblyLine extends DisassembledInstruction {
  bytes: number[];
  /** the function starting here (debug info) or the session label at this address */
  symbol?: string;
  location?: SourceLocation;
}

export interface MutationOptions {
  /** when given, refused with stale_generation unless it is the current one */
  generation?: number;
}

/** What a mutating feature call needs first, and how it changes the machine (so the session follows). */
export interface ControlGuard extends MutationOptions {
  /** the CPU must be stopped / running first */
  needs?: 'stopped' | 'running';
  /**
   * 'runs': the call lets the machine run (resume, step, reset): the session
   * turns 'running' before it and publishes the stop the target then reports.
   * Default: the call changes machine state; cached frames are dropped.
   */
  effect?: 'runs';
}

export interface SessionApi {
  readonly id: string;
  identity(): Identity;

  /**
   * Joins the session as a new client: the returned handle carries the client
   * id, heartbeat and lease state, and is the only way to mutate.
   */
  attach(kind: ClientKind, label: string, opts?: ClientOptions): ClientSession;

  // state
  status(): Promise<SessionStatus>;
  onEvent(listener: (e: QueuedEvent) => void): () => void;
  /** events after `seq` still in the bounded queue; `dropped` says if some were lost */
  eventsSince(seq: number): { events: QueuedEvent[]; dropped: boolean; last_seq: number };
  /** resolves with the stop (or the current one when already stopped); rejects with 'timeout' */
  waitForStop(timeoutMs: number): Promise<SessionStatus>;

  // run control, writes, owned breakpoints/watchpoints/inputs and the raw lease: through a ClientSession

  /** every client's breakpoints (each names its owner; others see them read-only) */
  listBreakpoints(): BreakpointInfo[];
  /** stale_generation, naming the current one, unless `generation` is absent or current (mutations without the lease) */
  assertGeneration(generation: number | undefined): void;
  /** resolves once a re-arming after a reset or a raw breakpoint command is done (at once when none runs) */
  breakpointsSettled(): Promise<void>;
  /** the loaded program's source files as its debug info names them, with the file on disk when found */
  sourceFiles(): { file: string; path?: string }[];

  // inspection (free for everyone)
  backtrace(): Promise<StackFrameInfo[]>;
  variables(scope: ScopeName, frameIndex?: number): Promise<VariableValue[]>;
  readVariable(expression: string, frameIndex?: number): Promise<VariableValue>;
  readRegisters(): Promise<Register[]>;
  readMemory(address: Address, length: number): Promise<Uint8Array>;
  /** the spaces, banks and tags memory can be read in, for a picker */
  memorySpaces(): Promise<import('../core/memory-spaces.js').SpaceChoice[]>;
  screenshot(): Promise<import('../core/target.js').ScreenImage>;
  /** live frames for a viewer until the returned function is called (a person watching gets real speed) */
  watchScreen(
    request: import('../core/target.js').FrameRequest,
    listener: import('../core/target.js').FrameListener,
  ): () => void;
  /** changed frames after `sinceFrame`, kept or arriving within `waitMs`, at most `maxFrames` */
  screenFrames(
    sinceFrame: number,
    maxFrames: number,
    waitMs: number,
  ): Promise<import('../core/target.js').ScreenFrame[]>;
  /** how this session's frames are made and what they cost the machine */
  frameSource(): import('../core/target.js').FrameSourceInfo;
  /** where each frame halts the machine (VICE): frames a second while running, one of frameSource().rates (0: at stops) */
  setScreenRefresh(fps: number): import('../core/target.js').FrameSourceInfo;

  /**
   * A connector-specific feature of this session's target, for reading (see
   * Target.features); RetroError('unsupported') naming the target when it has
   * none. Mutating through it goes through ClientSession.control.
   */
  feature<T>(key: import('../core/target.js').FeatureKey<T>): T;
  listWatchpoints(): WatchpointInfo[];

  /** An input finished (or its owner let go): forget it. Recording one goes through ClientSession.trackInput. */
  untrackInput(id: number): void;
  heldInputs(): HeldInputInfo[];

  /**
   * `count` decoded instructions from the `offset`-th (negative: before) relative
   * to the one at `address`, with bytes, symbols and C lines; `missingBefore`
   * of them lie before address 0. RetroError('unsupported') for a CPU without a disassembler.
   */
  disassemble(
    address: number,
    offset: number,
    count: number,
  ): Promise<{ lines: DisassemblyLine[]; missingBefore: number }>;

  /** The memory a C lvalue (`x`, `arr[3]`, `s.f`, `*p`) names in a frame: for data breakpoints. */
  locateLvalue(expression: string, frameIndex?: number): Promise<LvalueLocation>;

  /** file:line and function of a CPU address from the debug info (undefined without it) */
  locationAt(pc: number): SourceLocation | undefined;

  /** Whether pc is in a function's frame set-up, before its first body line (false without debug info). */
  inPrologue(pc: number): boolean;

  /** After an unvetted command: re-read the emulator's state and bump the generation. */
  afterRawCommand(description: string): Promise<void>;

  /** Names for CPU addresses (symbol profiles, text definitions), shown by every front end; optional for fakes. */
  readonly labels?: import('./labels.js').LabelTable;

  /** End the session: closes the emulator if this session started it. */
  stop(reason?: string): Promise<void>;
}

/** Owns every live session of this process (extension host, CLI). */
export interface SessionManagerApi {
  /** how long a client may stay silent before its lease and breakpoints lapse; front ends beat well within it */
  readonly leaseMs: number;
  /** the connectors this manager starts sessions with (their kinds, machines and launch options) */
  readonly connectors: readonly import('../core/connector.js').Connector[];
  /** Starts booting and returns at once; progress shows in status().phase/progress and 'phase' events. */
  /** The starter's handle holds the lease from the start. */
  start(config: import('../core/launch.js').LaunchConfig, starter: ClientStarter): ClientSession;
  /** Joins a session (no id: the default one, as `get`) as a new client. */
  attach(sessionId: string | undefined, client: ClientStarter): ClientSession;
  /** No id: the only (or most recently started) live session; none → RetroError('no_session'). */
  get(sessionId?: string): SessionApi;
  list(): SessionApi[];
  onSessionsChanged(listener: () => void): () => void;
  /** Stops every session this manager started (process exit). */
  closeAll(): Promise<void>;
}
