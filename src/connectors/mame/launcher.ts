/**
 * Starts MAME with the bridge plugin: resolves the executable, stages the
 * program into a private rompath, keeps every MAME output directory inside a
 * private run dir (so $HOME/.mame is never written), and wraps the process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchFailed } from '../../core/errors.js';
import { rompathFolders, type BridgeLoadOptions, type LaunchConfig } from '../../core/launch.js';
import type { StagedExe } from '../../machines/sprinter/open-rom.js';
import type { LoadedProgram } from '../../core/target.js';
import { stageOpenSprinterRom } from './sprinter-open-rom.js';
import { loadProgramImage, romSlotFor } from './program-image.js';
import { requireDriver } from './driver-check.js';
import { diskProgram } from './disk-program.js';
import { mameForMachine, stockPluginCandidates } from './mame-finder.js';
import { mameSearchPath } from './search-path.js';
import { checkRomSet } from './rom-set.js';
import { checkMediaFile, type GivenMedia } from './media-check.js';

export { resolveMamePath } from './mame-finder.js';

const STOCK_PLUGIN_DIRS = [
  '/usr/share/games/mame/plugins',
  '/usr/share/mame/plugins',
  '/usr/local/share/games/mame/plugins',
  '/usr/local/share/mame/plugins',
  '/opt/homebrew/share/mame/plugins',
];
const STDERR_TAIL = 8192;
const KILL_GRACE_MS = 3000;

/** The folder holding our `mamebridge` plugin, bundled (dist/mame-plugin) or from source. */
export function resolvePluginDir(): string {
  const candidates = [
    join(__dirname, 'mame-plugin'),
    join(__dirname, 'plugin'),
    resolve(__dirname, '..', 'mame-plugin'),
  ];
  const found = candidates.find((d) => existsSync(join(d, 'mamebridge', 'init.lua')));
  if (!found) throw launchFailed(`The MAME bridge plugin is missing; looked in ${candidates.join(', ')}.`);
  return found;
}

/** MAME's own plugins folder: it holds boot.lua, without which no plugin starts. */
export function findStockPluginDir(mamePath: string): string | undefined {
  return [...stockPluginCandidates(mamePath), ...STOCK_PLUGIN_DIRS].find((d) => existsSync(join(d, 'boot.lua')));
}

export interface MameLaunch {
  mamePath: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  runDir: string;
  /** a program the machine loads itself (see Target.loadedProgram) */
  loadedProgram?: LoadedProgram;
  /** a DSS program the debugger loads once the BIOS has booted (bridge-load.ts) */
  bridgeLoad?: { exe: StagedExe; options: BridgeLoadOptions };
  /** the media slots given, checked against what MAME mounted once it started */
  media: GivenMedia[];
}

