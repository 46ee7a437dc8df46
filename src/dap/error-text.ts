/**
 * How a RetroError is shown in VS Code: the sentence a person reads, plus a
 * stable numeric id per error code (DAP messages carry numbers, not strings).
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { asRetroError, type ErrorCode, type RetroError } from '../core/errors.js';
import type { ClientRef } from '../session/types.js';

const CODE_IDS: Record<ErrorCode, number> = {
  bad_request: 3001,
  bad_address: 3002,
  too_large: 3003,
  not_stopped: 3004,
  not_running: 3005,
  lease_held: 3006,
  no_lease: 3007,
  not_owner: 3008,
  not_found: 3009,
  stale_generation: 3010,
  timeout: 3011,
  timeout_may_have_mutated: 3012,
  unsupported: 3013,
  target_lost: 3014,
  incompatible_target: 3015,
  launch_failed: 3016,
  bad_debug_info: 3017,
  file_exists: 3018,
  session_exists: 3019,
  no_session: 3020,
  outside_roots: 3021,
  not_allowed: 3022,
  stale_build: 3023,
  internal: 3099,
};

export const TAKE_CONTROL_HINT =
  "click Retro Debug's control item in the status bar (or run 'Retro Debug: Take Control') to take it back";

/** The label of whoever holds the lease, as carried by a lease_held error when the session put it there. */
export function holderFromError(err: RetroError): string | undefined {
  const holder = err.details.holder as Partial<ClientRef> | string | undefined;
  if (typeof holder === 'string') return holder;
  return holder?.label;
}

/** The sentence shown to the user for an error; `holderLabel` names the lease holder when known. */
export function userSentence(err: RetroError, holderLabel?: string): string {
  const holder = holderLabel ?? holderFromError(err);
  switch (err.code) {
    case 'lease_held':
      return holder
        ? `Control is held by ${holder}; ${TAKE_CONTROL_HINT}.`
        : `${trimDot(err.message)}; ${TAKE_CONTROL_HINT}.`;
    case 'no_lease':
      return `This debug session does not have control of the emulator (${trimDot(err.message)}); ${TAKE_CONTROL_HINT}.`;
    default:
      return err.message || `Request failed (${err.code}).`;
  }
}

/**
 * A DAP error message for anything thrown. `showUser` false where VS Code shows the message in place (an
 * evaluate: the Debug Console prints it, a watch shows it), so that a typo does not also raise a toast.
 */
export function toDapMessage(thrown: unknown, holderLabel?: string, showUser = true): DebugProtocol.Message {
  const err = asRetroError(thrown);
  return {
    id: CODE_IDS[err.code] ?? CODE_IDS.internal,
    // `variables` is present (and empty) so that "{…}" inside a C value is never taken for a placeholder.
    format: userSentence(err, holderLabel),
    variables: {},
    showUser,
  };
}

function trimDot(s: string): string {
  return s.replace(/[.\s]+$/, '');
}
