/** Tool group `dos`, part 4: keys into the BIOS ring, clicks into the INT 33h words, code-cave traces. */
import * as z from 'zod/v4';
import { tooLarge, badRequest } from '../../../core/errors.js';
import { parseKeys } from '../../../machines/dos/keys.js';
import { click, typeKeys } from '../input.js';
import { DOS_FEATURE } from '../dosbox-target.js';
import { generationInput, sessionIdInput } from '../../../mcp/schemas.js';
import { MUTATES, defineTool, type ToolDef } from '../../../mcp/tool-kit.js';
import { dosAddressInput, useDos } from './mcp-common.js';
import { hex } from '../../../core/hex.js';

const MAX_KEYS = 512;

const typeKeysTool = defineTool({
  name: 'dosbox_type_keys',
  title: 'Type keys',
  description:
    'Type into the guest through the BIOS keyboard ring, exactly as the keyboard interrupt would (no host key presses). Named keys in braces: "dir{Enter}", "{F1}", "{Up}", "{Esc}", "{Ctrl+C}"; "{{" is a brace. ' +
    'Waits while the ring (15 keys) is full; warns when the program hooks INT 9 (reads port 60h itself) so ring keys cannot reach it.',
  input: {
    session_id: sessionIdInput,
    keys: z.string().min(1).max(4096),
    timeout_ms: z
      .number()
      .int()
      .min(10)
      .max(60_000)
      .default(3000)
      .describe('how long one key may wait for room in the ring'),
    drain_ms: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(500)
      .describe('wait up to this long for the program to take the keys'),
    generation: generationInput,
  },
  output: { typed: z.number().int(), consumed: z.boolean(), warnings: z.array(z.string()) },
  annotations: MUTATES,
  async run(args, ctx) {
    const { session, client } = useDos(ctx, args.session_id);
    const words = parseKeys(args.keys);
    if (words.length > MAX_KEYS) throw tooLarge(`At most ${MAX_KEYS} keys per call.`);
    const r = await client.control(DOS_FEATURE, { generation: args.generation }, (machine) =>
      typeKeys(machine.guest, words, { timeoutMs: args.timeout_ms, drainMs: args.drain_ms }),
    );
    return {
      session,
      data: r,
      summary: `Typed ${r.typed} keys${r.consumed ? '; the program took them' : ''}.${r.warnings.length ? ' ' + r.warnings.join(' ') : ''}`,
    };
  },
});

const clickTool = defineTool({
  name: 'dosbox_click',
  title: 'Click',
  description:
    'Click at (x, y) by writing the words the program\'s own INT 33h handler fills (from the profile\'s "mouse", or given), re-written every few ms for hold_ms because the handler keeps overwriting them, then released.',
  input: {
    session_id: sessionIdInput,
    x: z.number().int().min(0).max(0xffff),
    y: z.number().int().min(0).max(0xffff),
    buttons: z.number().int().min(1).max(7).default(1).describe('1 left, 2 right, 4 middle'),
    hold_ms: z.number().int().min(10).max(5000).default(300),
    release_ms: z.number().int().min(0).max(5000).default(150),
    words: z
      .object({ buttons: dosAddressInput, x: dosAddressInput, y: dosAddressInput })
      .optional()
      .describe('where the handler keeps them, when no profile says'),
    generation: generationInput,
  },
  output: { writes: z.number().int(), overwritten_by_guest: z.number().int(), buttons_at: z.string() },
  annotations: MUTATES,
  async run(args, ctx) {
    const { session, client, machine } = useDos(ctx, args.session_id);
    let words;
    if (args.words)
      words = {
        buttons: machine.resolve(args.words.buttons).physical,
        x: machine.resolve(args.words.x).physical,
        y: machine.resolve(args.words.y).physical,
      };
    else {
      const m = machine.profile?.mouse;
      if (!m) throw badRequest('No mouse words: load a profile with "mouse", or pass words {buttons, x, y}.');
      words = {
        buttons: machine.resolve(`ds:${m.buttons.toString(16)}`).physical,
        x: machine.resolve(`ds:${m.x.toString(16)}`).physical,
        y: machine.resolve(`ds:${m.y.toString(16)}`).physical,
      };
    }
    const at = words;
    const r = await client.control(DOS_FEATURE, { generation: args.generation }, (m) =>
      click(
        m.guest,
        at,
        { x: args.x, y: args.y, buttons: args.buttons },
        { holdMs: args.hold_ms, releaseMs: args.release_ms },
      ),
    );
    return {
      session,
      data: { writes: r.writes, overwritten_by_guest: r.overwritten, buttons_at: '0x' + words.buttons.toString(16) },
      summary: `Clicked at ${args.x},${args.y} (${r.writes} writes; the guest overwrote them ${r.overwritten} times).`,
    };
  },
});

