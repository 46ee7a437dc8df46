/**
 * Defines a tool once (zod input and output schemas, explicit annotations, a
 * run function) and either registers it on an McpServer or invokes it
 * directly (the CLI demo). Both paths share one result builder: every success
 * carries the identity envelope and the run state; every RetroError becomes a
 * tool error with `{ error: { code, message, details } }` in structuredContent.
 */
import * as z from 'zod/v4';
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RunState } from '../core/target.js';
import type { SessionApi, SessionManagerApi } from '../session/types.js';
import type { LaunchPolicy } from '../session/launch-policy.js';
import { asRetroError, internalError, badRequest } from '../core/errors.js';
import type { McpConnection } from './connection.js';
import type { BreakpointChangeFields } from './breakpoint-inbox.js';
import { envelopeShape } from './schemas.js';
import type { CallContext } from './call-context.js';
import { withFileLinks } from './file-resources.js';

export type { CallContext };

export interface GroupSummary {
  name: string;
  description: string;
  tools: string[];
  loaded: boolean;
  baseline?: boolean;
}

/** A named set of tools loaded and unloaded together. */
export interface ToolGroup {
  name: string;
  description: string;
  tools: readonly ToolDef[];
}

export interface ToolMatch {
  name: string;
  title: string;
  group: string;
  loaded: boolean;
  description: string;
  score: number;
}

/** What the catalog tools see of the connection's catalog. */
export interface CatalogApi {
  /** the connection's start-up profile (groups.ts) */
  readonly profile: string;
  groups(): GroupSummary[];
  /** returns the groups newly loaded */
  load(name: string): string[];
  /** returns the groups unloaded */
  unload(name: string): string[];
  search(query: string, limit: number): ToolMatch[];
}

/** What a tool's run function gets besides its arguments. */
export interface ToolContext {
  manager: SessionManagerApi;
  connection: McpConnection;
  /** relative output paths (screenshots, dumps) resolve under this folder */
  outputDir: string;
  /** what the user lets agents choose when they start sessions (absent: nothing user-only) */
  launchPolicy?: LaunchPolicy;
  /** folders besides outputDir that tools may read and write (workspace, the MCP client's roots) */
  roots?: () => Promise<readonly string[]>;
  /** the tool groups this connection knows, for the catalog tools */
  groups: () => GroupSummary[];
  /** load/unload/search tool groups on this connection (absent outside an MCP server, e.g. the CLI demo) */
  catalog?: CatalogApi;
  /** this call's cancellation and progress (absent outside an MCP request, e.g. the CLI demo) */
  call?: CallContext;
  /** every file this connection's tools wrote (file-resources.ts serves them back) */
  filesWritten?: string[];
}

export interface ToolOutcome<O> {
  /** the session the result is about: supplies session_id, build_id, generation */
  session?: SessionApi;
  /** run state when the tool already knows it (saves a status() call) */
  state?: RunState;
  data: O;
  /** a one-line summary for people, put before the JSON in the text block */
  summary?: string;
  /** a big string field (e.g. read_memory's hex) sent once, in structuredContent, when over BULK_TEXT_LIMIT */
  bulk?: string;
  /** extra content, e.g. a PNG image */
  image?: { data: string; mimeType: string };
  /** more images after it (watch_screen's frames) */
  images?: { data: string; mimeType: string }[];
}

export interface Annotations {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

export interface ToolDef<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Annotations;
  /** input options accepted but left out of tools/list (dotted paths, e.g. user-only launch options) */
  unadvertised?: readonly string[];
  /** arguments it does not list reach `run`, which refuses them in its own words (a launch option is never dropped) */
  openInput?: boolean;
  run(args: z.infer<z.ZodObject<I>>, ctx: ToolContext): Promise<ToolOutcome<z.infer<z.ZodObject<O>>>>;
}

/** Identity helper so TypeScript infers args/result types from the schemas. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(def: ToolDef<I, O>): ToolDef {
  return def as unknown as ToolDef;
}

/**
 * What a client sees: the tool's own fields. The envelope and the error block
 * are described once in the server instructions (schema-compact.ts adds the
 * "or a lone error" alternative), not repeated in every tool's schema.
 */
function advertisedOutput(def: ToolDef): z.ZodObject {
  return z.looseObject(def.output);
}

/**
 * The shape a success must have, checked before it leaves us: unknown top-level
 * keys are a bug here; unknown nested keys (e.g. a field a session adds later)
 * are stripped, because the advertised schema forbids additional properties.
 */
const strictOutputs = new WeakMap<ToolDef, z.ZodObject>();
function strictOutput(def: ToolDef): z.ZodObject {
  let schema = strictOutputs.get(def);
  if (!schema) strictOutputs.set(def, (schema = z.strictObject({ ...envelopeShape, ...def.output })));
  return schema;
}

export function errorResult(err: unknown): CallToolResult {
  const e = asRetroError(err);
  return {
    isError: true,
    content: [{ type: 'text', text: `${e.code}: ${e.message}` }],
    structuredContent: { error: { code: e.code, message: e.message, details: e.details } },
  };
}

/** The machine messages a connection has not been told of yet, per session (the last few at most). */
const MAX_MACHINE_MESSAGES = 20;
const toldUpTo = new WeakMap<object, Map<string, number>>();

function newMachineMessages(session: ToolOutcome<unknown>['session'], connection: object): string[] {
  if (!session) return [];
  const seen = toldUpTo.get(connection) ?? new Map<string, number>();
  toldUpTo.set(connection, seen);
  const { events, last_seq } = session.eventsSince(seen.get(session.id) ?? 0);
  seen.set(session.id, last_seq);
  const texts = events.flatMap((q) => (q.event.type === 'output' && q.event.machine ? [q.event.text.trimEnd()] : []));
  return texts.slice(-MAX_MACHINE_MESSAGES);
}

