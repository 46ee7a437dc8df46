/**
 * MCP over Streamable HTTP on 127.0.0.1: bearer token, loopback Host/Origin
 * checks, no CORS; stateful transport, one McpServer (and one McpConnection)
 * per MCP session. Unknown session ids get 404 so clients re-initialize.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fromOtherUser } from '../core/peer.js';
import type { Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { privateOutputDir } from '../core/files.js';
import type { SessionManagerApi } from '../session/types.js';
import type { LaunchPolicy } from '../session/launch-policy.js';
import { PROFILES, isProfile, type Profile } from './groups.js';
import { ConnectionBudget } from '../core/connection-budget.js';
import { checkRequest } from './http-guard.js';
import { handleWithReplyMode, replyModePerRequest } from './json-replies.js';
import { createMcpServer, type ConnectionServer } from './server.js';
import type { ToolGroup } from './tool-kit.js';

export const MCP_PATH = '/mcp';

export interface HttpMcpOptions {
  manager: SessionManagerApi;
  /** 0 or absent: a random free port */
  port?: number;
  /** bearer token; absent: a fresh 256-bit one */
  token?: string;
  /** where relative screenshot paths go (default: the private per-user output folder) */
  outputDir?: string;
  /** see McpServerOptions.roots */
  roots?: () => readonly string[];
  /** see ToolContext.launchPolicy */
  launchPolicy?: LaunchPolicy;
  profile?: Profile;
  /** see McpServerOptions.groups */
  groups: readonly ToolGroup[];
  heartbeatMs?: number;
  /** MCP sessions kept at once; the least recently used is closed beyond this (default 32) */
  maxSessions?: number;
  /** an MCP session with no request and no open stream for this long is closed (default 30 min) */
  idleMs?: number;
  /**
   * an MCP session whose last event stream closed and that sent no request since is closed after this long
   * (default: the lease time): its client went (a killed client's stream ends; a live one reopens it at once)
   */
  streamGoneMs?: number;
  /** authenticated TCP connections at once; a request on one more is refused (default 128, or 4 per MCP session) */
  maxConnections?: number;
  /** connections that sent no authenticated request yet: at most this many (the oldest closed; default 16) */
  maxUnauthenticated?: number;
  /** and each is closed after this long without one (default 5 s) */
  unauthenticatedMs?: number;
  /** request body limit (default 1 MiB) */
  maxBodyBytes?: number;
}

export interface HttpMcpServer {
  url: string;
  port: number;
  token: string;
  /** live MCP sessions (for tests and status displays) */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Entry {
  cs: ConnectionServer;
  transport: StreamableHTTPServerTransport;
  lastActive: number;
  streams: number;
  /** requests seen: a request after the stream closed shows the client is still there */
  requests: number;
  /** requests under way (a long tool call is work, not idleness) */
  inFlight: number;
  /** closeIfGone's wait, cleared when the session closes (it holds the entry: every closed session for its grace) */
  goneTimer?: NodeJS.Timeout;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  rpcCode: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: rpcCode, message }, id: null }));
}

