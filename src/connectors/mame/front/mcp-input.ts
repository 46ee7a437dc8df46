/**
 * Tool group `mame`, input: ports and fields by name, timed key presses,
 * frame-paced typing, MAME's natural keyboard, mouse, and held fields. Input
 * needs the control lease and a running machine; every held thing is recorded
 * with its owner in the session, so a stop, a lost lease or a vanished client
 * releases it.
 */
import * as z from 'zod/v4';
import { badRequest, notFound } from '../../../core/errors.js';
import type { ClientSession } from '../../../session/client-session.js';
import type { SessionApi } from '../../../session/types.js';
import {
  MAME_RAW_FEATURE,
  findMouse,
  type FieldRef,
  type InputStep,
  type MameRaw,
  type PortInfo,
} from '../mame-raw.js';
import { generationInput, sessionIdInput } from '../../../mcp/schemas.js';
import { READ_ONLY, defineTool, type ToolContext, type ToolDef } from '../../../mcp/tool-kit.js';
import { useMame } from './mcp-common.js';
import { keySteps } from '../mame-keys.js';

export const MAX_HOLD_FRAMES = 60;
export const MAX_TYPE_STRING = 64;
export const MAX_TYPE_TEXT = 256;

const fieldRef = z.object({ port: z.string(), field: z.string() });
const inputOutput = {
  pressed: z.array(fieldRef).describe('the fields used'),
  outcome: z.enum(['done', 'cut', 'queued', 'held', 'released', 'posted']),
};

type MameUse = ReturnType<typeof useMame>;

/** Input goes through the session's guarded path: the lease, the generation and (mostly) a running machine. */
function withInput<R>(
  ctx: ToolContext,
  args: { session_id?: string; generation?: number },
  needsRunning: boolean,
  act: (m: MameUse) => Promise<R>,
): Promise<R> {
  const m = useMame(ctx, args.session_id);
  const guard = { generation: args.generation, needs: needsRunning ? ('running' as const) : undefined };
  return m.client.control(MAME_RAW_FEATURE, guard, (raw) => act({ ...m, raw }));
}

/** Queue a sequence, record it as held by the caller, optionally wait for it to finish. */
async function runSequence(
  session: SessionApi,
  client: ClientSession,
  raw: MameRaw,
  what: string,
  steps: InputStep[],
  wait: boolean,
) {
  const { done } = await raw.enqueueInput(steps);
  const tracked = client.trackInput(what, async () => {
    await raw.releaseAllInput();
  });
  const settled = done.finally(() => session.untrackInput(tracked));
  if (!wait) return 'queued' as const;
  return settled;
}

/** A keyboard field by exact name or by its first word ("a" for "a    A    STOP …", "ENTER"). */
function findKey(ports: PortInfo[], key: string, machine: string): FieldRef {
  const keys = ports.flatMap((p) =>
    p.fields.filter((f) => f.type_class === 'keyboard').map((f) => ({ port: p.tag, field: f.name })),
  );
  const exact = keys.find((k) => k.field === key);
  if (exact) return exact;
  const lower = key.toLowerCase();
  const byWord = keys.filter(
    (k) =>
      k.field
        .trim()
        .split(/\s{2,}|\s(?=\S)/)[0]
        .toLowerCase() === lower || k.field.toLowerCase() === lower,
  );
  if (byWord.length === 1) return byWord[0];
  if (byWord.length > 1)
    throw badRequest(
      `"${key}" names several keys (${byWord.map((k) => k.field).join(', ')}); give the exact field name.`,
    );
  throw notFound(`The ${machine} machine has no key named "${key}"; list_ports shows the keyboard fields.`, { key });
}

const listPorts = defineTool({
  name: 'list_ports',
  title: 'List input ports',
  description:
    'Every MAME input port and its fields (name, mask, type token, class, player, analog range): the names press_key, press_input and set_input take.',
  input: {
    session_id: sessionIdInput,
    type_class: z.string().max(40).optional().describe('only fields of this class, e.g. "keyboard"'),
  },
  output: {
    ports: z.array(
      z.object({
        tag: z.string(),
        fields: z.array(
          z.object({
            name: z.string(),
            mask: z.number().int(),
            type: z.string(),
            type_class: z.string(),
            player: z.number().int(),
            is_analog: z.boolean(),
            defvalue: z.number().int(),
            minvalue: z.number().int().optional(),
            maxvalue: z.number().int().optional(),
          }),
        ),
      }),
    ),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, raw } = useMame(ctx, args.session_id);
    const ports = (await raw.listPorts())
      .map((p) => ({ ...p, fields: p.fields.filter((f) => !args.type_class || f.type_class === args.type_class) }))
      .filter((p) => p.fields.length > 0);
    return {
      session,
      data: { ports },
      summary: `${ports.length} ports, ${ports.reduce((n, p) => n + p.fields.length, 0)} fields`,
    };
  },
});

