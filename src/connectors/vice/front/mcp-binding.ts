/** Which session's VICE connector an MCP connection is bound to (vice_connect / vice_disconnect). */
import { noSession, incompatibleTarget } from '../../../core/errors.js';
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

/** The bound session (or the one named), with its VICE connector. */
export function boundVice(ctx: ToolContext, sessionId?: string): BoundVice {
  const id = sessionId ?? bindings.get(ctx.connection);
  if (!id) throw noSession('No VICE is bound to this connection; call vice_connect first.');
  const client = ctx.connection.use(id);
  const { session } = client;
  let vice: ViceFeature;
  try {
    vice = session.feature(VICE_FEATURE);
  } catch {
    throw incompatibleTarget(`Session ${session.id} is not a VICE (or built-in C64) session.`, {
      session_id: session.id,
    });
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
