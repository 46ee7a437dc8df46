/**
 * Finds the sources a debug-info file names: absolute names as they are;
 * relative ones beside the debug-info file, in the folders above it (the
 * compile folder when outputs go to `build/`), and in the workspace; then
 * by base name there. Includes: beside the including file first, then the
 * toolchain's include folders (cc65: $CC65_INC, /usr/share/cc65/include,
 * /usr/local/share/cc65/include). Reads are bounded.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
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

/** A candidate is opened only when it is a file: a missing one costs a stat, not a failed open and its error. */
function tryReadFile(path: string): SourceFile | undefined {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ? read(path) : undefined;
}

/**
 * Whether `path` may exist, by its folder's listing read once per locator (a program names hundreds of files,
 * each tried in several folders: a stat each was most of a big .dbg's load when the sources are elsewhere).
 * Unknown (true) when the folder cannot be listed, and for a folder's first few names (each is a stat then).
 */
const STATS_BEFORE_LISTING = 32;

function folderLister(): (path: string) => boolean {
  const listings = new Map<string, Set<string> | undefined>();
  const asked = new Map<string, number>();
  return (path) => {
    const dir = dirname(path);
    if (!listings.has(dir)) {
      // a few names are cheaper to stat than a big folder (the one above the build, say) is to list
      const n = (asked.get(dir) ?? 0) + 1;
      asked.set(dir, n);
      if (n <= STATS_BEFORE_LISTING) return true;
      let names: Set<string> | undefined;
      try {
        names = new Set(readdirSync(dir).map(foldCase));
      } catch (e) {
        // a missing folder has no files; one we may not list might still hold them
        names =
          (e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR'
            ? new Set()
            : undefined;
      }
      listings.set(dir, names);
    }
    const names = listings.get(dir);
    return !names || names.has(foldCase(basename(path)));
  };
}

/** File names as the file system compares them (case-insensitively on Windows and macOS by default). */
const foldCase =
  process.platform === 'win32' || process.platform === 'darwin' ? (n: string) => n.toLowerCase() : (n: string) => n;

export function sourceLocator(debugInfoPath: string, workspace?: string): SourceLocator {
  const folders = sourceFolders(debugInfoPath, workspace);
  let includeDirs: string[] | undefined; // looked for at the first #include
  const includes = () => (includeDirs ??= cc65IncludeFolders());
  const mayExist = folderLister();
  const tryRead = (path: string) => (mayExist(path) ? tryReadFile(path) : undefined);
  return (name, { system, from }) => {
    if (isAbsolute(name)) return read(name);
    const dirs = from ? (system ? includes() : [dirname(from), ...folders, ...includes()]) : folders;
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