const readPort = defineTool({
  name: 'read_port',
  title: 'Read an input port',
  description:
    'The value an input port reads now (all its fields combined, active-low bits as the machine sees them): shows what a press, a held field or the mouse did.',
  input: { session_id: sessionIdInput, port: z.string().min(1).max(200) },
  output: { port: z.string(), value: z.number().int(), binary: z.string() },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session, raw } = useMame(ctx, args.session_id);
    const value = await raw.readPort(args.port);
    return { session, data: { port: args.port, value, binary: value.toString(2) } };
  },
});

const waitArg = z.boolean().default(true).describe('wait until the input finished (bounded)');

const pressKey = defineTool({
  name: 'press_key',
  title: 'Press a key',
  description:
    `Hold one keyboard key for 1..${MAX_HOLD_FRAMES} frames, then release it (needs the lease and a running machine). ` +
    'key: the exact field name or its first word, e.g. "a", "ENTER", "SPACE".',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    key: z.string().min(1).max(100),
    frames: z.number().int().min(1).max(MAX_HOLD_FRAMES).default(3),
    wait: waitArg,
  },
  output: inputOutput,
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    return withInput(ctx, args, true, async ({ session, client, raw }) => {
      const field = findKey(await raw.listPorts(), args.key, raw.machine);
      const outcome = await runSequence(
        session,
        client,
        raw,
        `key "${field.field}" for ${args.frames} frames`,
        [{ fields: [field], frames: args.frames }],
        args.wait,
      );
      return {
        session,
        data: { pressed: [field], outcome },
        summary: `Pressed ${field.field} for ${args.frames} frames: ${outcome}.`,
      };
    });
  },
});

const typeString = defineTool({
  name: 'type_string',
  title: 'Type a string key by key',
  description:
    `Type 1..${MAX_TYPE_STRING} characters through the machine's key fields, frame-paced (each key held frames_per_key, then released for gap_frames), ` +
    'with shift keys where needed. Every character is checked first: one the keyboard cannot type refuses the whole string and nothing is pressed. "\\n" is ENTER.',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    text: z.string().min(1).max(MAX_TYPE_STRING),
    frames_per_key: z.number().int().min(1).max(10).default(2),
    gap_frames: z.number().int().min(1).max(10).default(2),
    wait: waitArg,
  },
  output: { ...inputOutput, characters: z.number().int() },
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    return withInput(ctx, args, true, async ({ session, client, raw }) => {
      const { keys, missing } = await raw.keymap(args.text);
      if (missing.length) {
        throw badRequest(
          `The ${raw.machine} keyboard cannot type ${missing.map((c) => JSON.stringify(c)).join(', ')}; nothing was typed.`,
          { missing },
        );
      }
      const steps = keySteps(keys, args.frames_per_key, args.gap_frames);
      const outcome = await runSequence(session, client, raw, `typing ${JSON.stringify(args.text)}`, steps, args.wait);
      return {
        session,
        data: { pressed: keys.flat(), outcome, characters: keys.length },
        summary: `Typed ${keys.length} characters: ${outcome}.`,
      };
    });
  },
});

const typeText = defineTool({
  name: 'type_text',
  title: "Type text with MAME's natural keyboard",
  description:
    `Post up to ${MAX_TYPE_TEXT} characters to MAME's natural keyboard, which paces and maps them itself. With coded:true, ` +
    '{ENTER}, {SPACE}, {TAB} and similar codes are understood. MAME types it while the machine runs; it cannot be taken back.',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    text: z.string().min(1).max(MAX_TYPE_TEXT),
    coded: z.boolean().default(false),
  },
  output: inputOutput,
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    return withInput(ctx, args, true, async ({ session, raw }) => {
      await raw.typeNatural(args.text, args.coded);
      return {
        session,
        data: { pressed: [], outcome: 'posted' as const },
        summary: `Posted ${args.text.length} characters to the natural keyboard.`,
      };
    });
  },
});

