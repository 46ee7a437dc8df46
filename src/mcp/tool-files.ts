/**
 * Paths a tool takes from a client: relative ones resolve under the output
 * folder; every read and write must land (after symlinks) inside the allowed
 * roots — the workspace folders, the output folder and the MCP client's
 * declared roots — or fail with `outside_roots`.
 */
import { isAbsolute, resolve } from 'node:path';
import {
  readRegularFile,
  resolveInsideRoots,
  writeFileAtomic,
  writeOutputFile,
  type ReadOptions,
} from '../core/files.js';
import type { CallContext } from './call-context.js';

/** The part of a ToolContext these need (kept local: tool-kit sits in an import cycle we must not extend). */
export interface FileContext {
  outputDir: string;
  roots?: () => Promise<readonly string[]>;
  /** the call writing: each file written is linked in its reply */
  call?: CallContext;
}

/** The folders this connection may read and write: the output folder first. */
export async function allowedRoots(ctx: FileContext): Promise<string[]> {
  return [ctx.outputDir, ...((await ctx.roots?.()) ?? [])];
}

/** A client's path made absolute (relative: under the output folder) and checked against the roots. */
export async function toolPath(ctx: FileContext, path: string): Promise<string> {
  const full = isAbsolute(path) ? path : resolve(ctx.outputDir, path);
  return resolveInsideRoots(full, await allowedRoots(ctx));
}

/** Reads a regular file inside the roots, capped at `maxBytes`. */
export async function readToolFile(
  ctx: FileContext,
  path: string,
  opts: Omit<ReadOptions, 'roots'>,
): Promise<{ path: string; data: Buffer }> {
  const full = isAbsolute(path) ? path : resolve(ctx.outputDir, path);
  return { path: full, data: await readRegularFile(full, { ...opts, roots: await allowedRoots(ctx) }) };
}

/** Writes a file inside the roots atomically; returns the absolute path written. */
export async function writeToolFile(
  ctx: FileContext,
  path: string,
  data: Uint8Array,
  overwrite: boolean,
): Promise<string> {
  const roots = await allowedRoots(ctx);
  const full = resolveInsideRoots(isAbsolute(path) ? path : resolve(ctx.outputDir, path), roots);
  await writeFileAtomic(full, data, { overwrite, roots });
  ctx.call?.written?.push(full);
  return full;
}

/** Writes under the output folder only (the capture tools' output_path); linked in the reply like any written file. */
export async function writeOutputToolFile(
  ctx: FileContext,
  path: string,
  data: Uint8Array,
  overwrite: boolean,
): Promise<string> {
  const full = await writeOutputFile(ctx.outputDir, path, data, overwrite);
  ctx.call?.written?.push(full);
  return full;
}
