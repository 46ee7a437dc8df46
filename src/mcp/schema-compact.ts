/**
 * Trims what tools/list sends without changing what it means, so the default
 * profile stays inside an agent's budget (see test/mcp/surface-budget.test.ts):
 * - an object alternative of a described parameter (`anyOf`) is a bare
 *   "object": the description names its fields (addresses: {space, offset});
 * - zod's safe-integer bounds (±2^53-1), "$schema", `propertyNames: string`
 *   and, in output schemas, `additionalProperties: false` say nothing a JSON
 *   client needs;
 * - the identity envelope and the error block are not repeated per tool (the
 *   server instructions describe them once); an output schema lists the tool's
 *   own fields, and a result is either those (required ones present) or `error`;
 * - annotation hints
 *   equal to the MCP defaults (readOnly false, destructive true, idempotent
 *   false, openWorld true; destructive/idempotent mean nothing for read-only
 *   tools) and `execution.taskSupport: "forbidden"` (the default) are left out.
 * - options a tool accepts but does not advertise are left out: those only
 *   the user may set (ToolDef.unadvertised);
 * - the options many tools share are said once in the instructions:
 *   `session_id` goes as a bare string, `generation` (on every tool that
 *   changes the machine) and `timeout_ms` (its default and bound) with a word;
 * - titles are left out: the name and the description say what a client shows;
 * - a string or list input's length bounds and pattern are left out (checked on call, a breach names the
 *   field), and so is a boolean input's default false (absent is false); numeric bounds stay.
 * The server still validates with the full zod schemas; clients only see less.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Json = Record<string, unknown>;

/** what a string or list input's own check says on call; numeric bounds stay (they are the values' meaning) */
const INPUT_BOUNDS = new Set(['minLength', 'maxLength', 'pattern', 'maxItems']);

function compact(node: unknown, output: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => compact(n, output));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'propertyNames' && (value as Json)?.type === 'string') continue;
    // checked on call (invalid params names the field); descriptions say the ones that matter ("at most 1020")
    if (!output && INPUT_BOUNDS.has(key)) continue;
    // an absent boolean option is false
    if (!output && key === 'default' && value === false && (node as Json).type === 'boolean') continue;
    // inputs' too: start_session takes any key (and refuses the unknown ones in its own words)
    if (key === 'additionalProperties' && (value === false || isEmpty(value))) continue;
    if (key === 'anyOf' && Array.isArray(value) && typeof (node as Json).description === 'string') {
      out[key] = value.map((branch) => (briefObject(branch) ? { type: 'object' } : compact(branch, output)));
      continue;
    }
    out[key] = compact(value, output);
  }
  return out;
}

/** An object alternative of a described parameter: its description spells the fields (addresses' {space, offset}). */
const briefObject = (v: unknown) => !!v && typeof v === 'object' && (v as Json).type === 'object' && 'properties' in v;

const isEmpty = (v: unknown) => !!v && typeof v === 'object' && Object.keys(v).length === 0;

/**
 * An output field that is an object (or a list of objects) is sent as a bare
 * "object" with its one-line description: those shapes repeat across tools
 * (locations, stops, breakpoints, owners, addresses) and every reply shows
 * them; the top level keeps each field's type and which fields are required.
 */
function shallow(node: unknown, depth: number, defs: Json): unknown {
  if (Array.isArray(node)) return node.map((n) => shallow(n, depth, defs));
  if (!node || typeof node !== 'object') return node;
  let n = node as Json;
  // zod names recursive shapes (variables with children) in definitions
  const ref = typeof n.$ref === 'string' ? defs[n.$ref.replace(/^#\/(definitions|\$defs)\//, '')] : undefined;
  if (ref) n = { ...(ref as Json), ...(n.description ? { description: n.description } : {}) };
  if (depth >= 1 && n.type === 'object')
    return n.description ? { type: 'object', description: n.description } : { type: 'object' };
  const out: Json = {};
  for (const [key, value] of Object.entries(n)) {
    if (key === 'properties')
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, shallow(v, depth + 1, defs)]));
    else if (key === 'items' || key === 'anyOf') out[key] = shallow(value, depth, defs);
    else if (key !== 'definitions' && key !== '$defs') out[key] = value;
  }
  return out;
}

