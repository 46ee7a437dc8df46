/**
 * zod schemas shared by several MCP tools: the identity envelope, addresses,
 * source locations, breakpoints, frames, variables and the tool error shape.
 */
import * as z from 'zod/v4';

export const RUN_STATES = ['starting', 'running', 'stopped', 'exited'] as const;
export const SPACES = ['cpu', 'program', 'data', 'io', 'vram', 'share'] as const;

export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});

export const addressSchema = z.object({
  space: z.enum(SPACES),
  bank: z.union([z.number().int(), z.string()]).optional(),
  offset: z.number().int(),
});

/** A typed address, or a bare number / "0x…" string meaning the CPU's logical view. */
export const addressInput = z
  .union([z.number().int(), z.string(), addressSchema])
  .describe('CPU address (32768, "0x8000", "$8000") or {space, offset, bank?}');

export const sessionIdInput = z.string().optional().describe('default: current');

export const generationInput = z.number().int().optional().describe('refuse if reset since');

export const clientSchema = z.object({ id: z.string(), kind: z.string(), label: z.string() });

export const locationSchema = z.object({
  file: z.string(),
  path: z.string().optional(),
  line: z.number().int(),
  function: z.string().optional(),
});

export const stopSchema = z.object({
  reason: z.string(),
  pc: z.number().int(),
  pc_hex: z.string(),
  location: locationSchema.optional(),
  breakpoint_ids: z
    .array(z.number().int())
    .describe('session breakpoints (see list_breakpoints) that caused this stop'),
  watch: z
    .array(
      z.object({
        id: z.number().int(),
        expression: z.string().optional(),
        address: addressSchema,
        length: z.number().int(),
        access: z.string().describe('write, read, or access'),
        access_pc: z.number().int().optional().describe('the instruction that accessed (pc is the next one)'),
        access_pc_hex: z.string().optional(),
        location: locationSchema.optional().describe("access_pc's C line and function"),
        old: z.string().optional(),
        new: z.string().optional(),
        changed: z.boolean(),
      }),
    )
    .optional()
    .describe('a watchpoint stop: each watchpoint that fired, who accessed it, old and new value'),
  pages: z
    .record(z.string(), z.number().int())
    .optional()
    .describe('machines with memory windows (the Sprinter): the RAM page each window showed at the stop'),
  in_past: z.boolean().optional().describe('a recorded past moment'),
});

export const leaseSchema = z.object({
  holder: clientSchema,
  expires_in_ms: z.number(),
  held_by_you: z.boolean(),
});

export const breakpointSchema = z.object({
  id: z.number().int(),
  owner: clientSchema,
  read_only: z.boolean().describe('true when another client owns it'),
  kind: z.enum(['line', 'function', 'address']),
  file: z.string().optional(),
  line: z.number().int().optional(),
  function: z.string().optional(),
  address: addressSchema.optional(),
  condition: z.string().optional(),
  hit_condition: z.string().optional(),
  log_message: z.string().optional(),
  verified: z.boolean(),
  message: z.string().optional(),
  native_condition: z.string().optional().describe('the condition as the emulator evaluates it, in its own language'),
  condition_host: z.string().optional().describe('why the debugger evaluates the condition at each hit instead'),
  hit_count: z.number().int().describe('hits whose condition held'),
});

/** One breakpoint's change told to a client: `added`/`changed` carry it as it is now; `removed` its id and owner. */
export const breakpointChangeSchema = z.object({
  session_id: z.string(),
  generation: z.number().int(),
  change: z.enum(['added', 'changed', 'removed']),
  id: z.number().int(),
  owner: clientSchema,
  breakpoint: breakpointSchema.extend({ where: z.string().describe('main.c:12, plot(), 0x080D') }).optional(),
});

/** Every successful result carries these (null only when no session exists yet). */
export const envelopeShape = {
  session_id: z.string().nullable().describe('session the result is about'),
  build_id: z.string().nullable().describe('hash of the loaded program and its debug info'),
  generation: z.number().int().nullable().describe('bumped by reset, reload or exit'),
  state: z.enum(RUN_STATES).nullable().describe('run state of the CPU after the call'),
  machine_messages: z
    .array(z.string())
    .optional()
    .describe("what the emulated machine said since this client's last reply (device not present, a JAM, …)"),
  lost: z
    .array(z.string())
    .optional()
    .describe('what this client lost since its last reply: the control lease lapsed or was taken, …'),
  events: z
    .array(z.string())
    .optional()
    .describe('what happened since its last reply that this client did not cause: a stop by another client, …'),
  breakpoint_changes: z
    .array(breakpointChangeSchema)
    .optional()
    .describe("other clients' breakpoint changes since this client's last reply (list_breakpoints has them all)"),
  breakpoint_changes_missed: z
    .number()
    .int()
    .optional()
    .describe('changes left out of breakpoint_changes (it keeps the newest): call list_breakpoints'),
};

export const frameSchema = z.object({
  index: z.number().int(),
  function: z.string(),
  pc: z.number().int(),
  pc_hex: z.string(),
  location: locationSchema.optional(),
});

export interface VariableOut {
  name: string;
  type: string;
  value: string;
  numeric?: number;
  address?: z.infer<typeof addressSchema>;
  bytes?: string;
  children?: VariableOut[];
}

export const variableSchema: z.ZodType<VariableOut> = z.object({
  name: z.string(),
  type: z.string(),
  value: z.string(),
  numeric: z.number().optional(),
  address: addressSchema.optional(),
  bytes: z.string().optional(),
  get children() {
    return z.array(variableSchema).optional();
  },
});

export const registerSchema = z.object({
  name: z.string(),
  value: z.number().int(),
  hex: z.string(),
  bits: z.number().int(),
});
