/**
 * Builds one McpServer for one connection: registers the tools of the chosen
 * profile, gives them a per-connection context (ClientRefs attached lazily,
 * heartbeats on every message and on a timer), and detaches on close.
 */
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SessionManagerApi } from '../session/types.js';
import type { LaunchPolicy } from '../session/launch-policy.js';
import { McpConnection } from './connection.js';
import type { Profile } from './groups.js';
import { ConnectionCatalog } from './tool-catalog.js';
import { compactToolList } from './schema-compact.js';
import { asInvalidParams } from './invalid-params.js';
import { explainUnknownTool } from './unknown-tool.js';
import { registerToolDef, type ToolContext, type ToolGroup } from './tool-kit.js';
import { catalogTools } from './tools/catalog.js';
import { registerResources } from './resources.js';
import { registerFileResources } from './file-resources.js';

export const SERVER_NAME = 'retro-debug';
export const SERVER_VERSION = '0.1.0';

/** Said once instead of in every tool: the flow, the lease, the result envelope, the error block, the groups. */
export const SERVER_INSTRUCTIONS = [
  'Debug C programs on emulated retro machines (ZX Spectrum/Sprinter in MAME, C64 built-in or VICE, DOS in DOSBox).',
  'Flow: start_session {wait:true} (or use the running session) -> claim_control -> run_to {file, line} (or ' +
    'set_breakpoint + resume {wait:true}) -> evaluate / read_memory -> type_keys -> screenshot.',
  'Lease: run control, breakpoints and writes need claim_control; reads are free; the person in VS Code may hold ' +
    'it (lease_held names them; take_over only when asked).',
  'Every result also has session_id, build_id, generation (bumped by reset/reload) and state; tools that change ' +
    'the machine take generation too (refused as stale_generation after a reset). Inputs: session_id default ' +
    'the current session; timeout_ms default 10000, at most 50000; an address space is cpu, program, data, io, vram or share. A failed call has isError and {error: {code, message, details}} instead of the listed fields.',
  'Who corrupted a value: last_write (group history); what the CPU just ran: cpu_history (same group).',
  'More tools (raw MAME, C64, DOS, VICE) come in groups: list_tool_groups {query} finds them, load_tool_group loads one.',
].join('\n');

/** How many connections of this process have used each client name (for distinct labels). */
const labelsInUse = new Map<string, number>();

export interface McpServerOptions {
  /** how the client is connected, shown in labels: "http", "stdio" */
  transport: string;
  /** relative output paths (screenshots) resolve under this folder */
  outputDir: string;
  /** folders besides outputDir that tools may read and write (the workspace); the client's declared roots join them */
  roots?: () => readonly string[];
  /** see ToolContext.launchPolicy */
  launchPolicy?: LaunchPolicy;
  /** which tool groups are visible from the start (default 'full'; the CLI and extension default to DEFAULT_PROFILE) */
  profile?: Profile;
  /** every tool group: the generic ones and the connectors' (src/connectors/registry.ts TOOL_GROUPS) */
  groups: readonly ToolGroup[];
  heartbeatMs?: number;
  /** see ConnectionOptions.isAlive */
  isAlive?: () => boolean;
}

export interface ConnectionServer {
  server: McpServer;
  connection: McpConnection;
  /** connect to a transport; heartbeats on every incoming message */
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  /** resolves once the connection has closed (by either side) and detached from its sessions */
  closed: Promise<void>;
}

export function createMcpServer(manager: SessionManagerApi, opts: McpServerOptions): ConnectionServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      // loading a group registers several tools at once: one notification for them all
      debouncedNotificationMethods: ['notifications/tools/list_changed'],
      instructions: SERVER_INSTRUCTIONS,
    },
  );
  let ordinal: number | undefined;
  const label = () => {
    const name = server.server.getClientVersion()?.name;
    if (name === undefined) return `MCP client unknown (${opts.transport})`;
    // two clients with the same name get distinct labels: "x (http)", "x #2 (http)"
    ordinal ??= (labelsInUse.get(name) ?? 0) + 1;
    labelsInUse.set(name, Math.max(ordinal, labelsInUse.get(name) ?? 0));
    return `MCP client ${name}${ordinal > 1 ? ` #${ordinal}` : ''} (${opts.transport})`;
  };
  const connection = new McpConnection(manager, {
    label,
    heartbeatMs: opts.heartbeatMs,
    isAlive: opts.isAlive,
    // session notices reach the client at once, not only with its next reply
    notify: (text, level) =>
      void server.server.sendLoggingMessage({ level, logger: 'retro-debug', data: text }).catch(() => undefined),
  });
  const ctx: ToolContext = {
    manager,
    connection,
    outputDir: opts.outputDir,
    launchPolicy: opts.launchPolicy,
    roots: async () => [...(opts.roots?.() ?? []), ...(await clientRoots())],
    groups: () => catalog.groups(),
    filesWritten: [],
  };
  for (const tool of catalogTools) registerToolDef(server, tool, ctx);
  registerResources(server, manager);
  registerFileResources(server, ctx, () => ctx.filesWritten ?? []);
  const defs = new Map([...catalogTools, ...opts.groups.flatMap((g) => g.tools)].map((t) => [t.name, t]));
  const unadvertised = (name: string) => defs.get(name)?.unadvertised;
  const catalog = new ConnectionCatalog(server, ctx, opts.profile ?? 'full', opts.groups);
  ctx.catalog = catalog;
  // The client's declared roots (file: URIs), asked once and again after roots/list_changed.
  let declared: Promise<string[]> | undefined;
  const clientRoots = (): Promise<string[]> => {
    if (!server.server.getClientCapabilities()?.roots) return Promise.resolve([]);
    declared ??= server.server
      .listRoots(undefined, { timeout: 5000 })
      .then((r) => r.roots.filter((root) => root.uri.startsWith('file:')).map((root) => fileURLToPath(root.uri)))
      .catch(() => {
        declared = undefined; // ask again next time
        return [];
      });
    return declared;
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    declared = undefined;
  });
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  server.server.onclose = () => {
    connection.close();
    markClosed();
  };

  return {
    server,
    connection,
    async connect(transport) {
      await server.connect(transport);
      const send = transport.send.bind(transport);
      transport.send = (message, options) =>
        send(
          asInvalidParams(explainUnknownTool(compactToolList(message, unadvertised), () => catalog.groups())),
          options,
        );
      const deliver = transport.onmessage;
      transport.onmessage = (message, extra) => {
        connection.heartbeat();
        deliver?.(message, extra);
      };
    },
    async close() {
      connection.close();
      await server.close();
      markClosed();
    },
    closed,
  };
}