const traceTool = defineTool({
  name: 'dosbox_trace',
  title: 'Trace a CALL through a code cave',
  description:
    'action "install": point the near CALL at call (E8 rel16) to a zero-filled cave that calls the original target, records hits, flags and DS, and copies the DS-relative captures; ' +
    '"read": the recorded values; "remove": restore the CALL; "list". Memory only: the patch dies with the emulator. Captures are read through DS at the time the cave runs.',
  input: {
    session_id: sessionIdInput,
    action: z.enum(['install', 'read', 'remove', 'list']),
    call: dosAddressInput.optional().describe('address of the E8 byte, e.g. "0191:0140" or a symbol'),
    cave: z
      .union([z.number().int(), z.string()])
      .optional()
      .describe("offset of the cave in the CALL's segment (hex string or number)"),
    captures: z
      .array(
        z.object({
          name: z.string().max(40),
          address: z.union([z.number().int(), z.string()]).describe('DS offset or symbol'),
          length: z.number().int().min(1).max(64),
        }),
      )
      .max(16)
      .optional(),
    id: z.number().int().optional(),
    generation: generationInput,
  },
  output: {
    id: z.number().int().optional(),
    traces: z
      .array(z.object({ id: z.number().int(), call: z.string(), target: z.string(), cave: z.string() }))
      .optional(),
    hits: z.number().int().optional(),
    flags: z.number().int().optional(),
    ds: z.string().optional(),
    captures: z
      .array(
        z.object({ name: z.string(), offset: z.number().int(), hex: z.string(), bytes: z.array(z.number().int()) }),
      )
      .optional(),
  },
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const { session, client, machine } = useDos(ctx, args.session_id);
    const list = () =>
      machine.traces.list().map((t) => ({
        id: t.id,
        call: `${hex(t.segment, 4, '')}:${hex(t.callOffset, 4, '')}`,
        target: `${hex(t.segment, 4, '')}:${hex(t.target, 4, '')}`,
        cave: `${hex(t.segment, 4, '')}:${hex(t.caveOffset, 4, '')}`,
      }));
    if (args.action === 'list') return { session, data: { traces: list() } };
    if (args.action === 'read') {
      if (args.id === undefined) throw badRequest('read needs id.');
      const r = await machine.traces.read(args.id);
      return {
        session,
        data: { id: args.id, hits: r.hits, flags: r.flags, ds: hex(r.ds, 4, ''), captures: r.captures },
        summary: `${r.hits} hits; ${r.captures.map((c) => `${c.name}=${c.hex}`).join(' ')}`,
      };
    }
    if (args.action === 'remove') {
      if (args.id === undefined) throw badRequest('remove needs id.');
      const id = args.id;
      await client.control(DOS_FEATURE, { generation: args.generation }, (m) => m.traces.remove(id));
      return {
        session,
        data: { id: args.id, traces: list() },
        summary: `Trace ${args.id} removed; the CALL is restored.`,
      };
    }
    if (args.call === undefined || args.cave === undefined) throw badRequest('install needs call and cave.');
    const call = machine.resolve(args.call);
    if (call.segment === undefined)
      throw badRequest('Give call as "SSSS:OOOO" (or a symbol) so the code segment is known.');
    const caveOffset = typeof args.cave === 'number' ? args.cave : parseInt(args.cave.replace(/^0x/i, ''), 16);
    const captures = (args.captures ?? []).map((c) => {
      const offset =
        typeof c.address === 'number'
          ? c.address
          : /^[A-Za-z_]/.test(c.address)
            ? machine.resolve(c.address).offset!
            : parseInt(c.address.replace(/^0x/i, ''), 16);
      return { name: c.name, offset, length: c.length };
    });
    const segment = call.segment;
    const t = await client.control(DOS_FEATURE, { generation: args.generation }, (m) =>
      m.traces.install({ segment, callOffset: call.offset!, caveOffset, captures }),
    );
    return {
      session,
      data: { id: t.id, traces: list() },
      summary: `Trace ${t.id}: CALL at ${call.label} now goes through the cave at ${hex(t.segment, 4, '')}:${hex(caveOffset, 4, '')} to ${hex(t.target, 4, '')}.`,
    };
  },
});

export const dosInputTools: ToolDef[] = [typeKeysTool, clickTool, traceTool];
