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
  | 'stale_build' // the program on disk was rebuilt since the session loaded it
  | 'timeout' // a read-only wait ran out; nothing changed
  | 'timeout_may_have_mutated' // a mutating request timed out; state may have changed
  | 'unsupported' // this target/machine cannot do it (says why)
  | 'target_lost' // emulator exited or the bridge connection dropped
  | 'incompatible_target' // emulator lacks something we need
  | 'launch_failed' // emulator could not be started
  | 'bad_debug_info' // debug info missing or unparsable
  | 'file_exists' // refusing to overwrite without overwrite:true
  | 'not_allowed' // the user's settings do not let this client do it (the message says which setting would)
  | 'outside_roots' // a path (after resolving symlinks) outside the folders this client may use
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

/** Who holds or owns something, as refusals name them. */
export interface Holder {
  label: string;
}

// Factories for the refusals every layer makes, so the same situation reads the same everywhere.

export function notStopped(state: string, details: Record<string, unknown> = {}): RetroError {
  return new RetroError('not_stopped', `The machine is ${state}; pause it first.`, { state, ...details });
}

export function leaseHeld(holder: Holder): RetroError {
  return new RetroError(
    'lease_held',
    `Control is held by ${holder.label}; ask it to release control, or take over explicitly (take_over: true / "Retro Debug: Take Control").`,
    { holder },
  );
}

export function noLease(
  client: Holder,
  lease = 'the control lease',
  how = 'claim it first (claim_control)',
): RetroError {
  return new RetroError('no_lease', `${client.label} does not hold ${lease}; ${how}.`);
}

export function notOwner(thing: string, id: number | string, owner: Holder): RetroError {
  return new RetroError('not_owner', `${thing} ${id} belongs to ${owner.label}; only its owner can remove it.`, {
    id,
    owner,
  });
}

export function staleGeneration(requested: number, current: number): RetroError {
  return new RetroError(
    'stale_generation',
    `This request names generation ${requested}, but the session is at ${current} (the machine was reset, reloaded or restarted since); re-read the state first.`,
    { requested, current },
  );
}

export function staleBuild(loaded: string, onDisk: string, files: string[]): RetroError {
  return new RetroError(
    'stale_build',
    `The program was rebuilt since this session loaded it (build ${loaded}, on disk now ${onDisk}: ${files.join(', ')}); ` +
      'a breakpoint or watchpoint placed from the loaded debug info could be in the wrong place. Start the session again to debug the new build.',
    { loaded, on_disk: onDisk, files },
  );
}

/** A factory per code, so a refusal names its kind where it is thrown; the sentence stays the caller's. */
type Factory = (message: string, details?: Record<string, unknown>) => RetroError;
const factory =
  (code: ErrorCode): Factory =>
  (message, details = {}) =>
    new RetroError(code, message, details);

/** this target, machine or build cannot do it; the message says why and what would */
export const unsupported = factory('unsupported');
export const tooLarge = factory('too_large');
export const targetLost = factory('target_lost');
export const badRequest = factory('bad_request');
export const badAddress = factory('bad_address');
export const notFound = factory('not_found');
export const internalError = factory('internal');
/** a read-only wait ran out; nothing changed */
export const timedOut = factory('timeout');
/** a mutating request ran out of time: it may still have happened */
export const mayHaveMutated = factory('timeout_may_have_mutated');
export const launchFailed = factory('launch_failed');
export const incompatibleTarget = factory('incompatible_target');
export const fileExists = factory('file_exists');
export const noSession = factory('no_session');
export const sessionExists = factory('session_exists');
export const badDebugInfo = factory('bad_debug_info');
export const notRunning = factory('not_running');
export const notAllowed = factory('not_allowed');
export const outsideRoots = factory('outside_roots');

/** `what` (a number) outside `min`..`max`: the same sentence for every range check. */
export function outOfRange(what: string, min: number, max: number, got: unknown): RetroError {
  return new RetroError('bad_request', `${what} must be ${min}-${max} (got ${String(got)}).`, { min, max, got });
}
