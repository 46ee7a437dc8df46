/** What every mame-* tool starts with: the session, this client, and the target's 'mame-raw' feature. */
import type { MameRaw } from '../mame-raw.js';
import { MAME_RAW_FEATURE } from '../mame-raw.js';
import type { ClientSession } from '../../../session/client-session.js';
import type { SessionApi } from '../../../session/types.js';
import type { ToolContext } from '../../../mcp/tool-kit.js';

export function useMame(
  ctx: ToolContext,
  sessionId?: string,
): { session: SessionApi; client: ClientSession; raw: MameRaw } {
  const client = ctx.connection.use(sessionId);
  const { session } = client;
  return { session, client, raw: session.feature(MAME_RAW_FEATURE) };
}