const moveMouse = defineTool({
  name: 'move_mouse',
  title: 'Move the mouse',
  description:
    'Set the mouse X/Y axes (MAME analog fields, relative devices: the machine sees the change) for some frames. ' +
    'Machines without a mouse (e.g. spectrum) answer unsupported.',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    x: z.number().int().min(-65536).max(65536),
    y: z.number().int().min(-65536).max(65536),
    player: z.number().int().min(1).max(8).default(1),
    frames: z.number().int().min(1).max(MAX_HOLD_FRAMES).default(2),
    wait: waitArg,
  },
  output: inputOutput,
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    return withInput(ctx, args, true, async ({ session, client, raw }) => {
      const mouse = findMouse(await raw.listPorts(), raw.machine, args.player);
      const fields = [
        { ...mouse.x, value: args.x },
        { ...mouse.y, value: args.y },
      ];
      const outcome = await runSequence(
        session,
        client,
        raw,
        `mouse to ${args.x},${args.y}`,
        [{ fields, frames: args.frames }],
        args.wait,
      );
      return { session, data: { pressed: [mouse.x, mouse.y], outcome } };
    });
  },
});

const clickMouse = defineTool({
  name: 'click_mouse',
  title: 'Click a mouse button',
  description: 'Hold mouse button N for some frames. Machines without a mouse answer unsupported.',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    button: z.number().int().min(1).max(8).default(1),
    player: z.number().int().min(1).max(8).default(1),
    frames: z.number().int().min(1).max(MAX_HOLD_FRAMES).default(3),
    wait: waitArg,
  },
  output: inputOutput,
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    return withInput(ctx, args, true, async ({ session, client, raw }) => {
      const mouse = findMouse(await raw.listPorts(), raw.machine, args.player);
      const button = mouse.buttons[args.button - 1];
      if (!button) throw notFound(`The ${raw.machine} mouse has no button ${args.button}.`);
      const outcome = await runSequence(
        session,
        client,
        raw,
        `mouse button ${args.button}`,
        [{ fields: [button], frames: args.frames }],
        args.wait,
      );
      return { session, data: { pressed: [button], outcome } };
    });
  },
});

const pressInput = defineTool({
  name: 'press_input',
  title: 'Press any input field',
  description: `Hold a named port field (list_ports) at value (default 1) for 1..${MAX_HOLD_FRAMES} frames, then release it.`,
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    port: z.string().min(1).max(200),
    field: z.string().min(1).max(200),
    value: z.number().int().default(1),
    frames: z.number().int().min(1).max(MAX_HOLD_FRAMES).default(3),
    wait: waitArg,
  },
  output: inputOutput,
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    return withInput(ctx, args, true, async ({ session, client, raw }) => {
      const field = { port: args.port, field: args.field, value: args.value };
      const outcome = await runSequence(
        session,
        client,
        raw,
        `field ${args.port}/${args.field} for ${args.frames} frames`,
        [{ fields: [field], frames: args.frames }],
        args.wait,
      );
      return { session, data: { pressed: [{ port: args.port, field: args.field }], outcome } };
    });
  },
});

const setInput = defineTool({
  name: 'set_input',
  title: 'Hold or release an input field',
  description:
    'Hold a named port field at a value until released (value 0 releases). Held fields belong to you: they are released ' +
    'when the machine stops, when you lose the lease, or when you disconnect.',
  input: {
    session_id: sessionIdInput,
    generation: generationInput,
    port: z.string().min(1).max(200),
    field: z.string().min(1).max(200),
    value: z.number().int(),
  },
  output: inputOutput,
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run(args, ctx) {
    return withInput(ctx, args, args.value !== 0, async ({ session, client, raw }) => {
      const what = `field ${args.port}/${args.field} held`;
      await raw.setInput(args.port, args.field, args.value);
      for (const h of session.heldInputs()) if (h.what === what && h.owner.id === client.id) session.untrackInput(h.id);
      if (args.value !== 0) client.trackInput(what, () => raw.setInput(args.port, args.field, 0));
      return {
        session,
        data: {
          pressed: [{ port: args.port, field: args.field }],
          outcome: args.value !== 0 ? ('held' as const) : ('released' as const),
        },
      };
    });
  },
});

const listHeldInputs = defineTool({
  name: 'list_held_inputs',
  title: 'List held inputs',
  description: 'Inputs held right now (held fields, sequences being typed) and who holds them.',
  input: { session_id: sessionIdInput },
  output: {
    held: z.array(
      z.object({
        id: z.number().int(),
        owner: z.object({ id: z.string(), kind: z.string(), label: z.string() }),
        what: z.string(),
        since: z.number(),
      }),
    ),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    return { session, data: { held: session.heldInputs() } };
  },
});

export const mameInputTools: ToolDef[] = [
  listPorts,
  readPort,
  pressKey,
  typeString,
  typeText,
  moveMouse,
  clickMouse,
  pressInput,
  setInput,
  listHeldInputs,
];
