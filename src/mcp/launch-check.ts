/**
 * What start_session checks before it starts anything, so an agent's mistake
 * is named at once instead of surfacing later as an emulator's message: that
 * the program file exists (the emulator a machine implies: the connectors' defaultFor).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LaunchConfig } from '../core/launch.js';
import { notFound } from '../core/errors.js';

/** `not_found` naming the resolved path when the program is not a readable regular file. */
export async function requireProgramFile(config: LaunchConfig): Promise<void> {
  if (!config.program) return;
  const path = resolve(config.cwd ?? process.cwd(), config.program);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) {
    throw notFound(
      `Program ${config.program} ${info ? 'is not a file' : 'does not exist'} (looked at ${path}); give a path relative to cwd.`,
      { program: config.program, path },
    );
  }
}
