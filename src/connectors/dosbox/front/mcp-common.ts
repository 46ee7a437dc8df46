/** Shared pieces of the `dos` tool group: reaching a session's DOS machine, paths, address inputs. */
import * as z from 'zod/v4';
import { DOS_FEATURE } from '../dosbox-target.js';
import { MAX_PROGRAM_BYTES } from '../../../core/files.js';
import { readToolFile, writeToolFile } from '../../../mcp/tool-files.js';
import type { ToolContext } from '../../../mcp/tool-kit.js';

export function useDos(ctx: ToolContext, sessionId?: string) {
  const client = ctx.connection.use(sessionId);
  const { session } = client;
  const machine = session.feature(DOS_FEATURE);
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

/** Relative paths resolve under the output folder; every path must lie inside the allowed roots. Written atomically. */
export function saveFile(ctx: ToolContext, path: string, data: Uint8Array, overwrite: boolean): Promise<string> {
  return writeToolFile(ctx, path, data, overwrite);
}

export function loadFile(ctx: ToolContext, path: string): Promise<{ path: string; data: Buffer }> {
  return readToolFile(ctx, path, { maxBytes: MAX_PROGRAM_BYTES, what: 'reference file' });
}

export const outputPathInput = z.string().min(1).max(500);
export const overwriteInput = z.boolean().default(false).describe('replace an existing file');

export { bytesToHex as hexOf } from '../../../mcp/format.js';
