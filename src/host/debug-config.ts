/**
 * Defaults for "retro" debug configurations, without VS Code: the extension's
 * DebugConfigurationProvider hands the configuration and a little context in
 * and shows the error sentence when one comes back.
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { DEBUG_TYPE } from '../dap/launch-schema.js';

/** A launch.json entry of type "retro" (the LaunchConfig fields plus VS Code's own). */
export interface RetroDebugConfiguration {
  type: string;
  request: string;
  name: string;
  [key: string]: unknown;
}

export interface DebugConfigContext {
  /** absolute path of the workspace folder the configuration belongs to */
  workspaceFolder?: string;
  /** absolute path and language of the active editor's file */
  activeFile?: string;
  activeLanguageId?: string;
  /** the retro.mamePath setting ("" = not set) */
  mamePathSetting?: string;
}

export type ResolveResult = { config: RetroDebugConfiguration } | { error: string };

/** Program images SDCC flows produce, most specific first; the debug info sits beside them. */
const PROGRAM_EXTENSIONS = ['.rom', '.bin', '.ihx'];
const SEARCH_DEPTH = 4;
const SEARCH_MAX_ENTRIES = 5000;
const SKIP_DIRS = new Set(['node_modules', '.git', '.vscode', 'dist', 'out']);

const STARTER: RetroDebugConfiguration = {
  type: DEBUG_TYPE,
  request: 'launch',
  name: 'Retro: debug program in MAME',
  machine: 'spectrum',
  emulator: 'mame',
  program: '${workspaceFolder}/build/program.rom',
  stopOnEntry: true,
  cwd: '${workspaceFolder}',
};

/** What a new launch.json starts with when no project is detected. */
export function starterConfigurations(): RetroDebugConfiguration[] {
  return [structuredClone(STARTER)];
}

export async function resolveDebugConfigurationDefaults(
  input: Record<string, unknown>,
  ctx: DebugConfigContext,
): Promise<ResolveResult> {
  const config: Record<string, unknown> = { ...input };
  const empty = !config.type && !config.request && !config.name;
  if (empty) {
    // F5 with no launch.json: only a C file gives us enough to guess from.
    if (ctx.activeLanguageId !== 'c') {
      return {
        error: 'Open a C file of the program, or add a "retro" configuration to launch.json, to start Retro Debug.',
      };
    }
    Object.assign(config, {
      type: DEBUG_TYPE,
      request: 'launch',
      name: 'Retro: launch (guessed)',
      machine: 'spectrum',
      emulator: 'mame',
      stopOnEntry: true,
    });
  }
  if (config.type !== DEBUG_TYPE)
    return { error: `This provider only resolves "${DEBUG_TYPE}" configurations, not "${String(config.type)}".` };
  config.request ??= 'launch';
  config.name ??= 'Retro Debug';
  config.emulator ??= 'mame';
  if (config.cwd === undefined && ctx.workspaceFolder) config.cwd = ctx.workspaceFolder;
  if (config.mamePath === undefined && ctx.mamePathSetting) config.mamePath = ctx.mamePathSetting;
  if (typeof config.machine !== 'string' || !config.machine) {
    return { error: 'The "retro" configuration needs "machine", e.g. "spectrum".' };
  }
  if (config.request === 'launch' && config.program === undefined) {
    const root = ctx.workspaceFolder ?? (ctx.activeFile ? dirname(ctx.activeFile) : undefined);
    const guess = root ? await guessProgram(root, ctx.activeFile) : undefined;
    if (!guess) {
      return {
        error:
          'No program image (.rom, .bin or .ihx beside a .cdb) was found in the workspace; set "program" in launch.json.',
      };
    }
    config.program = guess.program;
    config.debugInfo ??= guess.debugInfo;
  }
  return { config: config as RetroDebugConfiguration };
}

export interface ProgramGuess {
  program: string;
  debugInfo: string;
}

/**
 * Finds SDCC outputs under root: a .cdb with a program image of the same name.
 * Prefers the one nearest the active file, then the shallowest. Bounded walk.
 */
export async function guessProgram(root: string, activeFile?: string): Promise<ProgramGuess | undefined> {
  const found: ProgramGuess[] = [];
  let budget = SEARCH_MAX_ENTRIES;
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folders are not ours to report
    }
    const names = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    for (const name of [...names].sort()) {
      if (extname(name) !== '.cdb') continue;
      const stem = basename(name, '.cdb');
      const image = PROGRAM_EXTENSIONS.map((ext) => stem + ext).find((n) => names.has(n));
      if (image) found.push({ program: join(dir, image), debugInfo: join(dir, name) });
    }
    if (depth >= SEARCH_DEPTH) return;
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (--budget <= 0) return;
      if (entry.isDirectory() && !SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.'))
        await walk(join(dir, entry.name), depth + 1);
    }
  };
  await walk(root, 0);
  const distance = (g: ProgramGuess): number => {
    if (!activeFile) return 0;
    const rel = relative(dirname(activeFile), dirname(g.program));
    return rel === '' ? 0 : rel.split(sep).length;
  };
  const depthOf = (g: ProgramGuess): number => relative(root, g.program).split(sep).length;
  found.sort((a, b) => distance(a) - distance(b) || depthOf(a) - depthOf(b) || a.program.localeCompare(b.program));
  return found[0];
}
