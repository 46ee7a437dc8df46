/**
 * What start_session checks before it starts anything, so an agent's mistake
 * is named at once instead of surfacing later as an emulator's message: that
 * the program file exists (the emulator a machine implies: the connectors' defaultFor),
 * and that every host path it names is inside its roots.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Connector } from '../core/connector.js';
import { rompathFolders, type LaunchConfig } from '../core/launch.js';
import { notFound } from '../core/errors.js';
import { resolveInsideRoots } from '../core/files.js';

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

/**
 * Every host path of an agent's launch must lie inside its roots (`outside_roots`, symlinks followed): the files the
 * emulator reads (program, debug info, ROM folders, a DOS program profile: once loaded, their bytes could be read back
 * as memory) and the connector's host-path options (a drive folder), which come back replaced by their real paths.
 */
export function launchPathsInRoots(
  connector: Pick<Connector, 'hostPaths'>,
  config: LaunchConfig,
  roots: readonly string[],
): LaunchConfig {
  const cwd = config.cwd ?? process.cwd();
  for (const file of [config.program, config.debugInfo, ...rompathFolders(config.rompath), config.dos?.profile])
    if (file) resolveInsideRoots(resolve(cwd, file), roots);
  const out = { ...config } as Record<string, unknown>;
  for (const key of connector.hostPaths ?? []) {
    const value = out[key];
    if (typeof value === 'string') out[key] = resolveInsideRoots(resolve(cwd, value), roots);
  }
  return out as unknown as LaunchConfig;
}
