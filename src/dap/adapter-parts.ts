/** Small fixed pieces of the adapter: what it offers at initialize, argument mapping, a deferred. */
import { badRequest } from '../core/errors.js';
import type { SpaceChoice } from '../core/memory-spaces.js';
import type { DebugProtocol } from '@vscode/debugprotocol';

/** The capabilities answered to initialize; a view may add some once bound (CapabilitiesEvent). */
export const CAPABILITIES: DebugProtocol.Capabilities = {
  supportsConfigurationDoneRequest: true,
  supportsFunctionBreakpoints: true,
  supportsConditionalBreakpoints: true,
  supportsHitConditionalBreakpoints: true,
  supportsLogPoints: true,
  supportsEvaluateForHovers: true,
  supportsReadMemoryRequest: true,
  supportsWriteMemoryRequest: true,
  supportsSteppingGranularity: true,
  supportsTerminateRequest: true,
  supportTerminateDebuggee: true,
  supportsRestartRequest: true,
  supportsSetVariable: false,
  supportsSetExpression: true,
  supportsDisassembleRequest: true,
  supportsInstructionBreakpoints: true,
  supportsDataBreakpoints: true,
};

export const MAX_EXPRESSION_CHARS = 256;

/** Custom request: whether a frame has C source (the extension opens the Disassembly view when not). */
export const FRAME_SOURCE_REQUEST = 'retro/frameSource';
export interface FrameSourceReply {
  hasSource: boolean;
  instructionPointerReference?: string;
}

/** Custom request: step back out of the current function to the call at its caller's line (time travel). */
export const STEP_BACK_OUT_REQUEST = 'retro/stepBackOut';

/**
 * Custom request: the screen panel's timeline moves the user's debug session to a recorded frame ('present': back),
 * through VS Code, so it takes the move as a request of its own (the stop's words replace the last stop's).
 */
export const GO_TO_FRAME_REQUEST = 'retro/goToFrame';
export function goToFrameArgs(args: unknown): number | 'present' {
  const frame = (args as { frame?: unknown } | undefined)?.frame;
  if (frame === 'present' || (typeof frame === 'number' && Number.isInteger(frame) && frame >= 0)) return frame;
  throw badRequest('retro/goToFrame needs a frame: a whole number, or "present".');
}

/** Custom request: "Who last wrote this?" on a Variables row or an lvalue; the session moves there (the past). */
export const LAST_WRITE_REQUEST = 'retro/lastWrite';
/** The memory spaces the session offers (core/memory-spaces.ts), for the built-in hex view's picker. */
export const MEMORY_SPACES_REQUEST = 'retro/memorySpaces';
export interface MemorySpacesReply {
  spaces: SpaceChoice[];
}
export interface LastWriteReply {
  expression: string;
  address: number;
  pc: number;
  /** the writing instruction's start cycle, and its frame */
  cycle: number;
  frame: number;
  old: number;
  value: number;
  /** the C line of the write (a store in a runtime helper: the C line that ran before it) */
  writer?: { file: string; path?: string; line: number; function?: string };
  /** one sentence for people */
  message: string;
}

export function granularity(g?: DebugProtocol.SteppingGranularity): 'line' | 'instruction' {
  return g === 'instruction' ? 'instruction' : 'line';
}

/** DAP frame ids are backtrace index + 1 (0 is not a usable id for some clients). */
export function frameIndexOf(frameId?: number): number {
  return typeof frameId === 'number' && frameId > 0 ? frameId - 1 : 0;
}

export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolveFn!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolveFn = r;
  });
  return { promise, resolve: resolveFn };
}
