/**
 * Group `c`, watchpoints on every machine that has them (MAME, VICE, the
 * built-in C64): set by a C lvalue (`lives`, `scores[8]`, `p->next`) or an
 * address, owned like breakpoints. Their stop (formatStop's `watch`) names the
 * accessing instruction, its C line and function, and old → new; `change`
 * stops only when a write changed the value. Watchpoints share the
 * breakpoints' numbering, so clear_breakpoint and list_breakpoints serve both.
 */
import * as z from 'zod/v4';
import type { WatchpointInfo } from '../../session/types.js';
import { badRequest } from '../../core/errors.js';
import { hex } from '../../core/hex.js';
import { parseAddress } from '../format.js';
import { addressInput, addressSchema, clientSchema, generationInput, sessionIdInput } from '../schemas.js';
import { MUTATES, READ_ONLY, defineTool, type ToolDef } from '../tool-kit.js';

export const watchpointSchema = z.object({
  id: z.number().int(),
  owner: clientSchema,
  read_only: z.boolean().describe('true when another client owns it'),
  expression: z.string().optional(),
  address: addressSchema,
  length: z.number().int(),
  kind: z.enum(['read', 'write', 'readwrite', 'change']),
  condition: z.string().optional(),
  hit_count: z.number().int(),
  last_hit: z
    .object({
      pc: z.number().int().describe('where the CPU stopped: the instruction after the access'),
      access_pc: z.number().int().optional().describe('the instruction that made the access'),
      access: z.string().optional(),
      address: z.number().int().optional(),
      value: z.number().int().optional(),
    })
    .optional(),
});

export function formatWatchpoint(w: WatchpointInfo, myClientId: string) {
  return {
    id: w.id,
    owner: w.owner,
    read_only: w.owner.id !== myClientId,
    expression: w.expression,
    address: w.address,
    length: w.length,
    kind: w.change_only ? ('change' as const) : w.kind,
    condition: w.condition,
    hit_count: w.hit_count,
    last_hit: w.last_hit,
  };
}

const setWatchpoint = defineTool({
  name: 'set_watchpoint',
  title: 'Set a watchpoint',
  description: 'Stop when a C lvalue or address is accessed; the stop names the accessing line and old → new.',
  input: {
    session_id: sessionIdInput,
    variable: z.string().min(1).max(200).optional().describe('C lvalue: "lives", "scores[8]", "p->next"'),
    address: addressInput.optional(),
    length: z.number().int().min(1).max(65536).optional().describe('bytes (default: its C size, else 1)'),
    kind: z
      .enum(['write', 'change', 'read', 'readwrite'])
      .default('write')
      .describe('change: a write that changes the value'),
    condition: z.string().max(500).optional().describe('MAME expression; stop only when true'),
    generation: generationInput,
  },
  output: { watchpoint: watchpointSchema },
  // MAME's own expression language: said in the README, not to every agent
  unadvertised: ['condition'],
  annotations: MUTATES,
  async run(args, ctx) {
    const client = ctx.connection.use(args.session_id);
    const { session } = client;
    session.assertGeneration(args.generation);
    let address = args.address === undefined ? undefined : parseAddress(args.address);
    let length = args.length;
    let ctype;
    if (args.variable !== undefined) {
      // any C lvalue, sized by its type; values that are no object in memory are refused by the engine
      const at = await session.locateLvalue(args.variable);
      address ??= { space: 'cpu', offset: at.address };
      length ??= at.length;
      ctype = at.ctype;
    }
    if (!address) throw badRequest('Give a variable or an address to watch.');
    const wp = await client.setWatchpoint({
      address,
      length: length ?? 1,
      kind: args.kind === 'change' ? 'write' : args.kind,
      condition: args.condition,
      expression: args.variable,
      ctype,
      changeOnly: args.kind === 'change',
    });
    const what = wp.expression ? `${wp.expression} (${wp.length} bytes at ${hex(wp.address.offset)})` : '';
    return {
      session,
      data: { watchpoint: formatWatchpoint(wp, client.id) },
      summary: `Watchpoint ${wp.id}: ${args.kind} of ${what || `${wp.length} bytes at ${wp.address.space}:${hex(wp.address.offset)}`}`,
    };
  },
});

const clearWatchpoint = defineTool({
  name: 'clear_watchpoint',
  title: 'Clear a watchpoint',
  description: 'Remove one of your watchpoints.',
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
  description: 'Every watchpoint with its owner and last hit.',
  input: { session_id: sessionIdInput },
  output: { watchpoints: z.array(watchpointSchema) },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const client = ctx.connection.use(args.session_id);
    const { session } = client;
    return { session, data: { watchpoints: session.listWatchpoints().map((w) => formatWatchpoint(w, client.id)) } };
  },
});

/** Group `c`: clear_breakpoint and list_breakpoints serve watchpoints too (one numbering). */
export const watchTools: ToolDef[] = [setWatchpoint];
/** Group `raw`: the watchpoint-only forms, for clients that name them. */
export const watchListTools: ToolDef[] = [clearWatchpoint, listWatchpoints];
