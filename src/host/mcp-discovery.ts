/**
 * Per-user discovery files, so a stdio CLI can find the MCP server of a running
 * editor and relay to it: ~/.retro-debug/mcp-<pid>.json holding pid, port,
 * token and workspace. The folder is 0700 and each file 0600 (the token is a
 * secret); files are written atomically and removed when the editor closes.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
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
  try {
    await writeFile(tmp, JSON.stringify(info, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
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

/**
 * Also removes the file when the process exits without deactivating the
 * extension (an extension host that is shut down hard). Returns the undo.
 */
export function removeDiscoveryFileOnExit(path: string): () => void {
  const remove = () => rmSync(path, { force: true });
  process.once('exit', remove);
  return () => process.off('exit', remove);
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
    if (pid && !isAlive(Number(pid))) {
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
    try {
      const info = JSON.parse(await readFile(join(dir, name), 'utf8')) as McpDiscoveryInfo;
      if (Number.isInteger(info.pid) && isAlive(info.pid)) out.push(info);
    } catch {
      // half-written or foreign file: not a usable editor
    }
  }
  return out;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
