/**
 * Per-user discovery files, so a stdio CLI can find the MCP server of a running
 * editor and relay to it: ~/.retro-debug/mcp-<pid>.json holding pid, port,
 * token and workspace. The folder is 0700 and each file 0600 (the token is a
 * secret); files are written atomically and removed when the editor closes
 * (deactivation, exit, SIGINT/SIGTERM/SIGHUP). A file is trusted only while
 * its PID runs and started when the file says (/proc/<pid>/stat field 22), so
 * a reused PID does not make a dead editor's file look alive.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface McpDiscoveryInfo {
  pid: number;
  port: number;
  url: string;
  token: string;
  /** workspace folders of the editor window, absolute paths */
  workspace: string[];
  /** ms since epoch */
  startedAt: number;
  /** the process's start time in clock ticks after boot (/proc/<pid>/stat field 22); filled in when written */
  pidStart?: string;
}

/** A process's start time (field 22 of /proc/<pid>/stat), or undefined when it is gone or there is no /proc. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // field 2 (the command name, in parentheses) may hold spaces and parentheses: count from the last ')'
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[22 - 3];
  } catch {
    return undefined;
  }
}

const HAS_PROC = processStartTime(process.pid) !== undefined;

/** Whether the editor a file names still runs: its PID lives and (where /proc tells) it is the same process. */
function isTrusted(info: McpDiscoveryInfo): boolean {
  if (!Number.isInteger(info.pid) || info.pid <= 0 || !isAlive(info.pid)) return false;
  return !HAS_PROC || (info.pidStart !== undefined && processStartTime(info.pid) === info.pidStart);
}

export function defaultDiscoveryDir(): string {
  return join(homedir(), '.retro-debug');
}

export function discoveryFileName(pid: number): string {
  return `mcp-${pid}.json`;
}

/** Writes (atomically, replacing this process's own earlier file) and returns the path. */
export async function writeDiscoveryFile(info: McpDiscoveryInfo, dir = defaultDiscoveryDir()): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const path = join(dir, discoveryFileName(info.pid));
  const tmp = `${path}.tmp-${randomBytes(4).toString('hex')}`;
  const pidStart = info.pidStart ?? processStartTime(info.pid);
  try {
    await writeFile(tmp, JSON.stringify({ ...info, ...(pidStart ? { pidStart } : {}) }, null, 2) + '\n', {
      mode: 0o600,
      flag: 'wx',
    });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return path;
}

export async function removeDiscoveryFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Also removes the file when the process exits without deactivating the
 * extension (an extension host that is shut down hard), or is ended by a
 * signal: then, if nobody else listens for it, the signal's own action
 * follows (the process ends as it would have). Returns the undo.
 */
export function removeDiscoveryFileOnExit(path: string): () => void {
  const remove = () => rmSync(path, { force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    if (process.listenerCount(signal) > 1) return; // someone else decides what the signal does
    undo();
    process.kill(process.pid, signal);
  };
  const undo = () => {
    process.off('exit', remove);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  process.once('exit', remove);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return undo;
}

/** Deletes files left by editors that died without cleaning up; returns how many. */
export async function pruneStaleDiscoveryFiles(dir = defaultDiscoveryDir()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = /^mcp-(\d+)\.json$/.exec(name)?.[1];
    if (!pid) continue;
    const info = await readInfo(join(dir, name));
    // a file that cannot be read is stale only when its PID is dead (a live editor may be writing it)
    if (info ? !isTrusted(info) : !isAlive(Number(pid))) {
      await rm(join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}

/** Discovery files of editors that are still running; files of dead processes are skipped. */
export async function listDiscoveryFiles(dir = defaultDiscoveryDir()): Promise<McpDiscoveryInfo[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: McpDiscoveryInfo[] = [];
  for (const name of names.filter((n) => /^mcp-\d+\.json$/.test(n)).sort()) {
    const info = await readInfo(join(dir, name));
    if (info && isTrusted(info)) out.push(info);
  }
  return out;
}

/** A discovery file's content; undefined for a half-written or foreign file (not a usable editor). */
async function readInfo(path: string): Promise<McpDiscoveryInfo | undefined> {
  try {
    const info = JSON.parse(await readFile(path, 'utf8')) as McpDiscoveryInfo;
    return info && typeof info === 'object' ? info : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
