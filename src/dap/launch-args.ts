/**
 * Turns untrusted launch/attach request arguments into a LaunchConfig.
 * Only shapes are checked here; whether files exist is the session's job
 * (it reports them with the right codes while booting).
 */
import { RetroError } from '../core/errors.js';
import type { LaunchConfig } from '../core/launch.js';
import { parseDosOptions } from '../connectors/dosbox/front/dap-launch-args.js';

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

export function parseLaunchArgs(raw: unknown): LaunchOptions {
  const args = asObject(raw);
  const machine = optionalString(args, 'machine');
  if (!machine) throw bad('launch.json needs "machine", e.g. "spectrum".');
  const emulator = optionalString(args, 'emulator') ?? (machine === 'dos' ? 'dosbox' : 'mame');
  if (emulator === 'dosbox') return parseDosLaunch(args, machine);
  if (emulator !== 'mame' && emulator !== 'vice' && emulator !== 'builtin') {
    throw bad(
      `Emulator "${emulator}" is not supported; use "mame", "dosbox" with machine "dos", or "vice"/"builtin" with machine "c64".`,
    );
  }
  if ((emulator === 'vice' || emulator === 'builtin') && machine !== 'c64')
    throw bad(`Emulator "${emulator}" is not supported for machine "${machine}"; it runs machine "c64".`);
  const program = optionalString(args, 'program');
  if (!program && !(emulator === 'vice' && optionalString(args, 'viceMonitor'))) {
    throw bad('launch.json needs "program": the image to run (e.g. a .rom built by SDCC, a .prg built by cc65).');
  }
  const stopOnEntry = optionalBoolean(args, 'stopOnEntry') ?? true;
  const config: LaunchConfig = {
    machine,
    emulator,
    program,
    debugInfo: optionalString(args, 'debugInfo'),
    mamePath: optionalString(args, 'mamePath'),
    vicePath: optionalString(args, 'vicePath'),
    viceMonitor: optionalString(args, 'viceMonitor'),
    rompath: optionalString(args, 'rompath'),
    media: optionalStringMap(args, 'media'),
    headless: optionalBoolean(args, 'headless'),
    cwd: optionalString(args, 'cwd'),
    // The adapter always has the session stop at main so that breakpoints
    // are in place before the program runs; it resumes itself if asked to.
    stopOnEntry: true,
  };
  for (const key of Object.keys(config) as (keyof LaunchConfig)[]) {
    if (config[key] === undefined) delete config[key];
  }
  return { config, stopOnEntry };
}

/** A DOS guest always runs (no CPU debugger): no stop at main, nothing to stop on entry. */
function parseDosLaunch(args: Args, machine: string): LaunchOptions {
  const dos = parseDosOptions(args.dos);
  const program = optionalString(args, 'program');
  if (!program && !dos?.pid)
    throw bad(
      'launch.json needs "program" (the DOS .COM/.EXE to run) or "dos": { "pid": N } to attach to a running DOSBox.',
    );
  const config: LaunchConfig = { machine, emulator: 'dosbox', program, cwd: optionalString(args, 'cwd'), dos };
  for (const key of Object.keys(config) as (keyof LaunchConfig)[]) {
    if (config[key] === undefined) delete config[key];
  }
  return { config, stopOnEntry: false };
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

function optionalBoolean(args: Args, key: string): boolean | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw bad(`"${key}" must be true or false.`);
  return v;
}

function optionalStringMap(args: Args, key: string): Record<string, string> | undefined {
  const v = args[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw bad(`"${key}" must be an object of strings.`);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string') throw bad(`"${key}.${k}" must be a string.`);
    out[k] = value;
  }
  return out;
}

function bad(message: string): RetroError {
  return new RetroError('bad_request', message);
}
