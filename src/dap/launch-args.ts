/**
 * Turns untrusted launch/attach request arguments into a LaunchConfig.
 * Only shapes are checked here; whether files exist is the session's job
 * (it reports them with the right codes while booting).
 */
import { RetroError, badRequest } from '../core/errors.js';
import type { LaunchConfig } from '../core/launch.js';
import type { Connector } from '../core/connector.js';
import { parseLaunchConfig } from '../session/launch-options.js';
import { DAP_TOKEN_ATTRIBUTE } from './dap-gate.js';

export interface LaunchOptions {
  config: LaunchConfig;
  /** what the person asked for; the session itself always stops at main first */
  stopOnEntry: boolean;
}

export interface AttachOptions {
  sessionId?: string;
  cwd?: string;
}

type Args = Record<string, unknown>;

/**
 * launch.json arguments → the session's LaunchConfig, by the connectors' own
 * option schemas (src/session/launch-options.ts). A connector without a CPU
 * debugger (a DOS guest) never stops on entry; the others always have the
 * session stop at main so that breakpoints are in place before the program
 * runs, and the adapter resumes itself if the person did not ask to stop.
 */
export function parseLaunchArgs(raw: unknown, connectors: readonly Connector[]): LaunchOptions {
  const args = asObject(raw);
  if (!optionalString(args, 'machine')) throw bad('launch.json needs "machine", e.g. "spectrum".');
  const { connector, config } = parseLaunchConfig(connectors, withoutVsCodeAttributes(args));
  const missing = connector.missingProgram(config);
  if (missing) throw bad(missing);
  if (!connector.stopsAtEntry) {
    delete config.stopOnEntry;
    return { config, stopOnEntry: false };
  }
  const stopOnEntry = config.stopOnEntry ?? true;
  return { config: { ...config, stopOnEntry: true }, stopOnEntry };
}

/**
 * What VS Code itself puts in a launch request (its own attributes of a configuration, and `__` ones), and serve's
 * token, which its gate reads before the adapter.
 */
const VS_CODE_ATTRIBUTES = new Set([
  DAP_TOKEN_ATTRIBUTE,
  'type',
  'request',
  'name',
  'preLaunchTask',
  'postDebugTask',
  'internalConsoleOptions',
  'debugServer',
  'presentation',
  'suppressMultipleSessionWarning',
  'suppressDebugToolbar',
  'suppressDebugStatusbar',
  'suppressDebugView',
  'serverReadyAction',
  'noDebug',
]);

/** The request's own options: VS Code's attributes removed, so that anything left over is an error. */
function withoutVsCodeAttributes(args: Args): Args {
  return Object.fromEntries(Object.entries(args).filter(([k]) => !VS_CODE_ATTRIBUTES.has(k) && !k.startsWith('__')));
}

export function parseAttachArgs(raw: unknown): AttachOptions {
  const args = asObject(raw);
  return { sessionId: optionalString(args, 'sessionId'), cwd: optionalString(args, 'cwd') };
}

function asObject(raw: unknown): Args {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw bad('The request arguments must be an object.');
  return raw as Args;
}

function optionalString(args: Args, key: string): string | undefined {
  const v = args[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw bad(`"${key}" must be a string.`);
  return v;
}

function bad(message: string): RetroError {
  return badRequest(message);
}
