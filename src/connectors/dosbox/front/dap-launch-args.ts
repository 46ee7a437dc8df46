/**
 * launch.json `dos` options (machine "dos", emulator "dosbox") → DosLaunchOptions.
 * Shapes only; files and processes are checked by the launcher while booting.
 */
import { RetroError } from '../../../core/errors.js';
import type { DosLaunchOptions } from '../../../core/launch.js';

const BACKENDS = ['native', 'wasm-dosbox', 'wasm-dosbox-x'] as const;
const ISOLATIONS = ['dummy', 'xvfb'] as const;

export function parseDosOptions(raw: unknown): DosLaunchOptions | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw bad('"dos" must be an object, e.g. { "backend": "native", "profile": "game.dosprofile.json" }.');
  const o = raw as Record<string, unknown>;
  const known = new Set(['backend', 'pid', 'executable', 'isolation', 'conf', 'args', 'memsizeMb', 'profile']);
  const unknown = Object.keys(o).filter((k) => !known.has(k));
  if (unknown.length) throw bad(`"dos" has unknown option(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}.`);
  const out: DosLaunchOptions = {
    backend: oneOf(o, 'backend', BACKENDS),
    pid: positiveInt(o, 'pid'),
    executable: str(o, 'executable'),
    isolation: oneOf(o, 'isolation', ISOLATIONS),
    conf: str(o, 'conf'),
    args: str(o, 'args'),
    memsizeMb: positiveInt(o, 'memsizeMb'),
    profile: str(o, 'profile'),
  };
  for (const key of Object.keys(out) as (keyof DosLaunchOptions)[]) if (out[key] === undefined) delete out[key];
  return out;
}

function str(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw bad(`"dos.${key}" must be a string.`);
  return v;
}

function positiveInt(o: Record<string, unknown>, key: string): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
    throw bad(`"dos.${key}" must be a positive whole number.`);
  return v;
}

function oneOf<T extends string>(o: Record<string, unknown>, key: string, values: readonly T[]): T | undefined {
  const v = str(o, key);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v))
    throw bad(`"dos.${key}" must be one of ${values.join(', ')}, not "${v}".`);
  return v as T;
}

function bad(message: string): RetroError {
  return new RetroError('bad_request', message);
}
