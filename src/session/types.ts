/**
 * The Session contract that every front end (DAP, MCP, screen panel, CLI)
 * uses. Only src/session/ implements it; front ends never touch a Target.
 */
import type { Address, Register, RunState, StopInfo } from '../core/target.js';

export type ClientKind = 'dap' | 'mcp' | 'ui' | 'cli';

/** A connected client (a DAP session, one MCP connection, …). */
export interface ClientRef {
  id: string;
  kind: ClientKind;
  /** shown to people in refusals, e.g. "VS Code debug session", "MCP client claude-code" */
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
  last_stop?: StopInfo & { location?: SourceLocation; breakpoint_ids: number[]; watchpoint_ids?: number[] };
  lease?: LeaseInfo;
  error?: { code: string; message: string };
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
  condition?: string;
  verified: boolean;
  /** why unverified, or where it moved */
  message?: string;
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
  hit_count: number;
  /** the latest hit: pc = where the CPU stopped (the next instruction), access_pc = the instruction that accessed */
  last_hit?: { pc: number; access_pc?: number; access?: string; address?: number; value?: number };
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

export interface VariableValue {
  name: string;
  /** C type as written, e.g. "unsigned char", "int *", "struct point" */
  type: string;
  /** formatted value, e.g. "42 ('*')", "0x8000", "{x=1, y=2}" */
  value: string;
  /** numeric value where the type is scalar */
  numeric?: number;
  address?: Address;
  /** raw bytes, hex */
  bytes?: string;
  /** nested members (struct fields, array elements), bounded */
  children?: VariableValue[];
}

export type SessionEvent =
  | { type: 'phase'; phase: SessionPhase; message: string }
  | {
      type: 'stopped';
      stop: StopInfo;
      location?: SourceLocation;
      generation: number;
      breakpoint_ids: number[];
      watchpoint_ids?: number[];
    }
  | { type: 'running' }
  | { type: 'exited'; reason: string }
  | { type: 'breakpoints_changed'; breakpoints: BreakpointInfo[] }
  | { type: 'lease_changed'; lease?: LeaseInfo }
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
  | { type: 'output'; text: string };

export interface QueuedEvent {
  seq: number;
  time: number;
  event: SessionEvent;
}

export type StepGranularity = 'line' | 'instruction';

export interface MutationOptions {
  /** when given, refused with stale_generation unless it is the current one */
  generation?: number;
}

export interface SessionApi {
  readonly id: string;
  identity(): Identity;

  // clients and control
  attachClient(kind: ClientKind, label: string): ClientRef;
  detachClient(clientId: string): void;
  heartbeat(clientId: string): void;
  claimControl(clientId: string, opts?: { takeOver?: boolean }): LeaseInfo;
  releaseControl(clientId: string): void;

  // state
  status(): Promise<SessionStatus>;
  onEvent(listener: (e: QueuedEvent) => void): () => void;
  /** events after `seq` still in the bounded queue; `dropped` says if some were lost */
  eventsSince(seq: number): { events: QueuedEvent[]; dropped: boolean; last_seq: number };
  /** resolves with the stop (or the current one when already stopped); rejects with 'timeout' */
  waitForStop(timeoutMs: number): Promise<SessionStatus>;

  // run control (need the lease)
  resume(clientId: string, opts?: MutationOptions): Promise<void>;
  pause(clientId: string, opts?: MutationOptions): Promise<void>;
  stepInto(clientId: string, granularity?: StepGranularity, opts?: MutationOptions): Promise<void>;
  stepOver(clientId: string, granularity?: StepGranularity, opts?: MutationOptions): Promise<void>;
  stepOut(clientId: string, opts?: MutationOptions): Promise<void>;

  // breakpoints: owned by the caller, no lease needed (design: only run control, writes, input, raw commands need it)
  setLineBreakpoint(clientId: string, file: string, line: number, condition?: string): Promise<BreakpointInfo>;
  setFunctionBreakpoint(clientId: string, name: string, condition?: string): Promise<BreakpointInfo>;
  setAddressBreakpoint(clientId: string, address: Address, condition?: string): Promise<BreakpointInfo>;
  clearBreakpoint(clientId: string, id: number): Promise<void>;
  listBreakpoints(): BreakpointInfo[];

  // inspection (free for everyone)
  backtrace(): Promise<StackFrameInfo[]>;
  variables(scope: ScopeName, frameIndex?: number): Promise<VariableValue[]>;
  readVariable(expression: string, frameIndex?: number): Promise<VariableValue>;
  readRegisters(): Promise<Register[]>;
  readMemory(address: Address, length: number): Promise<Uint8Array>;
  writeMemory(clientId: string, address: Address, data: Uint8Array, opts?: MutationOptions): Promise<void>;
  screenshot(): Promise<import('../core/target.js').ScreenImage>;

  /**
   * A connector-specific feature of this session's target (see Target.feature);
   * RetroError('unsupported') naming the target when it has none.
   */
  feature<T>(name: string): T;
  /**
   * Throws unless `clientId` may mutate now: holds the lease, names the current
   * generation (when given), and — with needs 'stopped' / 'running' — the CPU is so.
   * Front ends call it before mutating through a feature.
   */
  requireControl(clientId: string, opts?: MutationOptions, needs?: 'stopped' | 'running'): void;

  // watchpoints: owned like breakpoints (no lease needed); others see them read-only
  setWatchpoint(clientId: string, spec: import('../core/target.js').WatchSpec): Promise<WatchpointInfo>;
  clearWatchpoint(clientId: string, id: number): Promise<void>;
  listWatchpoints(): WatchpointInfo[];

  // held input: front ends record what a client holds so it is released when the client goes
  /** Records an input `clientId` now holds; `release` undoes it. Returns its id. */
  trackInput(clientId: string, what: string, release: () => Promise<void>): number;
  untrackInput(id: number): void;
  heldInputs(): HeldInputInfo[];

  /** file:line and function of a CPU address from the debug info (undefined without it) */
  locationAt(pc: number): SourceLocation | undefined;

  // the exclusive raw lease (unvetted emulator console commands); needs the control lease
  claimRawLease(clientId: string): void;
  releaseRawLease(clientId: string): void;
  /** Throws unless `clientId` holds both the control lease and the raw lease. */
  requireRawLease(clientId: string, opts?: MutationOptions): void;
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
  /** Starts booting and returns at once; progress shows in status().phase/progress and 'phase' events. */
  start(
    config: import('../core/launch.js').LaunchConfig,
    starter: { kind: ClientKind; label: string },
  ): { session: SessionApi; client: ClientRef };
  /** No id: the only (or most recently started) live session; none → RetroError('no_session'). */
  get(sessionId?: string): SessionApi;
  list(): SessionApi[];
  onSessionsChanged(listener: () => void): () => void;
  /** Stops every session this manager started (process exit). */
  closeAll(): Promise<void>;
}