/** An output schema whose required fields may instead be a lone `error` (a failed call). */
function outputSchema(schema: Json): Json {
  const full = compact(schema, true) as Json;
  const out = shallow(full, 0, { ...(full.definitions as Json), ...(full.$defs as Json) }) as Json;
  const required = out.required as string[] | undefined;
  if (!required?.length) return out;
  delete out.required;
  return { ...out, anyOf: [{ required }, { required: ['error'] }] };
}

function annotations(a: Json | undefined): Json | undefined {
  if (!a) return undefined;
  const out: Json = {};
  if (a.readOnlyHint === true) out.readOnlyHint = true;
  else {
    if (a.destructiveHint === false) out.destructiveHint = false;
    if (a.idempotentHint === true) out.idempotentHint = true;
  }
  if (a.openWorldHint === false) out.openWorldHint = false;
  return out;
}

/**
 * The input schema without the options at these dotted paths (still accepted:
 * the server validates with zod); "x.*" keeps option x as a bare object.
 */
function withoutPaths(schema: Json, paths: readonly string[]): Json {
  const copy = structuredClone(schema);
  for (const path of paths) {
    const parts = path.split('.');
    let node: Json | undefined = copy;
    for (const part of parts.slice(0, -1)) node = (node?.properties as Json | undefined)?.[part] as Json | undefined;
    const props = node?.properties as Json | undefined;
    const last = parts[parts.length - 1];
    if (last !== '*') {
      if (props) delete props[last];
    } else if (node?.properties) {
      // "dos.*": the option stays, its fields are said by its description
      for (const key of Object.keys(node)) if (key !== 'type' && key !== 'description') delete node[key];
    }
  }
  return copy;
}

/** Input options the server instructions describe once: what each keeps in tools/list. */
export const SAID_IN_INSTRUCTIONS: Record<string, Json> = {
  session_id: { type: 'string' },
  generation: { type: 'integer', description: 'stale: refused' },
  timeout_ms: { type: 'integer', description: 'ms' },
};

function sayOnce(input: Json): Json {
  const props = input.properties as Record<string, Json> | undefined;
  if (!props) return input;
  for (const [name, brief] of Object.entries(SAID_IN_INSTRUCTIONS)) if (props[name]) props[name] = brief;
  return input;
}

/** Which input options of a tool tools/list leaves out (ToolDef.unadvertised). */
export type Unadvertised = (tool: string) => readonly string[] | undefined;

function compactTool(tool: Json, unadvertised?: Unadvertised): Json {
  const { execution, ...rest } = tool as Json & { execution?: Json };
  const input = sayOnce(withoutPaths(tool.inputSchema as Json, unadvertised?.(tool.name as string) ?? []));
  delete rest.title;
  const out: Json = {
    ...rest,
    inputSchema: compact(input, false),
    ...(tool.outputSchema ? { outputSchema: outputSchema(tool.outputSchema as Json) } : {}),
    ...(tool.annotations ? { annotations: annotations(tool.annotations as Json) } : {}),
  };
  const extra = execution && Object.entries(execution).filter(([k, v]) => !(k === 'taskSupport' && v === 'forbidden'));
  if (extra?.length) out.execution = Object.fromEntries(extra);
  return out;
}

/** A tools/list response with compacted schemas; any other message unchanged. */
export function compactToolList(message: JSONRPCMessage, unadvertised?: Unadvertised): JSONRPCMessage {
  const result = (message as { result?: { tools?: unknown } }).result;
  if (!result || !Array.isArray(result.tools)) return message;
  const tools = result.tools.map((t: Json) => compactTool(t, unadvertised));
  return { ...message, result: { ...result, tools } } as JSONRPCMessage;
}
