/**
 * Writes a product file under one output folder: relative paths resolve there
 * and may not escape it; the write is atomic (temp file, then link/rename) and
 * refuses to replace an existing file unless overwrite is true.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { RetroError } from '../core/errors.js';

export function resolveOutputPath(outputDir: string, path: string): string {
  const root = resolve(outputDir);
  const full = resolve(root, path);
  const rel = relative(root, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new RetroError('bad_request', `Output path "${path}" must name a file inside the output folder ${root}.`, {
      output_dir: root,
    });
  }
  return full;
}

/** Returns the absolute path written. */
export async function writeOutputFile(
  outputDir: string,
  path: string,
  data: Uint8Array,
  overwrite = false,
): Promise<string> {
  const full = resolveOutputPath(outputDir, path);
  await writeFileAtomic(full, data, { overwrite });
  return full;
}

/** Atomic write of any absolute path: temp file beside it, then link (no overwrite) or rename (overwrite). */
export async function writeFileAtomic(
  full: string,
  data: Uint8Array | string,
  opts: { overwrite?: boolean; mode?: number } = {},
): Promise<void> {
  await mkdir(dirname(full), { recursive: true });
  const tmp = join(dirname(full), `.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(tmp, data, { mode: opts.mode });
  try {
    if (opts.overwrite) await rename(tmp, full);
    else await link(tmp, full); // fails with EEXIST atomically: no check-then-write race
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new RetroError('file_exists', `${full} already exists; pass overwrite: true to replace it.`, {
        path: full,
      });
    }
    throw new RetroError('internal', `Could not write ${full}: ${(err as Error).message}`, { path: full });
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}