/** Above this many characters a bulk field is sent once (in structuredContent), not again in the text. */
export const BULK_TEXT_LIMIT = 4096;

/** The text block's JSON: the result, a big bulk field replaced by a pointer to its one copy. */
function textCopy(data: Record<string, unknown>, bulk: string | undefined): Record<string, unknown> {
  const value = bulk ? data[bulk] : undefined;
  if (typeof value !== 'string' || value.length <= BULK_TEXT_LIMIT) return data;
  return { ...data, [bulk!]: `(${value.length} characters in structuredContent.${bulk})` };
}

async function successResult(
  def: ToolDef,
  outcome: ToolOutcome<Record<string, unknown>>,
  connection: object,
): Promise<CallToolResult> {
  const { session } = outcome;
  const identity = session?.identity();
  const state = outcome.state ?? (session ? (await session.status()).state : null);
  const messages = newMachineMessages(session, connection);
  const structured = {
    session_id: identity?.session_id ?? null,
    build_id: identity?.build_id ?? null,
    generation: identity?.generation ?? null,
    state,
    ...(messages.length ? { machine_messages: messages } : {}),
    ...outcome.data,
  };
  const checked = strictOutput(def).safeParse(structured);
  if (!checked.success) {
    throw internalError(`Tool ${def.name} produced a result that does not match its schema: ${checked.error.message}`);
  }
  const text = (outcome.summary ? outcome.summary + '\n' : '') + JSON.stringify(textCopy(checked.data, outcome.bulk));
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  for (const image of [...(outcome.image ? [outcome.image] : []), ...(outcome.images ?? [])])
    content.push({ type: 'image', data: image.data, mimeType: image.mimeType });
  return { content, structuredContent: checked.data as Record<string, unknown> };
}

async function runTool(def: ToolDef, args: Record<string, unknown>, ctx: ToolContext): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    result = await successResult(def, await def.run(args, ctx), ctx.connection ?? ctx);
  } catch (err) {
    result = errorResult(err);
  }
  const written = ctx.call?.written ?? [];
  ctx.filesWritten?.push(...written);
  result = withFileLinks(result, written);
  return withLosses(
    result,
    ctx.connection?.takeLosses() ?? [],
    ctx.connection?.takeEvents() ?? [],
    ctx.connection?.takeBreakpointChanges() ?? { fields: {} },
  );
}

/**
 * What the client lost since its last reply (a lapsed lease, …) goes first in the text and in `lost`; what
 * happened that it did not cause (a stop by another client; session-notices.ts) in `events`.
 */
function withLosses(
  result: CallToolResult,
  lost: string[],
  events: string[],
  changes: { fields: BreakpointChangeFields; text?: string },
): CallToolResult {
  const others = events.filter((e) => !lost.includes(e));
  if (!lost.length && !others.length && !changes.text) return result;
  const [first, ...rest] = result.content;
  const note =
    (lost.length ? `Lost since your last call: ${lost.join(' ')}\n` : '') +
    (others.length ? `Since your last call: ${others.join(' ')}\n` : '') +
    (changes.text ? `${changes.text}\n` : '');
  const content = first?.type === 'text' ? [{ ...first, text: note + first.text }, ...rest] : result.content;
  const structured = {
    ...result.structuredContent,
    ...(lost.length ? { lost } : {}),
    ...(others.length ? { events: others } : {}),
    ...changes.fields,
  };
  return { ...result, content, structuredContent: structured };
}

/** Call a tool without MCP (the CLI): validates the arguments with the same schema. */
export async function invokeTool(
  def: ToolDef,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<CallToolResult> {
  const parsed = inputSchema(def).safeParse(args);
  if (!parsed.success) return errorResult(badRequest(`Invalid arguments for ${def.name}: ${parsed.error.message}`));
  return runTool(def, parsed.data, ctx);
}

export function registerToolDef(server: McpServer, def: ToolDef, ctx: ToolContext): RegisteredTool {
  return server.registerTool(
    def.name,
    {
      title: def.title,
      description: def.description,
      inputSchema: inputSchema(def),
      outputSchema: advertisedOutput(def),
      annotations: {
        title: def.title,
        readOnlyHint: def.annotations.readOnly,
        destructiveHint: def.annotations.destructive,
        idempotentHint: def.annotations.idempotent,
        openWorldHint: def.annotations.openWorld,
      },
    },
    (args: Record<string, unknown>, extra: RequestExtra) => runTool(def, args, { ...ctx, call: callContext(extra) }),
  );
}

function inputSchema(def: ToolDef): z.ZodObject {
  return def.openInput ? z.looseObject(def.input) : z.object(def.input);
}

type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function callContext(extra: RequestExtra): CallContext {
  const token = extra._meta?.progressToken;
  let step = 0;
  return {
    written: [],
    signal: extra.signal,
    progress(message) {
      if (token === undefined || extra.signal.aborted) return;
      // progress must increase; a wait has no known total, so each notice counts one step
      void extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: ++step, message },
        })
        .catch(() => undefined);
    },
  };
}

/** Shorthands for the common annotation sets. */
export const READ_ONLY: Annotations = { readOnly: true, destructive: false, idempotent: true, openWorld: false };
export const MUTATES: Annotations = { readOnly: false, destructive: false, idempotent: false, openWorld: false };
/** Writing memory or registers: overwrites what was there; the same write again changes nothing more. */
export const WRITES: Annotations = { readOnly: false, destructive: true, idempotent: true, openWorld: false };
