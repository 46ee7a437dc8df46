/**
 * emulator "vice": starts x64sc with the binary monitor on a free loopback
 * port (the race-free pattern of the reference, §14.3), or attaches to a
 * running VICE (`viceMonitor: "host:port"`). Attaching never ends VICE:
 * close() then only drops our connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { launchFailed, unsupported, badRequest } from '../../core/errors.js';
import type { LaunchConfig } from '../../core/launch.js';
import type { Target } from '../../core/target.js';
import { MonitorClient } from './monitor-client.js';
import { startConfiguredProgram } from './start-program.js';
import { ViceTarget } from './vice-target.js';
import { ViceLifecycle } from './vice-lifecycle.js';

/** VICE's own snapshot files (.vsf); VICE checks the machine and its module versions when it loads one */
const VICE_STATE_FORMAT = 'vice-vsf';

const CONNECT_TIMEOUT_MS = 20_000;
const START_TIMEOUT_MS = 60_000;
const QUIT_GRACE_MS = 3000;
const LOG_TAIL = 8192;

export function resolveVicePath(config: Pick<LaunchConfig, 'vicePath' | 'cwd'>): string {
  const candidates = config.vicePath
    ? [resolve(config.cwd ?? process.cwd(), config.vicePath)]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((d) => join(d, 'x64sc'));
  const found = candidates.find((p) => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  });
  if (found) return found;
  throw launchFailed(
    config.vicePath
      ? `VICE was not found at ${candidates[0]} (vicePath).`
      : 'VICE\'s x64sc is not on PATH. Install VICE 3.6 or later, set vicePath, or use emulator "builtin" (no install needed).',
    { tried: candidates },
  );
}

/**
 * x64sc's arguments: defaults only; no sound output, but the SID emulated
 * (VICE's register-dump device into the null device: with its dummy device
 * the SID is not clocked, and voice 3's oscillator and envelope read 0);
 * binary monitor on loopback, inject-mode PRG autostart; drive 8 from
 * `drive8`, then the user's `extraArgs`.
 */
export function viceArgs(port: number, config: LaunchConfig): string[] {
  return [
    '-default',
    '-sound',
    '-sounddev',
    'dump',
    '-soundarg',
    process.platform === 'win32' ? 'NUL' : '/dev/null',
    '-binarymonitor',
    '-binarymonitoraddress',
    `ip4://127.0.0.1:${port}`,
    '-autostartprgmode',
    '1',
    '+autostart-delay-random',
    ...(config.throttle ? [] : ['-warp']),
    ...drive8Args(config),
    ...(config.extraArgs ?? []),
  ];
}

const DISK_IMAGE = /\.(d64|d71|d81|g64|x64)$/i;

/**
 * Device 8 as the built-in gives it: a disk image attached to drive 8, or a
 * host folder as VICE's file-system device (IEC-level, so it works beside
 * true drive emulation).
 */
function drive8Args(config: LaunchConfig): string[] {
  if (!config.drive8) return [];
  const path = resolve(config.cwd ?? process.cwd(), config.drive8);
  return DISK_IMAGE.test(path) ? ['-8', path] : ['-iecdevice8', '-device8', '1', '-fs8', path];
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolvePort(port));
    });
  });
}

export async function launchViceTarget(
  config: LaunchConfig,
  opts: { onProgress?: (message: string) => void } = {},
): Promise<Target> {
  if (config.machine !== 'c64')
    throw unsupported(`The VICE connector drives x64sc (machine "c64"), not "${config.machine}".`);
  if (config.viceMonitor) {
    // options of x64sc's command line cannot reach a VICE that is already running
    const given = (['extraArgs', 'drive8'] as const).filter((k) => config[k] !== undefined);
    if (given.length)
      throw unsupported(
        `${given.join(' and ')} start x64sc with them; a VICE attached to (viceMonitor) was started without. ` +
          'Give them on its own command line, or launch without viceMonitor.',
        { options: given },
      );
    return attach(config, opts);
  }
  const exe = resolveVicePath(config);
  const port = await freePort();
  opts.onProgress?.(`Starting ${exe} with the binary monitor on 127.0.0.1:${port}`);
  const child = spawn(exe, viceArgs(port, config), { stdio: ['ignore', 'pipe', 'pipe'], cwd: config.cwd });
  let log = '';
  let exited: string | undefined;
  const keep = (b: Buffer) => {
    log = (log + b.toString('utf8')).slice(-LOG_TAIL);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', (code, signal) => {
    exited = `exit code ${code ?? signal}; log: ${log.trim().slice(-400)}`;
  });
  child.once('error', (err) => {
    exited = err.message;
  });
  let target: ViceTarget | undefined;
  try {
    const client = await MonitorClient.connect('127.0.0.1', port, {
      timeoutMs: CONNECT_TIMEOUT_MS,
      isAlive: () => exited,
    });
    target = await ViceTarget.open(client, { kind: 'vice', shutdown: () => quit(target!, child) });
    target.lifecycle = new ViceLifecycle(target, config, VICE_STATE_FORMAT);
    await startConfiguredProgram(target, config, START_TIMEOUT_MS, opts.onProgress);
    return target;
  } catch (err) {
    if (target) await target.close().catch(() => undefined);
    else child.kill('SIGKILL');
    throw err;
  }
}

async function attach(config: LaunchConfig, opts: { onProgress?: (message: string) => void }): Promise<Target> {
  const m = /^(.+):(\d+)$/.exec(config.viceMonitor!);
  if (!m) throw badRequest(`viceMonitor must be "host:port", not "${config.viceMonitor}".`);
  opts.onProgress?.(`Attaching to the VICE binary monitor at ${config.viceMonitor}`);
  const client = await MonitorClient.connect(m[1], Number(m[2]), { timeoutMs: CONNECT_TIMEOUT_MS });
  const target = await ViceTarget.open(client, { kind: 'vice' });
  target.lifecycle = new ViceLifecycle(target, config, VICE_STATE_FORMAT);
  await startConfiguredProgram(target, config, START_TIMEOUT_MS, opts.onProgress);
  return target;
}

/** QUIT through the monitor, then make sure the process is gone. */
async function quit(target: ViceTarget, child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  await target.vice.quit().catch(() => undefined);
  const timer = setTimeout(() => child.kill('SIGKILL'), QUIT_GRACE_MS);
  await gone;
  clearTimeout(timer);
}
