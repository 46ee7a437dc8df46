/**
 * What start_session checks before it starts anything, so an agent's mistake
 * is named at once instead of surfacing later as an emulator's message: that
 * the program file exists (the emulator a machine implies: the connectors' defaultFor),
 * and that host paths it names (a drive folder, the program itself) are inside its roots.
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
 * The connector's host-path options of an agent's launch, resolved against
 * cwd and checked against the client's roots (`outside_roots` when one lies
 * outside, symlinks followed); returns the config with the resolved paths.
 */
export function hostPathsInRoots(connector: Connector, config: LaunchConfig, roots: readonly string[]): LaunchConfig {
  const out = { ...config } as Record<string, unknown>;
  for (const key of connector.hostPaths ?? []) {
    const value = out[key];
    if (typeof value !== 'string') continue;
    out[key] = resolveInsideRoots(resolve(config.cwd ?? process.cwd(), value), roots);
  }
  return out as unknown as LaunchConfig;
}

/**
 * The files an agent's launch has the emulator read — program, debug info, ROM folders, a DOS program profile — must
 * lie inside its roots (`outside_roots`, symlinks followed): once loaded, their bytes could be read back as memory.
 */
export function launchFilesInRoots(config: LaunchConfig, roots: readonly string[]): void {
  const cwd = config.cwd ?? process.cwd();
  for (const file of [config.program, config.debugInfo, ...rompathFolders(config.rompath), config.dos?.profile])
    if (file) resolveInsideRoots(resolve(cwd, file), roots);
}
