/**
 * Starts a native DOSBox isolated from the desktop — SDL's dummy video driver
 * (no window at all) or a private Xvfb display — or attaches to a running one
 * by PID. Nothing here touches the user's screen, focus or pointer.
 */
import { sleep } from '../../core/async.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { launchFailed, unsupported } from '../../core/errors.js';
import { buildConf } from './dosbox-conf.js';
import { nativeMapperFile } from './recorders.js';

export type Isolation = 'dummy' | 'xvfb';

export interface NativeLaunchOptions {
  executable?: string;
  /** program to run (its folder is mounted as C:) */
  program?: string;
  args?: string;
  /** a whole DOSBox .conf to use instead of ours */
  conf?: string;
  isolation?: Isolation;
  workDir: string;
  memsizeMb?: number;
  onOutput?: (line: string) => void;
}

export interface NativeProcess {
  child: ChildProcess;
  pid: number;
  /** where our conf makes the emulator's recorders write (absent with a caller's conf) */
  captures?: string;
  /** private X server we started, ended with the emulator */
  xvfb?: ChildProcess;
  /** that private display (":N"); nobody else's keys or eyes are on it */
  display?: string;
  exited: Promise<number | null>;
  kill(): Promise<void>;
}

const DEFAULT_EXECUTABLES = ['dosbox-x', 'dosbox', 'dosbox-staging'];

function findExecutable(explicit?: string): string {
  if (explicit) {
    if (!existsSync(explicit) && !explicit.includes('/')) return explicit; // on PATH, let spawn report
    if (!existsSync(explicit)) throw launchFailed(`The emulator executable ${explicit} does not exist.`);
    return explicit;
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    for (const name of DEFAULT_EXECUTABLES) if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  throw launchFailed(
    'No DOSBox found on PATH (looked for dosbox-x, dosbox, dosbox-staging); install one (Debian: apt-get install dosbox) or pass executable, or use the wasm backend.',
  );
}

export async function launchNative(o: NativeLaunchOptions): Promise<NativeProcess> {
  if (process.platform !== 'linux')
    throw unsupported('Launching a native DOSBox is implemented for Linux only; use the wasm backend.');
  const exe = findExecutable(o.executable);
  await mkdir(o.workDir, { recursive: true });
  let confPath = o.conf;
  if (!confPath) {
    const program = o.program && resolve(o.program);
    if (program && !existsSync(program)) throw launchFailed(`The DOS program ${program} does not exist.`);
    confPath = join(o.workDir, 'dosbox.conf');
    const mapperFile = join(o.workDir, 'mapper.map');
    await writeFile(mapperFile, nativeMapperFile());
    await writeFile(
      confPath,
      buildConf({
        folder: program ? dirname(program) : o.workDir,
        program: program && basename(program),
        args: o.args,
        memsizeMb: o.memsizeMb,
        captures: join(o.workDir, 'capture'),
        mapperFile,
      }),
    );
  }
  const env: NodeJS.ProcessEnv = { ...process.env, SDL_AUDIODRIVER: 'dummy', HOME: o.workDir };
  let xvfb: ChildProcess | undefined;
  let display: string | undefined;
  if ((o.isolation ?? 'dummy') === 'xvfb') {
    const x = await startXvfb();
    xvfb = x.child;
    env.DISPLAY = display = x.display;
    delete env.SDL_VIDEODRIVER;
  } else {
    env.SDL_VIDEODRIVER = 'dummy';
    delete env.DISPLAY;
  }
  const child = spawn(exe, ['-conf', confPath], { env, cwd: o.workDir, stdio: ['ignore', 'pipe', 'pipe'] });
  // resolves once the X server is gone too: a dying Xvfb removes its display's socket on the way out, which would
  // be the socket of the next Xvfb given the same number
  const exited = new Promise<number | null>((res) =>
    child.once('exit', (code) => {
      void endXvfb(xvfb).then(() => res(code));
    }),
  );
  const spawnError = new Promise<never>((_, rej) =>
    child.once('error', (err) => rej(launchFailed(`Could not start ${exe}: ${err.message}`))),
  );
  const lines = (chunk: Buffer) => {
    for (const l of chunk.toString().split('\n')) if (l.trim() && !/ALSA lib/.test(l)) o.onOutput?.(l);
  };
  child.stdout!.on('data', lines);
  child.stderr!.on('data', lines);
  await Promise.race([spawnError, new Promise((r) => setTimeout(r, 50))]);
  if (!child.pid) throw launchFailed(`Could not start ${exe}.`);
  return {
    child,
    pid: child.pid,
    xvfb,
    display,
    captures: o.conf ? undefined : join(o.workDir, 'capture'),
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(t);
      }
      await exited;
    },
  };
}

async function endXvfb(xvfb: ChildProcess | undefined): Promise<void> {
  if (!xvfb || xvfb.exitCode !== null || xvfb.signalCode !== null) return;
  const gone = new Promise((r) => xvfb.once('exit', r));
  xvfb.kill('SIGTERM');
  const t = setTimeout(() => xvfb.kill('SIGKILL'), 2000);
  await gone;
  clearTimeout(t);
}

/**
 * A private X display (Xvfb -displayfd picks a free number). -noreset: an X server resets when its last client
 * leaves (our readiness probe), and a client connecting during the reset fails ("Couldn't open X11 display").
 */
async function startXvfb(): Promise<{ child: ChildProcess; display: string }> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '2048x1536x24', '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  return new Promise((res, rej) => {
    const t = setTimeout(() => {
      child.kill();
      rej(launchFailed('Xvfb did not report a display within 10 s.'));
    }, 10_000);
    child.once('error', (e) => {
      clearTimeout(t);
      rej(launchFailed(`Could not start Xvfb for an isolated display (apt-get install xvfb): ${e.message}`));
    });
    let reported = '';
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      reported += d.toString();
      const n = reported.trim();
      if (!/^\d+$/.test(n)) return;
      clearTimeout(t);
      xServerAccepts(n).then(
        () => res({ child, display: `:${n}` }),
        (e: Error) => {
          child.kill();
          rej(launchFailed(`Xvfb reported display :${n} but does not accept connections: ${e.message}`));
        },
      );
    });
  });
}

/** Resolves once display n's Unix socket takes a connection (what SDL's XOpenDisplay needs). */
async function xServerAccepts(n: string): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const ok = await new Promise<boolean>((res) => {
      const sock = connect(`/tmp/.X11-unix/X${n}`);
      sock.once('connect', () => {
        sock.destroy();
        res(true);
      });
      sock.once('error', () => res(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`no socket /tmp/.X11-unix/X${n} within 5 s`);
    await sleep(50);
  }
}
