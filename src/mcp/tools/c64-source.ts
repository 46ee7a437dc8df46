/**
 * The one byte-source input every C64 text and graphics tool takes: inline
 * hex, a file (with offset), or a live session's memory in a named bank.
 * Sources are planned first (hex parsed, files sized, address ranges checked,
 * the run state consulted) so that bad or short input fails before any read;
 * then each is read exactly once. Nothing is ever written.
 */
import { open, stat } from 'node:fs/promises';
import * as z from 'zod/v4';
import type { SessionApi } from '../../session/types.js';
import { RetroError, notFound, badRequest, badAddress, tooLarge } from '../../core/errors.js';
import { parseAddress, parseHex } from '../format.js';
import { toolPath } from '../tool-files.js';
import type { ToolContext } from '../tool-kit.js';
import { hex } from '../../core/hex.js';

/** Hard cap on any one read or inline input. */
export const MAX_SOURCE_BYTES = 1 << 20;
const C64_ADDRESS_END = 0x10000;

export const byteSourceInput = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('inline'),
    hex: z
      .string()
      .max(2 * MAX_SOURCE_BYTES + 1024)
      .describe('hex bytes'),
  }),
  z.object({
    kind: z.literal('file'),
    path: z.string().min(1).max(1000).describe('absolute or relative to the output folder'),
    offset: z.number().int().min(0).default(0),
  }),
  z.object({
    kind: z.literal('memory'),
    bank: z.union([z.string().min(1).max(32), z.number().int()]).describe('e.g. "cpu", "ram", "rom", "io"'),
    address: z.union([z.number().int(), z.string()]),
  }),
]);
export type ByteSourceInput = z.infer<typeof byteSourceInput>;

export const nonAtomicInput = z
  .boolean()
  .default(false)
  .describe('allow several memory reads while running (not one snapshot)');

/** A source checked and ready to read: `available` bytes can be read from its start. */
export interface PlannedSource {
  label: string;
  kind: ByteSourceInput['kind'];
  available: number;
  read(length: number): Promise<Uint8Array>;
}

async function planFile(
  ctx: ToolContext,
  label: string,
  src: { path: string; offset: number },
): Promise<PlannedSource> {
  const full = await toolPath(ctx, src.path);
  const info = await stat(full).catch(() => undefined);
  if (!info) throw notFound(`${label}: no file ${full}.`, { source: label, path: full });
  if (!info.isFile()) throw badRequest(`${label}: ${full} is not a regular file.`, { source: label, path: full });
  if (src.offset > info.size)
    throw badRequest(`${label}: offset ${src.offset} is past the end of ${full} (${info.size} bytes).`, {
      source: label,
    });
  return {
    label,
    kind: 'file',
    available: Math.min(info.size - src.offset, MAX_SOURCE_BYTES),
    async read(length) {
      const handle = await open(full, 'r');
      try {
        const buf = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buf, 0, length, src.offset);
        if (bytesRead !== length)
          throw badRequest(`${label}: ${full} changed while reading (got ${bytesRead} of ${length} bytes).`);
        return new Uint8Array(buf);
      } finally {
        await handle.close();
      }
    },
  };
}

function planMemory(
  session: SessionApi,
  label: string,
  src: { bank: string | number; address: number | string },
): PlannedSource {
  const offset = parseAddress(src.address).offset;
  if (offset >= C64_ADDRESS_END)
    throw badAddress(`${label}: address ${hex(offset)} is outside $0000-$FFFF.`, { source: label });
  return {
    label,
    kind: 'memory',
    available: C64_ADDRESS_END - offset,
    async read(length) {
      const bytes = await session.readMemory({ space: 'cpu', bank: src.bank, offset }, length);
      if (bytes.length !== length)
        throw badAddress(
          `${label}: read ${bytes.length} of ${length} bytes at ${hex(offset)}; partial reads are refused.`,
          { source: label },
        );
      return bytes;
    },
  };
}

export interface SourcePlan {
  sources: Record<string, PlannedSource>;
  session?: SessionApi;
  warnings: string[];
}

/**
 * Checks every named source without reading memory: hex parses, files exist,
 * addresses are in range; more than one memory source while the machine runs
 * needs allowNonAtomic (then a warning).
 */
export async function planSources(
  ctx: ToolContext,
  inputs: Record<string, ByteSourceInput | undefined>,
  opts: { sessionId?: string; allowNonAtomic?: boolean },
): Promise<SourcePlan> {
  const sources: Record<string, PlannedSource> = {};
  const warnings: string[] = [];
  const memoryNames = Object.entries(inputs)
    .filter(([, s]) => s?.kind === 'memory')
    .map(([n]) => n);
  const session = memoryNames.length ? ctx.connection.use(opts.sessionId).session : undefined;
  for (const [label, src] of Object.entries(inputs)) {
    if (!src) continue;
    if (src.kind === 'inline') {
      const bytes = parseHex(src.hex);
      if (bytes.length > MAX_SOURCE_BYTES)
        throw tooLarge(`${label}: inline input is ${bytes.length} bytes; the cap is ${MAX_SOURCE_BYTES}.`);
      sources[label] = { label, kind: 'inline', available: bytes.length, read: async (n) => bytes.subarray(0, n) };
    } else if (src.kind === 'file') sources[label] = await planFile(ctx, label, src);
    else sources[label] = planMemory(session!, label, src);
  }
  if (session && memoryNames.length > 1) {
    const { state } = await session.status();
    if (state === 'running') {
      if (!opts.allowNonAtomic) {
        throw new RetroError(
          'not_stopped',
          `${memoryNames.length} memory sources (${memoryNames.join(', ')}) would be read separately while the machine runs, ` +
            'so they may not match one another. Pause first, or pass allow_non_atomic_reads: true.',
          { sources: memoryNames },
        );
      }
      warnings.push(
        `non_atomic_reads: ${memoryNames.join(', ')} were read one after another while the machine ran; they may come from different moments.`,
      );
    }
  }
  return { sources, session, warnings };
}

/** Fails unless a source can supply `needed` bytes (before any read). */
export function requireBytes(source: PlannedSource, needed: number): void {
  if (needed > MAX_SOURCE_BYTES)
    throw tooLarge(`${source.label}: ${needed} bytes exceeds the read cap of ${MAX_SOURCE_BYTES}.`);
  if (source.available < needed) {
    const why = source.kind === 'memory' ? ' before $FFFF (reads do not wrap)' : '';
    throw badRequest(`${source.label} has ${source.available} bytes${why}; this geometry needs ${needed}.`, {
      source: source.label,
      needed,
      available: source.available,
    });
  }
}

/** Inline bytes beyond what was used, per source (reported, not an error). */
export function extraInlineBytes(plan: SourcePlan, used: Record<string, number>): Record<string, number> {
  const extra: Record<string, number> = {};
  for (const [name, n] of Object.entries(used)) {
    const s = plan.sources[name];
    if (s?.kind === 'inline' && s.available > n) extra[name] = s.available - n;
  }
  return extra;
}
