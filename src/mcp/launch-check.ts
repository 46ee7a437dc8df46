/**
 * What start_session checks before it starts anything, so an agent's mistake
 * is named at once instead of surfacing later as an emulator's message: the
 * emulator a machine implies, and that the program file exists.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { EmulatorKind, LaunchConfig } from '../core/launch.js';
import { RetroError } from '../core/errors.js';

/** The C64 runs on the built-in emulator unless VICE is asked for; a DOS guest in DOSBox; the rest in MAME. */
export function defaultEmulator(machine: string): EmulatorKind {
  if (machine === 'c64') return 'builtin';
  if (machine === 'dos') return 'dosbox';
  return 'mame';
}

/** `not_found` naming the resolved path when the program is not a readable regular file. */
export async function requireProgramFile(config: LaunchConfig): Promise<void> {
  if (!config.program) return;
  const path = resolve(config.cwd ?? process.cwd(), config.program);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) {
    throw new RetroError(
      'not_found',
      `Program ${config.program} ${info ? 'is not a file' : 'does not exist'} (looked at ${path}); give a path relative to cwd.`,
      { program: config.program, path },
    );
  }
}
