/**
 * Defaults for "retro" debug configurations, without VS Code: the extension's
 * DebugConfigurationProvider hands the configuration and a little context in
 * and shows the error sentence when one comes back.
 */
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { DEBUG_TYPE } from '../dap/launch-schema.js';
import { detectProjects, launchConfigurationFor, projectFor, type RetroDebugConfiguration } from './projects.js';
import { walkWorkspace } from './workspace-walk.js';

export type { RetroDebugConfiguration } from './projects.js';

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

/** The Run and Debug view's dynamic list: one configuration per detected project, nothing when there is none. */
export async function detectedConfigurations(workspaceFolder: string | undefined): Promise<RetroDebugConfiguration[]> {
  const projects = workspaceFolder ? await detectProjects(workspaceFolder) : [];
  return projects.map((p) => launchConfigurationFor(p, workspaceFolder));
}

/** "create a launch.json": one configuration per detected project (built by its task first), else the starter. */
export async function generatedConfigurations(workspaceFolder: string | undefined): Promise<RetroDebugConfiguration[]> {
  const projects = workspaceFolder ? await detectProjects(workspaceFolder) : [];
  return projects.length ? projects.map((p) => launchConfigurationFor(p, workspaceFolder)) : starterConfigurations();
}

export async function resolveDebugConfigurationDefaults(
  input: Record<string, unknown>,
  ctx: DebugConfigContext,
): Promise<ResolveResult> {
  const config: Record<string, unknown> = { ...input };
  const empty = !config.type && !config.request && !config.name;
  if (empty) {
    // F5 with no launch.json: the project of the active file (built first by its task), else a guess from a C file.
    const projects = ctx.workspaceFolder ? await detectProjects(ctx.workspaceFolder) : [];
    const project = projectFor(projects, ctx.activeFile);
    if (project) return { config: launchConfigurationFor(project, ctx.workspaceFolder) };
    if (projects.length > 1)
      return {
        error: `Open a file of one of the projects (${projects.map((p) => p.name).join(', ')}), or create a launch.json to choose.`,
      };
    if (ctx.activeLanguageId !== 'c') {
      return {
        error:
          'Open a C or assembly file of the program (no cc65, SDCC, nasm, ACME or 64tass project was found), or add a "retro" configuration to launch.json, to start Retro Debug.',
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
  // only MAME takes it: any other emulator refuses an option it does not take
  if (config.emulator === 'mame' && config.mamePath === undefined && ctx.mamePathSetting)
    config.mamePath = ctx.mamePathSetting;
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
  await walkWorkspace(root, (dir, files) => {
    const names = new Set(files);
    for (const name of files) {
      if (extname(name) !== '.cdb') continue;
      const stem = basename(name, '.cdb');
      const image = PROGRAM_EXTENSIONS.map((ext) => stem + ext).find((n) => names.has(n));
      if (image) found.push({ program: join(dir, image), debugInfo: join(dir, name) });
    }
  });
  const distance = (g: ProgramGuess): number => {
    if (!activeFile) return 0;
    const rel = relative(dirname(activeFile), dirname(g.program));
    return rel === '' ? 0 : rel.split(sep).length;
  };
  const depthOf = (g: ProgramGuess): number => relative(root, g.program).split(sep).length;
  found.sort((a, b) => distance(a) - distance(b) || depthOf(a) - depthOf(b) || a.program.localeCompare(b.program));
  return found[0];
}
