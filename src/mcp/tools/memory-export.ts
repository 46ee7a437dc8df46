/**
 * dump_memory and search_memory (group `raw`): any machine, through the session's
 * readMemory, so the C64, MAME and DOS answer the same way. Dumps go under the
 * output folder only, with the SHA-256 of exactly the bytes written.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod/v4';
import type { Address } from '../../core/target.js';
import type { SessionApi } from '../../session/types.js';
import { badRequest, tooLarge } from '../../core/errors.js';
import { searchBytes } from '../../core/byte-search.js';
import { hex } from '../../core/hex.js';
import { parseAddress, parseHex } from '../format.js';
import { addressInput, addressSchema, sessionIdInput } from '../schemas.js';
import { READ_ONLY, defineTool, type ToolDef } from '../tool-kit.js';
import { writeOutputToolFile } from '../tool-files.js';

export const MAX_DUMP_BYTES = 0x110000;
export const MAX_SEARCH_BYTES = 0x110000;
export const MAX_SEARCH_HITS = 256;
const CHUNK = 0x10000;

/** Reads `length` bytes in 64 KiB pieces (the connectors' read limit). */
export async function readRange(session: SessionApi, at: Address, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  for (let done = 0; done < length; done += CHUNK) {
    const part = await session.readMemory({ ...at, offset: at.offset + done }, Math.min(CHUNK, length - done));
    out.set(part, done);
  }
  return out;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const dumpMemory = defineTool({
  name: 'dump_memory',
  title: 'Dump memory to a file',
  description:
    'Write a memory range as raw bytes (or a .prg with its load address) under the output folder; answers bytes + SHA-256. dry_run: hash only.',
  input: {
    session_id: sessionIdInput,
    start: addressInput,
    length: z.number().int().min(1).describe(`at most ${MAX_DUMP_BYTES}`),
    file: z.string().optional().describe('path under the output folder'),
    format: z.enum(['raw', 'prg']).default('raw').describe('prg: 2-byte load address first (C64)'),
    dry_run: z.boolean().default(false),
    overwrite: z.boolean().default(false),
  },
  output: {
    start: addressSchema,
    bytes: z.number().int().describe('memory bytes dumped'),
    sha256: z.string().describe('of the memory bytes'),
    file: z.string().optional(),
    file_sha256: z.string().optional().describe('of the whole file (prg: with its header)'),
  },
  // reads the machine; the file it writes is new unless overwrite
  annotations: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    if (args.length > MAX_DUMP_BYTES) {
      throw tooLarge(`Dumping ${args.length} bytes exceeds the limit of ${MAX_DUMP_BYTES}.`, { limit: MAX_DUMP_BYTES });
    }
    if (!args.dry_run && !args.file) throw badRequest('Give file (under the output folder), or dry_run: true.');
    const start = parseAddress(args.start);
    if (args.format === 'prg' && (start.space !== 'cpu' || start.offset + args.length > 0x10000)) {
      throw badRequest('A .prg holds CPU memory inside 64 KiB: its load address is 16 bits.');
    }
    const bytes = await readRange(session, start, args.length);
    const digest = sha256(bytes);
    const where = `${start.space}:${hex(start.offset)}`;
    if (args.dry_run) {
      return {
        session,
        data: { start, bytes: bytes.length, sha256: digest },
        summary: `${bytes.length} bytes at ${where}: sha256 ${digest}`,
      };
    }
    const content =
      args.format === 'prg' ? Buffer.concat([Buffer.from([start.offset & 0xff, start.offset >> 8]), bytes]) : bytes;
    const file = await writeOutputToolFile(ctx, args.file!, content, args.overwrite);
    return {
      session,
      data: { start, bytes: bytes.length, sha256: digest, file, file_sha256: sha256(content) },
      summary: `${bytes.length} bytes at ${where} written to ${file}; sha256 ${digest}`,
    };
  },
});

const searchMemory = defineTool({
  name: 'search_memory',
  title: 'Search memory',
  description: `Find hex bytes or text (as Latin-1 bytes) in a memory range (at most ${MAX_SEARCH_BYTES} bytes); the first ${MAX_SEARCH_HITS} hits.`,
  input: {
    session_id: sessionIdInput,
    hex: z.string().optional().describe('bytes, e.g. "A9 00"'),
    text: z.string().min(1).max(256).optional(),
    start: addressInput.optional().describe('default 0 in the CPU space'),
    length: z.number().int().min(1).default(0x10000),
  },
  output: {
    hits: z.array(z.object({ offset: z.number().int(), hex: z.string() })),
    more: z.boolean().describe('true when the hit limit stopped the search'),
    searched: z.number().int(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    if ((args.hex === undefined) === (args.text === undefined)) throw badRequest('Give either hex or text.');
    if (args.length > MAX_SEARCH_BYTES) {
      throw tooLarge(`Searching ${args.length} bytes exceeds the limit of ${MAX_SEARCH_BYTES}.`, {
        limit: MAX_SEARCH_BYTES,
      });
    }
    const needle = args.text !== undefined ? Buffer.from(args.text, 'latin1') : parseHex(args.hex!.replace(/\s+/g, ''));
    if (needle.length === 0) throw badRequest('The search pattern is empty.');
    const start = args.start === undefined ? ({ space: 'cpu', offset: 0 } as Address) : parseAddress(args.start);
    const hay = await readRange(session, start, args.length);
    const found = searchBytes(hay, needle, MAX_SEARCH_HITS);
    const hits = found.hits.map((i) => ({ offset: start.offset + i, hex: hex(start.offset + i) }));
    return {
      session,
      data: { hits, more: found.more, searched: hay.length },
      summary: hits.length
        ? `${hits.length}${found.more ? '+' : ''} hits: ${hits
            .slice(0, 16)
            .map((h) => h.hex)
            .join(', ')}`
        : 'not found',
    };
  },
});

export const memoryExportTools: ToolDef[] = [dumpMemory, searchMemory];
