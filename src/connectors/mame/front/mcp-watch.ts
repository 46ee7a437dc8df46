/** Tool group `mame`, watchpoints: owned like breakpoints; others' are read-only; a departed owner's go with it. */
import * as z from 'zod/v4';
import type { WatchpointInfo } from '../../../session/types.js';
import { badRequest } from '../../../core/errors.js';
import { parseAddress } from '../../../mcp/format.js';
import { addressInput, addressSchema, clientSchema, generationInput, sessionIdInput } from '../../../mcp/schemas.js';
import { MUTATES, READ_ONLY, defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import { hex } from '../../../core/hex.js';

const watchpointSchema = z.object({
  id: z.number().int(),
  owner: clientSchema,
  read_only: z.boolean().describe('true when another client owns it'),
  address: addressSchema,
  length: z.number().int(),
  kind: z.enum(['read', 'write', 'readwrite']),
  condition: z.string().optional(),
  hit_count: z.number().int(),
  last_hit: z
    .object({
      pc: z.number().int().describe('where the CPU stopped: the instruction after the access'),
      access_pc: z.number().int().optional().describe('the instruction that made the access'),
      access: z.string().optional().describe('reading / writing'),
      address: z.number().int().optional(),
      value: z.number().int().optional(),
    })
    .optional(),
});

function formatWatchpoint(w: WatchpointInfo, myClientId: string) {
  return {
    id: w.id,
    owner: w.owner,
    read_only: w.owner.id !== myClientId,
    address: w.address,
    length: w.length,
    kind: w.kind,
    condition: w.condition,
    hit_count: w.hit_count,
    last_hit: w.last_hit,
  };
}

const setWatchpoint = defineTool({
  name: 'set_watchpoint',
  title: 'Set a watchpoint',
  description:
    'Stop when memory (cpu/program/data) or I/O ports (space io) are read, written or both. Give a C lvalue ' +
    '(its address and size come from debug info) or an address and length. You own it; the stop reports the accessing PC.',
  input: {
    session_id: sessionIdInput,
    variable: z.string().min(1).max(200).optional().describe('a C lvalue: "counter", "origin.y", "message[2]"'),
    address: addressInput.optional(),
    length: z
      .number()
      .int()
      .min(1)
      .max(65536)
      .optional()
      .describe('bytes to watch (default: the variable size, else 1)'),
    kind: z.enum(['read', 'write', 'readwrite']).default('write'),
    condition: z.string().max(500).optional().describe('MAME expression; stop only when true'),
    generation: generationInput,
  },
  output: { watchpoint: watchpointSchema },
  annotations: MUTATES,
  async run(args, ctx) {
    const client = ctx.connection.use(args.session_id);
    const { session } = client;
    session.assertGeneration(args.generation);
    let address = args.address === undefined ? undefined : parseAddress(args.address);
    let length = args.length;
    if (args.variable !== undefined) {
      // any C lvalue, sized by its type; values that are no object in memory are refused by the engine
      const at = await session.locateLvalue(args.variable);
      address ??= { space: 'cpu', offset: at.address };
      length ??= at.length;
    }
    if (!address) throw badRequest('Give a variable or an address to watch.');
    const wp = await client.setWatchpoint({
      address,
      length: length ?? 1,
      kind: args.kind,
      condition: args.condition,
    });
    return {
      session,
      data: { watchpoint: formatWatchpoint(wp, client.id) },
      summary: `Watchpoint ${wp.id}: ${wp.kind} of ${wp.length} bytes at ${wp.address.space}:${hex(wp.address.offset)}`,
    };
  },
});

const clearWatchpoint = defineTool({
  name: 'clear_watchpoint',
  title: 'Clear a watchpoint',
  description: "Remove one of your own watchpoints by id (others' are read-only: not_owner).",
  input: { session_id: sessionIdInput, id: z.number().int(), generation: generationInput },
  output: { cleared: z.number().int() },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const client = ctx.connection.use(args.session_id);
    const { session } = client;
    session.assertGeneration(args.generation);
    await client.clearWatchpoint(args.id);
    return { session, data: { cleared: args.id } };
  },
});

const listWatchpoints = defineTool({
  name: 'list_watchpoints',
  title: 'List watchpoints',
  description: "Every watchpoint in the session with its owner; other clients' are marked read_only.",
  input: { session_id: sessionIdInput },
  output: { watchpoints: z.array(watchpointSchema) },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const client = ctx.connection.use(args.session_id);
    const { session } = client;
    return { session, data: { watchpoints: session.listWatchpoints().map((w) => formatWatchpoint(w, client.id)) } };
  },
});

export const mameWatchTools: ToolDef[] = [setWatchpoint, clearWatchpoint, listWatchpoints];
