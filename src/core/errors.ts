/** The one error type every layer throws. `code` is stable; `message` is for people. */
export type ErrorCode =
  | 'bad_request' // malformed or out-of-range arguments
  | 'bad_address' // address outside the space, or space unknown
  | 'too_large' // request exceeds a documented bound
  | 'not_stopped' // operation needs a stopped CPU
  | 'not_running' // operation needs a running CPU (input)
  | 'lease_held' // another client holds the control lease
  | 'no_lease' // mutation without holding the lease
  | 'not_owner' // breakpoint/key owned by another client
  | 'not_found' // no such breakpoint, variable, symbol, session, file
  | 'stale_generation' // request names a generation that has passed
  | 'timeout' // a read-only wait ran out; nothing changed
  | 'timeout_may_have_mutated' // a mutating request timed out; state may have changed
  | 'unsupported' // this target/machine cannot do it (says why)
  | 'target_lost' // emulator exited or the bridge connection dropped
  | 'incompatible_target' // emulator lacks something we need
  | 'launch_failed' // emulator could not be started
  | 'bad_debug_info' // debug info missing or unparsable
  | 'file_exists' // refusing to overwrite without overwrite:true
  | 'session_exists' // a session with that id/emulator already runs
  | 'no_session' // no session is active
  | 'internal'; // a bug: never expected

export class RetroError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'RetroError';
  }

  toJSON(): { code: ErrorCode; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Wrap anything thrown into a RetroError so front ends only see one shape. */
export function asRetroError(err: unknown): RetroError {
  if (err instanceof RetroError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new RetroError('internal', message);
}
