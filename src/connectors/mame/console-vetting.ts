/**
 * Which MAME debugger console commands may run in a shared session: a fixed
 * set of reading commands whose arguments cannot assign. Anything else is
 * refused by name before it reaches MAME (never partly run); it may run only
 * under the exclusive raw lease.
 */
import { badRequest, tooLarge } from '../../core/errors.js';

/** Reading commands of MAME 0.251's console (checked on the real console: none changes machine state). */
export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([
  'print',
  'printf',
  'bplist',
  'wplist',
  'rplist',
  'history',
  'help',
  'symlist',
  'cpulist',
  'time',
]);

export const MAX_COMMAND_LENGTH = 500;

export interface VettedCommand {
  name: string;
  readOnly: boolean;
  reason?: string;
}

/** Classifies a console line; throws bad_request only for lines no mode may run. */
export function vetConsoleCommand(line: string): VettedCommand {
  if (typeof line !== 'string' || line.trim() === '') throw badRequest('The debugger command is empty.');
  if (line.length > MAX_COMMAND_LENGTH)
    throw tooLarge(`A debugger command is at most ${MAX_COMMAND_LENGTH} characters.`);
  if (/[\r\n]/.test(line)) throw badRequest('A debugger command is one line.');
  const text = line.trim();
  const name = text.split(/[\s,]/, 1)[0].toLowerCase();
  if (!READ_ONLY_COMMANDS.has(name)) {
    return {
      name,
      readOnly: false,
      reason: `"${name}" is not one of the read-only commands (${[...READ_ONLY_COMMANDS].join(', ')})`,
    };
  }
  const args = text.slice(name.length).replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/;/.test(args)) return { name, readOnly: false, reason: 'it chains several commands with ";"' };
  if (/\+\+|--|(?<![=!<>])=(?!=)/.test(args))
    return { name, readOnly: false, reason: 'its expression assigns (=, ++ or --)' };
  return { name, readOnly: true };
}
