/** Which session's VICE connector an MCP connection is bound to (vice_connect / vice_disconnect; else the default). */
import { RetroError, noSession, incompatibleTarget } from '../../../core/errors.js';
import type { ClientSession } from '../../../session/client-session.js';
import type { SessionApi } from '../../../session/types.js';
import type { ViceFeature } from '../vice-feature.js';
import { VICE_FEATURE } from '../vice-target.js';
import type { McpConnection } from '../../../mcp/connection.js';
import type { ToolContext } from '../../../mcp/tool-kit.js';

/** This MCP connection's binding to a session's VICE connector. */
const bindings = new WeakMap<McpConnection, string>();

export interface BoundVice {
  session: SessionApi;
  client: ClientSession;
  vice: ViceFeature;
}

/**
 * The session named, else the one vice_connect bound, else the connection's default session (its latest):
 * an agent with one C64 session (VICE or built-in) uses the vice_* tools without vice_connect.
 */
export function boundVice(ctx: ToolContext, sessionId?: string): BoundVice {
  const id = sessionId ?? bindings.get(ctx.connection);
  let client: ClientSession;
  try {
    client = ctx.connection.use(id);
  } catch (err) {
    if (id !== undefined || !(err instanceof RetroError) || err.code !== 'no_session') throw err;
    throw noSession(
      'No session to use: start one (start_session {machine: "c64"}) or attach to a running VICE with vice_connect {monitor}.',
    );
  }
  const { session } = client;
  let vice: ViceFeature;
  try {
    vice = session.feature(VICE_FEATURE);
  } catch (err) {
    if (!(err instanceof RetroError) || err.code !== 'unsupported') throw err; // ended, failed: said as such
    throw incompatibleTarget(
      `Session ${session.id}${id === undefined ? ' (the default one)' : ''} is not a VICE (or built-in C64) session; ` +
        'name a C64 session (session_id) or attach to a running VICE with vice_connect {monitor}.',
      { session_id: session.id },
    );
  }
  return { session, client, vice };
}

export function bindVice(connection: McpConnection, sessionId: string): void {
  bindings.set(connection, sessionId);
}

/** Drops the binding only; returns the session id it named. */
export function unbindVice(connection: McpConnection): string | null {
  const was = bindings.get(connection) ?? null;
  bindings.delete(connection);
  return was;
}
