/** Errors of the C expression engine: every one names the column and the reason. */
import { RetroError, type ErrorCode } from '../../core/errors.js';

/** `at` is a 0-based offset into `text`; the message shows it 1-based, as editors count columns. */
export function exprError(text: string, at: number, reason: string, code: ErrorCode = 'bad_request'): RetroError {
  return new RetroError(code, `${JSON.stringify(text)} at column ${at + 1}: ${reason}`, {
    expression: text,
    column: at + 1,
    reason,
  });
}