async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, -32600, `Request body exceeds ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, -32700, 'Parse error: the body is not JSON.');
  }
}

const isInitialize = (body: unknown) =>
  Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);

export async function startHttpMcpServer(opts: HttpMcpOptions): Promise<HttpMcpServer> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const outputDir = opts.outputDir ?? privateOutputDir();
  const maxSessions = opts.maxSessions ?? 32;
  const idleMs = opts.idleMs ?? 30 * 60_000;
  const streamGoneMs = opts.streamGoneMs ?? opts.manager.leaseMs;
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const sessions = new Map<string, Entry>();
  const evictIdleMs = opts.manager.leaseMs;
  const budget = new ConnectionBudget({
    // each MCP session holds its event stream and a few POSTs at once: 50 agents needed ~150
    maxAuthenticated: opts.maxConnections ?? Math.max(128, 4 * maxSessions),
    maxUnauthenticated: opts.maxUnauthenticated ?? 16,
    unauthenticatedMs: opts.unauthenticatedMs ?? 5000,
  });

  /**
   * Closes the least recently used idle MCP session: no open stream, no request under way, and none for the lease
   * time. A client at work is never evicted, however many there are: the new session is refused instead.
   */
  function evictLeastRecentlyUsed(): void {
    let oldest: [string, Entry] | undefined;
    const idleSince = Date.now() - evictIdleMs;
    for (const item of sessions) {
      const e = item[1];
      if (
        e.streams === 0 &&
        e.inFlight === 0 &&
        e.lastActive <= idleSince &&
        (!oldest || e.lastActive < oldest[1].lastActive)
      )
        oldest = item;
    }
    if (!oldest)
      throw new HttpError(
        503,
        -32000,
        `All ${sessions.size} MCP sessions are in use (an open stream or a request within ${evictIdleMs / 1000} s); close one and retry.`,
      );
    sessions.delete(oldest[0]);
    void oldest[1].cs.close();
  }

  /**
   * The last stream of a session closed: unless the client shows itself again within streamGoneMs (a request,
   * a new stream), it went, and its MCP session (with the breakpoints its client owns) is closed.
   */
  function closeIfGone(sid: string, entry: Entry): void {
    if (sessions.get(sid) !== entry) return; // closed already (its stream ends after a DELETE)
    const seen = entry.requests;
    clearTimeout(entry.goneTimer);
    entry.goneTimer = setTimeout(() => {
      if (entry.streams > 0 || entry.requests !== seen || sessions.get(sid) !== entry) return;
      sessions.delete(sid);
      void entry.cs.close();
    }, streamGoneMs).unref();
  }

  async function openSession(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    profile: Profile | undefined,
  ): Promise<void> {
    if (sessions.size >= maxSessions) evictLeastRecentlyUsed();
    // between requests, an open event stream is the only sign that the client still lives
    const cs = createMcpServer(opts.manager, {
      transport: 'http',
      outputDir,
      roots: opts.roots,
      launchPolicy: opts.launchPolicy,
      profile: profile ?? opts.profile,
      groups: opts.groups,
      heartbeatMs: opts.heartbeatMs,
      isAlive: () => entry.streams > 0,
    });
    const entry: Entry = { cs, transport: undefined!, lastActive: Date.now(), streams: 0, requests: 0, inFlight: 0 };
    entry.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, entry);
      },
    });
    void cs.closed.then(() => {
      clearTimeout(entry.goneTimer);
      if (entry.transport.sessionId) sessions.delete(entry.transport.sessionId);
    });
    replyModePerRequest(entry.transport);
    await cs.connect(entry.transport);
    await handleWithReplyMode(body, () => entry.transport.handleRequest(req, res, body));
    if (!entry.transport.sessionId) await cs.close(); // initialize was refused: nothing to keep
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = checkRequest(req.headers, token);
    if (!verdict.ok) {
      // the body is never read: close the connection after the answer, so a slow body cannot hold it
      res.setHeader('Connection', 'close');
      res.once('finish', () => req.socket.destroy());
      sendJsonRpcError(
        res,
        verdict.status,
        -32001,
        verdict.message,
        verdict.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
      );
      return;
    }
    if (!budget.authenticate(req.socket)) {
      res.setHeader('Connection', 'close');
      sendJsonRpcError(res, 503, -32000, 'Too many connections: close one and retry.');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== MCP_PATH) {
      sendJsonRpcError(res, 404, -32601, `Not found: the MCP endpoint is ${MCP_PATH}.`);
      return;
    }
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const entry = sessions.get(sid);
      if (!entry) {
        sendJsonRpcError(res, 404, -32001, 'Session not found: initialize a new MCP session.');
        return;
      }
      entry.lastActive = Date.now();
      entry.requests++;
      entry.cs.connection.heartbeat(); // any request is a sign of life (a GET or DELETE too, not only messages)
      entry.inFlight++;
      res.once('close', () => {
        entry.inFlight--;
        entry.lastActive = Date.now();
      });
      const body = req.method === 'POST' ? await readJsonBody(req, maxBody) : undefined;
      if (req.method === 'GET') {
        entry.streams++;
        res.on('close', () => {
          entry.streams--;
          entry.lastActive = Date.now();
          if (entry.streams === 0) closeIfGone(sid, entry);
        });
      }
      await handleWithReplyMode(body, () => entry.transport.handleRequest(req, res, body));
      return;
    }
    if (req.method !== 'POST') {
      sendJsonRpcError(res, 400, -32000, 'Bad request: no Mcp-Session-Id header; POST initialize first.');
      return;
    }
    const body = await readJsonBody(req, maxBody);
    if (!isInitialize(body)) {
      sendJsonRpcError(
        res,
        400,
        -32000,
        'Bad request: no Mcp-Session-Id header; the first request must be initialize.',
      );
      return;
    }
    // ?profile= chooses this connection's tool groups, for clients that never refresh their tool list
    const profile = url.searchParams.get('profile') ?? undefined;
    if (profile !== undefined && !isProfile(profile)) {
      sendJsonRpcError(
        res,
        400,
        -32602,
        `Unknown tool profile "${profile.slice(0, 40)}": use one of ${Object.keys(PROFILES).join(', ')}.`,
      );
      return;
    }
    await openSession(req, res, body, profile);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) sendJsonRpcError(res, err.status, err.rpcCode, err.message);
      else sendJsonRpcError(res, 500, -32603, `Internal error: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  server.maxConnections = budget.hardLimit;
  // another user of this machine gets nothing, not even a 401 (and cannot use a token it got hold of)
  server.on('connection', (socket: Socket) => {
    if (fromOtherUser(socket)) socket.destroy();
    else budget.admit(socket);
  });
  server.requestTimeout = 0; // SSE streams stay open; idle sessions are swept below instead
  // Outlive the client's idle keep-alive (undici: 4 s) so the client closes first;
  // with Node's 5 s default a reused socket could be reset under load (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, entry] of sessions) {
        if (entry.streams === 0 && now - entry.lastActive > idleMs) {
          sessions.delete(id);
          void entry.cs.close();
        }
      }
    },
    Math.min(60_000, idleMs),
  );
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    token,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((e) => e.cs.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
