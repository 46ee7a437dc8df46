/**
 * HTTP replies without an event stream when none is needed: a POST whose
 * requests ask for no progress is answered as plain JSON (the SDK's
 * enableJsonResponse); one with a progress token keeps its stream, so the
 * progress notifications reach the client. The SDK reads the mode from one
 * transport field; here that field answers from the async context of the
 * POST being handled (every send for a request runs inside it, timers
 * included), so concurrent requests each keep their own mode. Notifications
 * not tied to a request (tools/list_changed, logging) use the GET stream and
 * never read the field.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const jsonMode = new AsyncLocalStorage<boolean>();

/** Makes `transport` choose JSON or a stream per POST (see handleWithReplyMode). */
export function replyModePerRequest(transport: StreamableHTTPServerTransport): void {
  // the SDK's Node transport wraps a web-standard one, which keeps the mode in this field and reads it while
  // handling and answering each request; a later SDK without them keeps streaming (the test notices)
  const inner = (transport as unknown as { _webStandardTransport?: Record<string, unknown> })._webStandardTransport;
  if (typeof inner?._enableJsonResponse !== 'boolean') return;
  Object.defineProperty(inner, '_enableJsonResponse', {
    configurable: true,
    get: () => jsonMode.getStore() ?? false,
    set: () => undefined,
  });
  forgetAnsweredJson(inner._streamMapping);
}

interface StreamEntry {
  resolveJson?: (response: Response) => void;
  cleanup: () => void;
}

/**
 * The SDK (1.32) keeps a JSON reply's stream entry, and with it the reply's text, until the MCP session ends: 2,000
 * reads of 64 KiB held 260 MB. Once answered, the entry goes, as an event stream's does when it ends.
 */
function forgetAnsweredJson(mapping: unknown): void {
  if (!(mapping instanceof Map)) return;
  const set = mapping.set.bind(mapping) as (id: string, entry: StreamEntry) => Map<string, StreamEntry>;
  mapping.set = (id: string, entry: StreamEntry) => {
    const resolve = entry.resolveJson;
    if (resolve)
      entry.resolveJson = (response) => {
        resolve(response);
        entry.cleanup();
      };
    return set(id, entry);
  };
}

/** Runs `handle` (transport.handleRequest for one POST) in the reply mode its body calls for. */
export function handleWithReplyMode<T>(body: unknown, handle: () => Promise<T>): Promise<T> {
  return jsonMode.run(needsNoStream(body), handle);
}

/** True unless a request in the body asks for progress (params._meta.progressToken). */
export function needsNoStream(body: unknown): boolean {
  if (body === undefined) return false; // a GET: its stream is the point
  const messages = Array.isArray(body) ? body : [body];
  return messages.every((m) => {
    const meta = (m as { method?: unknown; id?: unknown; params?: { _meta?: { progressToken?: unknown } } })?.params
      ?._meta;
    return meta?.progressToken === undefined;
  });
}
