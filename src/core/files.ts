/**
 * Every file the product reads for a client or writes for one goes through
 * here: path text checks (NUL, length), regular-file reads capped before any
 * byte is read, the allowed-roots check made on the real path (symlinks
 * resolved), atomic no-overwrite writes, and the private per-user output folder.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  chmodSync,
} from 'node:fs';
import { link, mkdir, open, readlink, realpath, rename, unlink } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  RetroError,
  badRequest,
  notFound,
  notAllowed,
  tooLarge,
  outsideRoots,
  fileExists,
  internalError,
} from './errors.js';

/** Longest path text accepted (Linux PATH_MAX) and longest name in it (NAME_MAX). */
export const MAX_PATH_CHARS = 4096;
export const MAX_NAME_CHARS = 255;

/** Default caps for what clients make us read. */
export const MAX_PROGRAM_BYTES = 16 * 1024 * 1024;
export const MAX_PROFILE_BYTES = 4 * 1024 * 1024;

/** Refuse path text no file system would take, as a bad request rather than an internal error. */
export function checkPathText(path: string, what = 'path'): void {
  if (typeof path !== 'string' || path === '') throw badRequest(`The ${what} is empty.`);
  if (path.includes('\0')) throw badRequest(`The ${what} contains a NUL byte.`);
  if (path.length > MAX_PATH_CHARS)
    throw badRequest(`The ${what} is ${path.length} characters; at most ${MAX_PATH_CHARS}.`);
  const long = path.split(/[\\/]/).find((part) => Buffer.byteLength(part) > MAX_NAME_CHARS);
  if (long !== undefined)
    throw badRequest(`A name in the ${what} is longer than ${MAX_NAME_CHARS} bytes.`, {
      name: long.slice(0, 40) + '…',
    });
}

function errnoError(err: unknown, path: string, what: string): RetroError {
  if (err instanceof RetroError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return notFound(`The ${what} ${path} does not exist.`, { path });
  if (code === 'ENAMETOOLONG') return badRequest(`The ${what} path is too long.`, { path });
  return badRequest(`Cannot read the ${what} ${path}: ${(err as Error).message}`, { path });
}

/** The real path of an open descriptor (Linux: /proc/self/fd), so a swapped symlink cannot fool a check. */
function fdRealPathSync(fd: number, fallback: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return realpathSync(fallback);
  }
}

export interface ReadOptions {
  /** refuse files larger than this before reading them */
  maxBytes: number;
  /** what the file is, in messages: "program", "profile" */
  what?: string;
  /** when given, the file's real path must lie inside one of these folders */
  roots?: readonly string[];
}

/**
 * Reads a regular file of at most `maxBytes`: opened non-blocking (a FIFO or
 * device cannot hang us), checked with fstat on the open descriptor, then read.
 */
export function readRegularFileSync(path: string, opts: ReadOptions): Buffer {
  const what = opts.what ?? 'file';
  checkPathText(path, `${what} path`);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    throw errnoError(err, path, what);
  }
  try {
    if (opts.roots) checkInsideRoots(fdRealPathSync(fd, path), opts.roots, path);
    const st = fstatSync(fd);
    if (!st.isFile()) throw badRequest(`The ${what} ${path} is not a regular file.`, { path });
    if (st.size > opts.maxBytes)
      throw tooLarge(`The ${what} ${path} is ${st.size} bytes; at most ${opts.maxBytes} are read.`, {
        path,
        size: st.size,
        max_bytes: opts.maxBytes,
      });
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === buf.length ? buf : buf.subarray(0, got);
  } catch (err) {
    throw errnoError(err, path, what);
  } finally {
    closeSync(fd);
  }
}

/** Async twin of readRegularFileSync. */
export async function readRegularFile(path: string, opts: ReadOptions): Promise<Buffer> {
  const what = opts.what ?? 'file';
  checkPathText(path, `${what} path`);
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY).catch((err) => {
    throw errnoError(err, path, what);
  });
  try {
    if (opts.roots) {
      const real = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => realpath(path));
      checkInsideRoots(real, opts.roots, path);
    }
    const st = await handle.stat();
    if (!st.isFile()) throw badRequest(`The ${what} ${path} is not a regular file.`, { path });
    if (st.size > opts.maxBytes)
      throw tooLarge(`The ${what} ${path} is ${st.size} bytes; at most ${opts.maxBytes} are read.`, {
        path,
        size: st.size,
        max_bytes: opts.maxBytes,
      });
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return got === buf.length ? buf : buf.subarray(0, got);
  } catch (err) {
    throw errnoError(err, path, what);
  } finally {
    await handle.close();
  }
}

/** The real path of `path`, which need not exist yet: its deepest existing ancestor is resolved, the rest appended. */
export function realPathLoose(path: string): string {
  let existing = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest);
    } catch {
      const up = dirname(existing);
      if (up === existing) return join(existing, ...rest);
      rest.unshift(basename(existing));
      existing = up;
    }
  }
}

