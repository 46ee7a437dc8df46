/**
 * The debug adapter over TCP on 127.0.0.1: one RetroDebugSession per
 * connection, all sharing one SessionManager (the CLI's `serve` command,
 * VS Code's "debugServer" option, and tests that attach to a session an
 * agent started).
 */
import { createServer, type Socket } from 'node:net';
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
}

export async function serveDap(
  manager: SessionManagerApi,
  port = 0,
  options: DapServeOptions = {},
): Promise<DapServer> {
  const connections = new Map<Socket, RetroDebugSession>();
  const server = createServer((socket) => {
    // another user of the machine gets nothing, not even initialize
    if (fromOtherUser(socket)) return void socket.destroy();
    const adapter = new RetroDebugSession(manager, options);
    connections.set(socket, adapter);
    socket.on('error', () => void adapter.end());
    socket.on('close', () => connections.delete(socket));
    // After disconnect the client may keep the socket; end our side once the response went out.
    void adapter.closed.then(() => setImmediate(() => socket.end()));
    adapter.start(options.token ? gateDap(socket, options.token) : socket, socket);
  });
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