/** Everything short of spawning: checks inputs, stages the program, builds the command line. */
export async function prepareMameLaunch(
  config: LaunchConfig,
  workDir: string,
  bridge: { port: number; token: string },
): Promise<MameLaunch> {
  const cwd = resolve(config.cwd ?? process.cwd());
  const mamePath = await mameForMachine(config);
  await requireDriver(mamePath, config.machine);
  const stock = findStockPluginDir(mamePath);
  if (!stock)
    throw launchFailed(
      `MAME's stock plugins folder (with boot.lua) was not found near ${mamePath} or in ${STOCK_PLUGIN_DIRS.join(', ')}.`,
    );
  // the run folder's paths go into MAME's ';'-separated options: a work folder with a ';' gives way to the temp folder
  const base = resolve(workDir).includes(';') ? tmpdir() : resolve(workDir);
  const runDir = join(base, `mame-run-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    return await buildLaunch(config, cwd, mamePath, stock, runDir, bridge);
  } catch (err) {
    await rm(runDir, { recursive: true, force: true });
    throw err;
  }
}

async function buildLaunch(
  config: LaunchConfig,
  cwd: string,
  mamePath: string,
  stock: string,
  runDir: string,
  bridge: { port: number; token: string },
): Promise<MameLaunch> {
  const dirs = ['cfg', 'nvram', 'input', 'state', 'snapshot', 'diff', 'comment', 'share', 'roms', 'home'];
  for (const d of dirs) await mkdir(join(runDir, d), { recursive: true });

  const rompaths = [join(runDir, 'roms')];
  const romArgs: string[] = [];
  let loadedProgram: LoadedProgram | undefined;
  let bridgeLoad: MameLaunch['bridgeLoad'];
  if (config.program) {
    const path = resolve(cwd, config.program);
    // A program its machine loads itself (a DSS .EXE) is no ROM: the open ROM carries it, or the user's disk does.
    const exe = await diskProgram(config.machine, path);
    if (!exe) await stageProgram(config.machine, path, join(runDir, 'roms'));
    else {
      loadedProgram = { path, load: exe.header.load, code: exe.code };
      if (config.bridgeLoad) bridgeLoad = { exe, options: config.bridgeLoad };
      // on the bridge route without a BIOS of the user's, the open ROM boots without the program
      const staged = bridgeLoad ? undefined : exe;
      if (!config.rompath) romArgs.push(...(await stageOpenSprinterRom(mamePath, join(runDir, 'roms'), staged, path)));
    }
  }
  if (config.bridgeLoad && !bridgeLoad)
    throw launchFailed(
      `bridgeLoad loads a DSS .EXE into the Sprinter; the ${config.machine} ${config.program ? 'loads its program itself' : 'session has no program'}: leave bridgeLoad out.`,
    );
  const userRoms = rompathFolders(config.rompath).map((p) => resolve(cwd, p));
  await checkRomSet(mamePath, config.machine, userRoms, config.extraArgs);
  rompaths.push(...userRoms);

  const media: string[] = [];
  const given: GivenMedia[] = [];
  for (const [slot, file] of Object.entries(config.media ?? {})) {
    const path = resolve(cwd, file);
    if (!existsSync(path)) throw launchFailed(`The ${slot} media file ${path} does not exist.`, { path });
    await checkMediaFile({ slot, path });
    media.push(`-${slot}`, path);
    given.push({ slot, path });
  }
  const headless = config.headless !== false;
  const args = [
    config.machine,
    '-debug',
    '-debugger',
    'none',
    '-skip_gameinfo',
    ...(headless ? ['-video', 'none', '-sound', 'none'] : ['-window']),
    ...(config.throttle ? [] : ['-nothrottle']),
    '-rompath',
    await mameSearchPath(rompaths, join(runDir, 'links')),
    '-pluginspath',
    await mameSearchPath([stock, resolvePluginDir()], join(runDir, 'links')),
    '-plugin',
    'mamebridge',
    '-homepath',
    join(runDir, 'home'),
    '-cfg_directory',
    join(runDir, 'cfg'),
    '-nvram_directory',
    join(runDir, 'nvram'),
    '-input_directory',
    join(runDir, 'input'),
    '-state_directory',
    join(runDir, 'state'),
    '-snapshot_directory',
    join(runDir, 'snapshot'),
    '-diff_directory',
    join(runDir, 'diff'),
    '-comment_directory',
    join(runDir, 'comment'),
    '-share_directory',
    join(runDir, 'share'),
    ...media,
    ...romArgs,
    ...(config.extraArgs ?? []),
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MAMEBRIDGE_CONNECT: `127.0.0.1:${bridge.port}`,
    MAMEBRIDGE_TOKEN: bridge.token,
    MAMEBRIDGE_HOLD_ON_START: '1',
    MAMEBRIDGE_IDLE: 'stdin',
    ...(headless ? { SDL_VIDEODRIVER: 'dummy', SDL_AUDIODRIVER: 'dummy' } : {}),
  };
  return { mamePath, args, env, cwd, runDir, loadedProgram, bridgeLoad, media: given };
}

async function stageProgram(machine: string, program: string, romDir: string): Promise<void> {
  if (!existsSync(program)) throw launchFailed(`The program file ${program} does not exist.`, { path: program });
  const slot = romSlotFor(machine);
  if (!slot) {
    throw launchFailed(
      `Retro Debug does not know how to load a program into the MAME machine "${machine}"; pass it as media instead.`,
      { machine },
    );
  }
  const image = await loadProgramImage(program, slot);
  const dir = join(romDir, slot.set);
  await mkdir(dir, { recursive: true });
  for (const file of [slot.file, ...(slot.copies ?? [])]) {
    const tmp = join(dir, `.${file}.tmp`);
    await writeFile(tmp, image);
    await rename(tmp, join(dir, file));
  }
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running MAME process. */
export class MameProcess {
  readonly exited: Promise<ExitInfo>;
  private tail = '';
  private exitInfo?: ExitInfo;

  constructor(
    readonly child: ChildProcess,
    readonly launch: MameLaunch,
  ) {
    const keep = (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    };
    child.stderr?.on('data', keep);
    child.stdout?.on('data', keep);
    child.stdin?.on('error', () => {});
    this.exited = new Promise((resolveExit) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolveExit(this.exitInfo);
      });
      child.once('error', () => {
        this.exitInfo ??= { code: null, signal: null };
        resolveExit(this.exitInfo);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The last few KB MAME printed (stderr and stdout), for error messages. */
  outputTail(): string {
    return this.tail.trim();
  }

  /** Wake the bridge's hold loop (it blocks reading stdin while the CPU is held). */
  ringDoorbell(): void {
    if (this.child.stdin && !this.child.stdin.destroyed) this.child.stdin.write('\n');
  }

  /**
   * Ends MAME: `askToExit` (the bridge's exit op) first, SIGKILL after a grace
   * period (headless MAME ignores SIGTERM). Removes the private run dir.
   */
  async stop(askToExit: () => Promise<unknown>): Promise<ExitInfo> {
    if (!this.hasExited) {
      await Promise.race([askToExit().catch(() => {}), this.exited]);
      const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), KILL_GRACE_MS).unref());
      if ((await Promise.race([this.exited, timer])) === 'timeout') this.child.kill('SIGKILL');
    }
    const info = await this.exited;
    await rm(this.launch.runDir, { recursive: true, force: true }).catch(() => {});
    return info;
  }
}

export function spawnMame(launch: MameLaunch): MameProcess {
  // sh ignores SIGPIPE for MAME: otherwise a write after the peer went away kills it.
  const child = spawn('sh', ['-c', 'trap "" PIPE; exec "$@"', 'sh', launch.mamePath, ...launch.args], {
    cwd: launch.cwd,
    env: launch.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new MameProcess(child, launch);
}
