/**
 * What the debugger UI shows of one kind of target: threads, stack, scopes,
 * variables and evaluate. The adapter (retro-debug-session.ts) is the same
 * for every emulator; a connector that shows something else than a stopped
 * CPU running C (a DOS guest: programs, profile symbols, the BIOS data area)
 * brings its own view. Views only read, except setVariable, which writes
 * through the client's handle and so under its lease.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { ClientSession } from '../session/client-session.js';
import type { SessionApi, SourceLocation, VariableValue } from '../session/types.js';
import type { VariableHandles } from './variables.js';

/** What a view gets from the adapter. */
export interface DebugViewContext {
  readonly session: SessionApi;
  /** variablesReference numbers; the adapter drops them whenever the machine moves */
  readonly handles: VariableHandles;
  /** a DAP source for a location (relative paths resolve against the launch's cwd) */
  sourceOf(location: SourceLocation): DebugProtocol.Source;
}

export interface SetVariableResult {
  value: string;
  type?: string;
  /** the memory the write changed (the adapter sends a memory event for it) */
  written?: { reference: string; length: number };
}

export interface DebugView {
  /**
   * True for a target that runs on its own and is never paused (a DOS guest):
   * after launch/attach there is no stop to report, only `announce`.
   */
  readonly freeRunning: boolean;
  /** Capabilities added once bound (e.g. setVariable). */
  readonly capabilities?: DebugProtocol.Capabilities;
  threads(): Promise<DebugProtocol.Thread[]>;
  stackTrace(args: DebugProtocol.StackTraceArguments): Promise<DebugProtocol.StackTraceResponse['body']>;
  scopes(frameIndex: number): Promise<DebugProtocol.Scope[]>;
  /** An expression typed in the debug console, a watch or a hover; frame 0 is the innermost. */
  evaluate(expression: string, frameIndex: number): Promise<VariableValue>;
  /** Absent: setVariable is refused as unsupported. `control()` claims the lease; call it once the input is checked. */
  setVariable?(control: () => ClientSession, name: string, value: string): Promise<SetVariableResult>;
  /** Absent: disassemble is refused as unsupported (a view without a CPU to decode). */
  disassemble?(args: DebugProtocol.DisassembleArguments): Promise<DebugProtocol.DisassembleResponse['body']>;
  /** After launch/attach on a free-running target: a line saying what runs, and the threads that started. */
  announce?(): Promise<{ text: string; threads: number[] }>;
}

/** Picks the view for a bound session (the registry's chooseView: a connector's own view, else the C view). */
export type DebugViewChooser = (context: DebugViewContext) => DebugView;