function isInside(root: string, full: string): boolean {
  const rel = relative(root, full);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** Throws `outside_roots` unless the (already real) path lies in one of the roots (real paths taken too). */
export function checkInsideRoots(realPath: string, roots: readonly string[], shown = realPath): void {
  if (roots.some((root) => isInside(realPathLoose(root), realPath))) return;
  throw outsideRoots(
    `${shown} is outside the folders this client may use (${roots.join(', ') || 'none'}). ` +
      'Use a path inside the workspace, the output folder or a root the MCP client declared.',
    { path: shown, real_path: realPath, roots: [...roots] },
  );
}

/** The real path of `path` (see realPathLoose), checked against the roots. */
export function resolveInsideRoots(path: string, roots: readonly string[]): string {
  checkPathText(path);
  const real = realPathLoose(path);
  checkInsideRoots(real, roots, path);
  return real;
}

/** Relative paths resolve under the output folder and may not escape it (symlinks included). */
export function resolveOutputPath(outputDir: string, path: string): string {
  checkPathText(path, 'output path');
  const root = resolve(outputDir);
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw badRequest(`Output path "${path}" must name a file inside the output folder ${root}.`, {
      output_dir: root,
    });
  }
  resolveInsideRoots(full, [root]);
  return full;
}

/** Writes under the output folder atomically; returns the absolute path written. */
export async function writeOutputFile(
  outputDir: string,
  path: string,
  data: Uint8Array,
  overwrite = false,
): Promise<string> {
  const full = resolveOutputPath(outputDir, path);
  await writeFileAtomic(full, data, { overwrite, roots: [outputDir] });
  return full;
}

/**
 * Atomic write of an absolute path: temp file beside it (created exclusively),
 * then link (no overwrite: fails atomically with EEXIST) or rename (overwrite).
 * With `roots`, the folder is checked again after it was created.
 */
export async function writeFileAtomic(
  full: string,
  data: Uint8Array | string,
  opts: { overwrite?: boolean; mode?: number; roots?: readonly string[] } = {},
): Promise<void> {
  checkPathText(full, 'output path');
  await makeFolder(dirname(full)).catch((err: NodeJS.ErrnoException) => {
    // EEXIST from mkdir: a file stands where a folder of the path should be
    throw writeError(full, err.code === 'EEXIST' ? { ...err, code: 'ENOTDIR' } : err);
  });
  if (opts.roots) checkInsideRoots(await realpath(dirname(full)), opts.roots, full);
  const tmp = join(dirname(full), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(tmp, 'wx', opts.mode ?? 0o666);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    if (opts.overwrite) await rename(tmp, full);
    else await link(tmp, full);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw fileExists(`${full} already exists; pass overwrite: true to replace it.`, {
        path: full,
      });
    }
    throw writeError(full, err as NodeJS.ErrnoException);
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * mkdir -p that fails with the real reason: Node's recursive mkdir answers ENOENT where the file system refused
 * (EROFS on a read-only mount), which would read as "the folder is gone". Then the missing levels are made one at a
 * time, so the first that fails says why.
 */
async function makeFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const missing: string[] = [];
  for (let at = dir; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const at of missing)
    await mkdir(at).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err; // made meanwhile by someone else: fine
    });
}

/** A failed write said as the user can act on it: which path, and whether the folder refused or vanished. */
function writeError(full: string, err: NodeJS.ErrnoException): RetroError {
  const folder = dirname(full);
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return notAllowed(`Cannot write ${full}: the folder ${folder} is read-only here (${err.code}); choose another.`, {
        path: full,
      });
    case 'ENOENT':
    case 'ENOTDIR':
      return notFound(`Cannot write ${full}: the folder ${folder} is gone (deleted, renamed or a file now).`, {
        path: full,
      });
    default:
      return internalError(`Could not write ${full}: ${err.message}`, { path: full });
  }
}

/**
 * A folder only this user can enter: created 0700 if missing, and refused if
 * it is a symlink, belongs to someone else, or others can reach it (another
 * user could have pre-created it to read or plant files).
 */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory())
    throw badRequest(`${dir} must be a folder, not a link or file: refusing to use it.`, {
      path: dir,
    });
  if (uid !== undefined && st.uid !== uid)
    throw badRequest(`${dir} belongs to uid ${st.uid}, not to us (uid ${uid}): refusing to use it.`, {
      path: dir,
    });
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return dir;
}

/**
 * The private per-user output folder: $XDG_CACHE_HOME/retro-debug/output
 * (~/.cache/…); when the home folder is not writable, a fresh mkdtemp folder
 * in the temp dir (an unpredictable name, 0700).
 */
export function privateOutputDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  try {
    ensurePrivateDir(join(cache, 'retro-debug'));
    return ensurePrivateDir(join(cache, 'retro-debug', 'output'));
  } catch {
    return ensurePrivateDir(mkdtempSync(join(tmpdir(), 'retro-debug-output-')));
  }
}
