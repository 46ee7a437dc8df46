/**
 * Finds the sources a debug-info file names: absolute names as they are;
 * relative ones beside the debug-info file, in the folders above it (the
 * compile folder when outputs go to `build/`), and in the workspace; then
 * by base name there. Includes: beside the including file first, then the
 * toolchain's include folders (cc65: $CC65_INC, /usr/share/cc65/include,
 * /usr/local/share/cc65/include). Reads are bounded.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { readRegularFileSync } from '../core/files.js';
import type { SourceFile, SourceLocator } from './cc65-c-decls.js';

const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
/** how many folders above the debug-info file are tried */
const PARENT_FOLDERS = 2;

function read(path: string): SourceFile | undefined {
  try {
    return { path, text: readRegularFileSync(path, { maxBytes: MAX_SOURCE_BYTES, what: 'source' }).toString('latin1') };
  } catch {
    return undefined;
  }
}

export function sourceFolders(debugInfoPath: string, workspace?: string): string[] {
  const folders: string[] = [];
  let dir = dirname(resolve(debugInfoPath));
  for (let i = 0; i <= PARENT_FOLDERS; i++, dir = dirname(dir)) if (!folders.includes(dir)) folders.push(dir);
  if (workspace && !folders.includes(resolve(workspace))) folders.push(resolve(workspace));
  return folders;
}

export function cc65IncludeFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  return [env.CC65_INC, '/usr/share/cc65/include', '/usr/local/share/cc65/include'].filter(
    (d): d is string => !!d && existsSync(d),
  );
}

/**
 * Each folder is listed once per locator: a name it does not hold is not
 * opened (a program of hundreds of modules whose sources are elsewhere
 * would otherwise cost several failed opens each).
 */
function folderListing(): (path: string) => boolean {
  const listed = new Map<string, Set<string> | undefined>();
  return (path) => {
    const dir = dirname(path);
    if (!listed.has(dir)) {
      try {
        listed.set(dir, new Set(readdirSync(dir)));
      } catch {
        listed.set(dir, undefined);
      }
    }
    return listed.get(dir)?.has(basename(path)) ?? false;
  };
}

export function sourceLocator(debugInfoPath: string, workspace?: string): SourceLocator {
  const folders = sourceFolders(debugInfoPath, workspace);
  const includes = cc65IncludeFolders();
  const listed = folderListing();
  const tryRead = (path: string) => (listed(path) ? read(path) : undefined);
  return (name, { system, from }) => {
    if (isAbsolute(name)) return read(name);
    const dirs = from ? (system ? includes : [dirname(from), ...folders, ...includes]) : folders;
    for (const dir of dirs) {
      const found = tryRead(resolve(dir, name));
      if (found) return found;
    }
    if (from) return undefined;
    for (const dir of folders) {
      const found = tryRead(resolve(dir, basename(name)));
      if (found) return found;
    }
    return undefined;
  };
}
