/**
 * Tool group `mame`, memory part: the raw views beside `read_memory` (the CPU's
 * logical view): the raw program/io/data spaces, video RAM, any share or
 * region, the list of them, and disassembly. Every answer names its space.
 */
import * as z from 'zod/v4';
import { tooLarge } from '../../../core/errors.js';
import { bankPages } from '../bank-pages.js';
import { asciiPreview, bytesToHex } from '../../../mcp/format.js';
import { sessionIdInput } from '../../../mcp/schemas.js';
import { READ_ONLY, defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import { MAX_READ_BYTES } from '../../../mcp/tools/raw.js';
import { useMame } from './mcp-common.js';
import { hex } from '../../../core/hex.js';

export const MAX_DISASSEMBLE = 256;

const pagesSchema = z
  .record(z.string(), z.number().int())
  .optional()
  .describe('current page of each memory window (machines with banking, e.g. sprinter W0..W3)');

const bytesOutput = {
  space: z.string(),
  tag: z.string().optional(),
  offset: z.number().int(),
  length: z.number().int(),
  hex: z.string(),
  ascii: z.string(),
  pages: pagesSchema,
};

function checkLength(length: number): void {
  if (length > MAX_READ_BYTES)
    throw tooLarge(`Reading ${length} bytes exceeds the limit of ${MAX_READ_BYTES}; read in pieces.`, {
      limit: MAX_READ_BYTES,
    });
}

const readProgramMemory = defineTool({
  name: 'read_program_memory',
  title: 'Read raw address-space memory',
  description:
    `Read up to ${MAX_READ_BYTES} bytes of a raw CPU address space (program = physical, e.g. the Sprinter's 18-bit space; ` +
    "io = ports; data) without side effects (no watchpoints, no I/O handlers). read_memory is the CPU's logical view instead.",
  input: {
    session_id: sessionIdInput,
    space: z.enum(['program', 'io', 'data']).default('program'),
    offset: z.number().int().min(0),
    length: z.number().int().min(1),
  },
  output: bytesOutput,
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, raw } = useMame(ctx, args.session_id);
    checkLength(args.length);
    const bytes = await session.readMemory({ space: args.space, offset: args.offset }, args.length);
    return {
      session,
      data: {
        space: args.space,
        offset: args.offset,
        length: bytes.length,
        hex: bytesToHex(bytes),
        ascii: asciiPreview(bytes),
        pages: await bankPages(raw),
      },
      summary: `${bytes.length} bytes of raw ${args.space} at ${hex(args.offset)}`,
    };
  },
});

const readVram = defineTool({
  name: 'read_vram',
  title: 'Read video RAM',
  description: `Read up to ${MAX_READ_BYTES} bytes of the machine's video RAM share (e.g. spectrum :video_ram, sprinter :vram).`,
  input: {
    session_id: sessionIdInput,
    offset: z.number().int().min(0).default(0),
    length: z.number().int().min(1).default(256),
  },
  output: bytesOutput,
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = useMame(ctx, args.session_id);
    checkLength(args.length);
    const bytes = await session.readMemory({ space: 'vram', offset: args.offset }, args.length);
    return {
      session,
      data: {
        space: 'vram',
        offset: args.offset,
        length: bytes.length,
        hex: bytesToHex(bytes),
        ascii: asciiPreview(bytes),
      },
    };
  },
});

const readShare = defineTool({
  name: 'read_share',
  title: 'Read a memory share or region',
  description: `Read up to ${MAX_READ_BYTES} bytes of a MAME memory share or region by its exact tag (see list_shares), e.g. ":maincpu" (ROM).`,
  input: {
    session_id: sessionIdInput,
    tag: z.string().min(1).max(200).describe('exact tag, e.g. ":video_ram"'),
    offset: z.number().int().min(0).default(0),
    length: z.number().int().min(1).default(256),
  },
  output: bytesOutput,
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = useMame(ctx, args.session_id);
    checkLength(args.length);
    const bytes = await session.readMemory({ space: 'share', bank: args.tag, offset: args.offset }, args.length);
    return {
      session,
      data: {
        space: 'share',
        tag: args.tag,
        offset: args.offset,
        length: bytes.length,
        hex: bytesToHex(bytes),
        ascii: asciiPreview(bytes),
      },
    };
  },
});

const listShares = defineTool({
  name: 'list_shares',
  title: 'List memory shares, regions and spaces',
  description:
    "Every memory share and region of the machine (tag, size, bit width, endianness) and the CPU's address spaces (mask, width).",
  input: { session_id: sessionIdInput },
  output: {
    shares: z.array(
      z.object({
        tag: z.string(),
        kind: z.enum(['share', 'region']),
        size: z.number().int(),
        bitwidth: z.number().int(),
        endianness: z.string(),
      }),
    ),
    spaces: z.array(z.object({ name: z.string(), address_mask: z.number().int(), data_width: z.number().int() })),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, raw } = useMame(ctx, args.session_id);
    const { shares, spaces } = await raw.listShares();
    return {
      session,
      data: { shares, spaces },
      summary: shares.map((s) => `${s.tag} (${s.kind}, ${s.size} bytes)`).join(', '),
    };
  },
});

const disassemble = defineTool({
  name: 'disassemble',
  title: 'Disassemble',
  description:
    `Disassemble up to ${MAX_DISASSEMBLE} instructions of the CPU's logical view from an address (default: PC), with bytes, ` +
    'the C function and line from debug info where known, and the window pages on banked machines.',
  input: {
    session_id: sessionIdInput,
    address: z.number().int().min(0).max(0xffff).optional().describe('CPU logical address; default the current PC'),
    count: z.number().int().min(1).max(MAX_DISASSEMBLE).default(16),
  },
  output: {
    space: z.literal('cpu'),
    instructions: z.array(
      z.object({
        address: z.number().int(),
        address_hex: z.string(),
        bytes: z.string(),
        text: z.string(),
        function: z.string().optional(),
        line: z.number().int().optional(),
        file: z.string().optional(),
      }),
    ),
    pages: pagesSchema,
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, raw } = useMame(ctx, args.session_id);
    const start = args.address ?? (await session.readRegisters()).find((r) => r.name === 'PC')?.value ?? 0;
    const list = await raw.disassemble(start, args.count);
    const end = Math.min(0x10000, (list.at(-1)?.address ?? start) + 4);
    const bytes = await session.readMemory({ space: 'cpu', offset: start }, Math.max(1, end - start));
    const instructions = list.map((ins, i) => {
      const next = list[i + 1]?.address ?? Math.min(end, ins.address + 1);
      const own = bytes.subarray(ins.address - start, Math.max(ins.address - start + 1, next - start));
      return {
        address: ins.address,
        address_hex: hex(ins.address),
        bytes: bytesToHex(own),
        text: ins.text,
        ...where(session.locationAt(ins.address)),
      };
    });
    return {
      session,
      data: { space: 'cpu' as const, instructions, pages: await bankPages(raw) },
      summary: instructions
        .slice(0, 8)
        .map((i) => `${i.address_hex}: ${i.text}`)
        .join('\n'),
    };
  },
});

function where(loc: { file: string; line: number; function?: string } | undefined) {
  return loc ? { function: loc.function, file: loc.file, line: loc.line } : {};
}

export const mameMemoryTools: ToolDef[] = [readProgramMemory, readVram, readShare, listShares, disassemble];
