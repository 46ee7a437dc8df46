/** Shared pieces of the `dos` tool group: reaching a session's DOS machine, paths, address inputs. */
import * as z from 'zod/v4';
import { isAbsolute, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import type { DosMachine } from '../dos-machine.js';
import { RetroError } from '../../../core/errors.js';
import { writeFileAtomic, writeOutputFile } from '../../../mcp/output-file.js';
import type { ToolContext } from '../../../mcp/tool-kit.js';

export function useDos(ctx: ToolContext, sessionId?: string) {
  const { session, client } = ctx.connection.use(sessionId);
  const machine = session.feature<DosMachine>('dos');
  return { session, client, machine };
}

export const dosAddressInput = z.union([
  z.number().int().min(0).describe('guest physical address'),
  z
    .string()
    .describe(
      '"0x1D2C7" physical, "0191:01D2" segment:offset, "ds:1D2", or a profile symbol name like "lives" or "lives+1"',
    ),
  z.object({ segment: z.union([z.number().int(), z.string()]), offset: z.union([z.number().int(), z.string()]) }),
]);

export const resolvedSchema = z.object({
  physical: z.number().int(),
  physical_hex: z.string(),
  label: z.string(),
  symbol: z.string().optional(),
});

export function resolvedOut(r: { physical: number; label: string; symbol?: string }) {
  return {
    physical: r.physical,
    physical_hex: '0x' + r.physical.toString(16).toUpperCase().padStart(5, '0'),
    label: r.label,
    symbol: r.symbol,
  };
}

/** Absolute paths are used as given; relative ones resolve under the output folder. Written atomically. */
export async function saveFile(ctx: ToolContext, path: string, data: Uint8Array, overwrite: boolean): Promise<string> {
  if (isAbsolute(path)) {
    await writeFileAtomic(path, data, { overwrite });
    return path;
  }
  return writeOutputFile(ctx.outputDir, path, data, overwrite);
}

export async function loadFile(ctx: ToolContext, path: string): Promise<{ path: string; data: Buffer }> {
  const full = isAbsolute(path) ? path : resolve(ctx.outputDir, path);
  try {
    return { path: full, data: await readFile(full) };
  } catch {
    throw new RetroError(
      'not_found',
      `Cannot read ${full} (relative paths resolve under the output folder ${ctx.outputDir}).`,
      { path: full },
    );
  }
}

export const outputPathInput = z.string().min(1).max(500);
export const overwriteInput = z.boolean().default(false).describe('replace an existing file');

export { bytesToHex as hexOf } from '../../../mcp/format.js';
