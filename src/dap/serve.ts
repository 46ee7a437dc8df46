/**
 * The debug adapter over TCP on 127.0.0.1: one RetroDebugSession per
 * connection, all sharing one SessionManager (the CLI's `serve` command,
 * VS Code's "debugServer" option, and tests that attach to a session an
 * agent started).
 */
import { createServer, type Socket } from 'node:net';
import { ConnectionBudget } from '../core/connection-budget.js';
import { fromOtherUser } from '../core/peer.js';
import type { SessionManagerApi } from '../session/types.js';
import { gateDap } from './dap-gate.js';
import { RetroDebugSession, type RetroDebugSessionOptions } from './retro-debug-session.js';

export interface DapServer {
  port: number;
  /** Ends every connection (stopping emulators their clients launched) and stops listening. */
  close(): Promise<void>;
}

export interface DapServeOptions extends RetroDebugSessionOptions {
  /** require this secret in launch/attach arguments (dapToken) and DAP framing from the first byte (see dap-gate.ts) */
  token?: string;
  /** with a token: connections not yet past launch/attach with it, at most (the oldest closed; default 16) */
  maxUnauthenticated?: number;
  /** and each is closed after this long (default 10 s) */
  unauthenticatedMs?: number;
}

/** Authenticated debug connections at once (each a VS Code debug session). */
const MAX_AUTHENTICATED = 64;

export async function serveDap(
  manager: SessionManagerApi,
  port = 0,
  options: DapServeOptions = {},
): Promise<DapServer> {
  const connections = new Map<Socket, RetroDebugSession>();
  const budget = options.token
    ? new ConnectionBudget({
        maxAuthenticated: MAX_AUTHENTICATED,
        maxUnauthenticated: options.maxUnauthenticated ?? 16,
        unauthenticatedMs: options.unauthenticatedMs ?? 10_000,
      })
    : undefined;
  const server = createServer((socket) => {
    // another user of the machine gets nothing, not even initialize
    if (fromOtherUser(socket)) return void socket.destroy();
    // tokenless connections have a small budget and a deadline of their own (memory before auth stays bounded)
    budget?.admit(socket);
    const adapter = new RetroDebugSession(manager, options);
    connections.set(socket, adapter);
    socket.on('error', () => void adapter.end());
    socket.on('close', () => {
      connections.delete(socket);
      void adapter.end();
    });
    // After disconnect the client may keep the socket; end our side once the response went out.
    void adapter.closed.then(() => setImmediate(() => socket.end()));
    const opened = () => {
      if (!budget?.authenticate(socket)) socket.destroy();
    };
    adapter.start(options.token ? gateDap(socket, options.token, undefined, opened) : socket, socket);
  });
  server.maxConnections = budget?.hardLimit ?? MAX_AUTHENTICATED;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('DAP server has no TCP address');
  return {
    port: address.port,
    async close(): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...connections.values()].map((a) => a.end()));
      for (const socket of connections.keys()) socket.destroy();
      await closed;
    },
  };
}
