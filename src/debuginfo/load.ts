/** Loads a debug-info file, choosing the parser by its extension. */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { RetroError } from '../core/errors.js';
import type { DebugInfo } from './model.js';
import { parseCdb } from './sdcc-cdb.js';
import { parseCc65Dbg } from './cc65-dbg.js';
import { readSourceNear } from './source-near.js';

/** Debug-info files larger than this are refused rather than read into memory. */
export const MAX_DEBUG_INFO_BYTES = 64 * 1024 * 1024;

export async function loadDebugInfo(path: string): Promise<DebugInfo> {
  const ext = extname(path).toLowerCase();
  if (ext !== '.cdb' && ext !== '.dbg') {
    throw new RetroError(
      'unsupported',
      `${path}: unknown debug-info format "${ext || '(no extension)'}"; expected an SDCC .cdb or a cc65 .dbg file.`,
      { path },
    );
  }
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    const why =
      (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(e as Error).message})`;
    throw new RetroError('bad_debug_info', `The debug-info file ${path} ${why}.`, { path });
  }
  if (size > MAX_DEBUG_INFO_BYTES) {
    throw new RetroError(
      'too_large',
      `The debug-info file ${path} is ${size} bytes; at most ${MAX_DEBUG_INFO_BYTES} are read.`,
      { path, size },
    );
  }
  let text: string;
  try {
    text = await readFile(path, 'latin1');
  } catch (e) {
    throw new RetroError('bad_debug_info', `The debug-info file ${path} cannot be read (${(e as Error).message}).`, {
      path,
    });
  }
  if (ext === '.dbg') return parseCc65Dbg(text, { fileName: path, readSource: (name) => readSourceNear(path, name) });
  return parseCdb(text, { fileName: path });
}
