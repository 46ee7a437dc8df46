/**
 * A bounded walk of a workspace folder (depth and entry budget; node_modules, dist, out and
 * dot-folders skipped): launch-configuration guesses, project detection and the language
 * server's index all look at the workspace through it.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export const SKIP_DIRS = new Set(['node_modules', '.git', '.vscode', 'dist', 'out']);

export interface WalkOptions {
  maxDepth: number;
  maxEntries: number;
}

/** Calls `visit` once per folder with its file names (sorted), parents before children. */
export async function walkWorkspace(
  root: string,
  visit: (dir: string, files: string[], depth: number) => void | Promise<void>,
  opts: WalkOptions = { maxDepth: 4, maxEntries: 5000 },
): Promise<void> {
  let budget = opts.maxEntries;
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable folders are not ours to report
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    await visit(
      dir,
      entries.filter((e) => e.isFile()).map((e) => e.name),
      depth,
    );
    if (depth >= opts.maxDepth) return;
    for (const entry of entries) {
      if (--budget <= 0) return;
      if (entry.isDirectory() && !SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.'))
        await walk(join(dir, entry.name), depth + 1);
    }
  };
  await walk(root, 0);
}
