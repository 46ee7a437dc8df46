/**
 * Which MAME runs a machine. A user's `mamePath` always wins. Otherwise the candidates are `mame` on PATH,
 * /usr/games/mame and the MAME that scripts/install-mame.sh unpacks where the system's has no `sprinter` driver
 * (Debian 12's 0.251): the first that lists the machine's driver runs it, so `spectrum` keeps the system's MAME and
 * `sprinter` gets the newer one, with no setting.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { launchFailed } from '../../core/errors.js';
import type { LaunchConfig } from '../../core/launch.js';
import { mameHasDriver } from './driver-check.js';

const FALLBACK_MAME = '/usr/games/mame';
/** scripts/install-mame.sh's prefix folder name */
const INSTALL_NAME = 'mame-trixie';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where scripts/install-mame.sh puts its wrapper: $RETRO_MAME_PREFIX, /opt/retro-debug (root), the user's data. */
export function installedMames(): string[] {
  const data = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return [
    ...(process.env.RETRO_MAME_PREFIX ? [process.env.RETRO_MAME_PREFIX] : []),
    join('/opt/retro-debug', INSTALL_NAME),
    join(data, 'retro-debug', INSTALL_NAME),
  ].map((prefix) => join(prefix, 'bin', 'mame'));
}

/** Every MAME this machine has, in the order they are preferred (no user setting). */
export function mameCandidates(): string[] {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, 'mame'));
  return [...new Set([...onPath, FALLBACK_MAME, ...installedMames()])].filter(isExecutable);
}

/** config.mamePath, else the first MAME found (whatever its drivers). */
export function resolveMamePath(config: Pick<LaunchConfig, 'mamePath' | 'cwd'>): string {
  if (config.mamePath) {
    const path = resolve(config.cwd ?? process.cwd(), config.mamePath);
    if (isExecutable(path)) return path;
    throw launchFailed(`MAME was not found at ${path} (mamePath); that file is missing or not executable.`, {
      tried: [path],
    });
  }
  const found = mameCandidates()[0];
  if (found) return found;
  throw launchFailed(
    `MAME was not found: no "mame" on PATH, at ${FALLBACK_MAME} or from scripts/install-mame.sh. Run bash scripts/setup.sh or set mamePath.`,
    { tried: [FALLBACK_MAME, ...installedMames()] },
  );
}

/** The MAME for a machine: config.mamePath, else the first candidate with its driver, else the first one at all. */
export async function mameForMachine(config: Pick<LaunchConfig, 'mamePath' | 'cwd' | 'machine'>): Promise<string> {
  if (config.mamePath) return resolveMamePath(config);
  for (const mame of mameCandidates()) if (await mameHasDriver(mame, config.machine)) return mame;
  return resolveMamePath(config); // none has it: requireDriver then says so, naming this one
}

/** The stock plugins (boot.lua …) of this MAME: beside it, or in an install-mame.sh prefix's unpacked tree. */
export function stockPluginCandidates(mamePath: string): string[] {
  return [
    resolve(dirname(mamePath), 'plugins'),
    resolve(dirname(mamePath), '..', 'root', 'usr', 'share', 'games', 'mame', 'plugins'),
  ];
}
