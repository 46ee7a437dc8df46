/**
 * The launch options of every front end, from the connectors' descriptors:
 * the common options here plus each connector's own. From them come the
 * launch.json attributes (package.json), the DAP's argument parsing and MCP
 * start_session's input schema, so the schema exists once.
 */
import * as z from 'zod/v4';
import { RetroError, internalError, badRequest } from '../core/errors.js';
import type { Connector, LaunchOptionShape } from '../core/connector.js';
import type { LaunchConfig } from '../core/launch.js';

/** Options every connector takes. */
export const COMMON_OPTIONS = {
  machine: z
    .string()
    .min(1, { error: 'must name a machine, e.g. "spectrum"' })
    .describe('"spectrum", "sprinter", "c64", "dos" or a MAME machine'),
  program: z.string().optional().describe('program image (.rom/.bin/.ihx/.prg/.exe)'),
  debugInfo: z.string().optional().describe('SDCC .cdb or cc65 .dbg; default: next to program'),
  stopOnEntry: z.boolean().optional().describe('stop at main once loaded (default true)'),
  cwd: z.string().optional().describe('base of relative paths'),
  throttle: z.boolean().optional().describe('run at real speed (default false)'),
} satisfies LaunchOptionShape;

/** launch.json's IntelliSense defaults (not parse defaults, and not shown to agents). */
const COMMON_LAUNCH_JSON_DEFAULTS: Record<string, unknown> = {
  machine: 'spectrum',
  program: '${workspaceFolder}/build/program.rom',
  stopOnEntry: true,
  cwd: '${workspaceFolder}',
};

/** Common options that are no launch.json attributes. */
const COMMON_NOT_IN_LAUNCH_JSON: readonly string[] = ['throttle'];

/** The "emulator" option: one of the connectors' kinds. */
export function emulatorOption(connectors: readonly Connector[]) {
  const kinds = connectors.map((c) => c.kind) as [string, ...string[]];
  return z
    .enum(kinds)
    .optional()
    .describe(`default: ${defaultsText(connectors)}`);
}

/**
 * Every option of every connector (the first connector naming a key defines it);
 * for agents (MCP start_session's input) without those a connector keeps from them.
 */
export function allLaunchOptions(connectors: readonly Connector[], forAgents = false): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = { machine: COMMON_OPTIONS.machine, emulator: emulatorOption(connectors) };
  for (const [key, schema] of Object.entries(COMMON_OPTIONS)) shape[key] ??= schema;
  for (const c of connectors)
    for (const [key, schema] of Object.entries(c.options))
      if (!(forAgents && c.notForAgents?.includes(key as keyof LaunchConfig))) shape[key] ??= schema;
  return shape;
}

/** The launch.json attributes, as VS Code wants them in package.json `contributes.debuggers[]`. */
export function launchJsonAttributes(connectors: readonly Connector[]): {
  required: string[];
  properties: Record<string, Record<string, unknown>>;
} {
  const hidden = new Set([...COMMON_NOT_IN_LAUNCH_JSON, ...connectors.flatMap((c) => c.notInLaunchJson ?? [])]);
  const properties: Record<string, Record<string, unknown>> = {};
  const defaults: Record<string, unknown> = { ...COMMON_LAUNCH_JSON_DEFAULTS };
  for (const c of connectors) for (const [k, v] of Object.entries(c.launchJsonDefaults ?? {})) defaults[k] ??= v;
  defaults.emulator = defaultConnector(connectors).kind;
  for (const [key, schema] of Object.entries(allLaunchOptions(connectors))) {
    if (hidden.has(key)) continue;
    properties[key] = { ...jsonAttribute(schema), ...(key in defaults ? { default: defaults[key] } : {}) };
  }
  return { required: ['machine', 'program'], properties };
}

/** One option as a JSON Schema attribute (package.json has no $schema per attribute). */
export function jsonAttribute(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return json;
}

