/**
 * What one MCP connection (an HTTP MCP session, or the stdio pipe) knows about
 * itself: the ClientRef it holds in each session it touched (attached lazily),
 * the heartbeat that keeps those alive while the connection is open, and the
 * detach on close that releases its lease and breakpoints.
 */
import type { ClientKind, ClientRef, SessionApi, SessionManagerApi } from '../session/types.js';
import { RetroError } from '../core/errors.js';

/** Which client started each session, across every connection of this process. */
const starters = new WeakMap<SessionApi, string>();

export function isStarter(session: SessionApi, clientId: string): boolean {
  return starters.get(session) === clientId;
}

export interface ConnectionOptions {
  /** shown to people in refusals; a function because the client's name arrives with initialize */
  label: () => string;
  /** 'mcp' for MCP connections; the CLI demo drives the same tools as 'cli' */
  kind?: ClientKind;
  /** heartbeat period while the connection is open (default 5000 ms) */
  heartbeatMs?: number;
  /**
   * Whether the peer still shows life between requests (HTTP: an open event
   * stream). Without it a silent client's lease and breakpoints lapse, so an
   * agent that vanished does not hold the machine. Default: always (stdio,
   * where the pipe's life is the client's).
   */
  isAlive?: () => boolean;
}

export class McpConnection {
  private readonly clients = new Map<string, { session: SessionApi; client: ClientRef }>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly manager: SessionManagerApi,
    private readonly opts: ConnectionOptions,
  ) {
    this.timer = setInterval(
      () => {
        if (opts.isAlive?.() ?? true) this.heartbeat();
      },
      opts.heartbeatMs ?? Math.min(5000, manager.leaseMs / 4),
    );
    this.timer.unref();
  }

  get label(): string {
    return this.opts.label();
  }
  get kind(): ClientKind {
    return this.opts.kind ?? 'mcp';
  }

  /** The session a tool names (or the default one) and this connection's client in it. */
  use(sessionId?: string): { session: SessionApi; client: ClientRef } {
    if (this.closed) throw new RetroError('internal', 'This MCP connection is closed.');
    const session = this.manager.get(sessionId);
    let entry = this.clients.get(session.id);
    if (!entry || entry.session !== session) {
      entry = { session, client: session.attachClient(this.kind, this.label) };
      this.clients.set(session.id, entry);
    }
    session.heartbeat(entry.client.id);
    return entry;
  }

  /** Record a session this connection just started, with the starter client the manager made. */
  adopt(session: SessionApi, client: ClientRef): void {
    starters.set(session, client.id);
    this.clients.set(session.id, { session, client });
  }

  /** The client id this connection has in a session, if it touched it. */
  clientIdIn(session: SessionApi): string | undefined {
    const entry = this.clients.get(session.id);
    return entry?.session === session ? entry.client.id : undefined;
  }

  /** Keep every touched session's view of us alive; forget sessions that are gone. */
  heartbeat(): void {
    for (const [id, { session, client }] of this.clients) {
      if (!this.manager.list().includes(session)) {
        this.clients.delete(id);
        continue;
      }
      try {
        session.heartbeat(client.id);
      } catch {
        this.clients.delete(id);
      }
    }
  }

  /** Detach from every session: the lease and this client's breakpoints go away. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const { session, client } of this.clients.values()) {
      try {
        session.detachClient(client.id);
      } catch {
        /* session already gone */
      }
    }
    this.clients.clear();
  }
}
