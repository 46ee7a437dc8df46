/** What every mame-* tool starts with: the session, this client, and the target's 'mame-raw' feature. */
import type { MameRaw } from '../mame-raw.js';
import { MAME_RAW_FEATURE } from '../mame-raw.js';
import type { ClientRef, SessionApi } from '../../../session/types.js';
import type { ToolContext } from '../../../mcp/tool-kit.js';

export function useMame(
  ctx: ToolContext,
  sessionId?: string,
): { session: SessionApi; client: ClientRef; raw: MameRaw } {
  const { session, client } = ctx.connection.use(sessionId);
  return { session, client, raw: session.feature<MameRaw>(MAME_RAW_FEATURE) };
}