/** The connector that runs `machine` when a launch names no emulator. */
export function connectorFor(connectors: readonly Connector[], machine: string, emulator?: string): Connector {
  if (emulator === undefined)
    return connectors.find((c) => c.defaultFor?.includes(machine)) ?? defaultConnector(connectors);
  const found = connectors.find((c) => c.kind === emulator);
  if (!found) {
    throw bad(
      `Emulator "${emulator}" is not supported; use ${connectors.map((c) => `"${c.kind}" ${c.summary}`).join(', or ')}.`,
    );
  }
  if (found.machines !== 'any' && !found.machines.includes(machine)) {
    throw bad(
      `Emulator "${emulator}" is not supported for machine "${machine}"; it runs machine ${found.machines.map((m) => `"${m}"`).join(', ')}.`,
    );
  }
  return found;
}

/**
 * Untrusted launch arguments → a LaunchConfig with the common options and
 * the chosen connector's own. Anything else is refused, never dropped: an
 * option of another emulator names the ones that take it, an unknown one is
 * said to be unknown. Shapes only: files and processes are checked by the
 * launcher while booting.
 */
export function parseLaunchConfig(
  connectors: readonly Connector[],
  raw: unknown,
): { connector: Connector; config: LaunchConfig } {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw bad('The request arguments must be an object.');
  const args = withoutBlanks(raw as Record<string, unknown>);
  if (typeof args.machine !== 'string' || !args.machine) throw bad('The launch needs "machine", e.g. "spectrum".');
  if (args.emulator !== undefined && typeof args.emulator !== 'string') throw bad('"emulator" must be a string.');
  const connector = connectorFor(connectors, args.machine, args.emulator);
  refuseOthers(connectors, connector, Object.keys(args));
  const schema = z.strictObject({ ...COMMON_OPTIONS, ...connector.options, emulator: z.string().optional() });
  const parsed = schema.safeParse(args, { reportInput: true });
  if (!parsed.success) throw bad(parsed.error.issues.map(sentence).join(' '));
  const config = { ...parsed.data, emulator: connector.kind } as LaunchConfig;
  for (const key of Object.keys(config) as (keyof LaunchConfig)[]) if (config[key] === undefined) delete config[key];
  return { connector, config };
}

/** Options the chosen connector does not take: whose they are, or that nobody's. */
function refuseOthers(connectors: readonly Connector[], chosen: Connector, keys: string[]): void {
  const own = new Set(['emulator', ...Object.keys(COMMON_OPTIONS), ...Object.keys(chosen.options)]);
  const foreign = keys.filter((k) => !own.has(k));
  if (!foreign.length) return;
  const sentences = foreign.map((key) => {
    const takers = connectors.filter((c) => key in c.options).map((c) => `"${c.kind}"`);
    return takers.length
      ? `"${key}" is an option of emulator ${takers.join(', ')}, not of "${chosen.kind}".`
      : `"${key}" is not a launch option.`;
  });
  throw bad(`${sentences.join(' ')} Emulator "${chosen.kind}" takes: ${[...own].join(', ')}.`);
}

/** launch.json variables that resolve to nothing arrive as "" or null: as if not given. */
function withoutBlanks(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === '' || v === null || v === undefined) continue;
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? withoutBlanks(v as Record<string, unknown>) : v;
  }
  return out;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  boolean: 'true or false',
  number: 'a number',
  object: 'an object',
  array: 'a list',
};

function sentence(issue: z.core.$ZodIssue): string {
  const where = `"${issue.path.join('.')}"`;
  switch (issue.code) {
    case 'invalid_type':
      return `${where} must be ${EXPECTED[issue.expected] ?? issue.expected}.`;
    case 'invalid_value':
      return `${where} must be one of ${issue.values.join(', ')}, not ${JSON.stringify(issue.input)}.`;
    case 'unrecognized_keys':
      return `${where} has unknown option(s) ${issue.keys.join(', ')}.`;
    default:
      return `${where} ${issue.message}.`;
  }
}

/** "builtin for c64, dosbox for dos, else mame" */
function defaultsText(connectors: readonly Connector[]): string {
  const named = connectors.flatMap((c) => (c.defaultFor ?? []).map((m) => `${c.kind} for ${m}`));
  return [...named, `else ${defaultConnector(connectors).kind}`].join(', ');
}

function defaultConnector(connectors: readonly Connector[]): Connector {
  const any = connectors.find((c) => c.machines === 'any') ?? connectors[0];
  if (!any) throw internalError('No connector is registered.');
  return any;
}

function bad(message: string): RetroError {
  return badRequest(message);
}
