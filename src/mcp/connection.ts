/**
 * What one MCP connection (an HTTP MCP session, or the stdio pipe) knows about
 * itself: its ClientSession handle in each session it touched (attached
 * lazily) and the detach on close that releases its lease and breakpoints.
 * The handles beat on their own while the connection shows life.
 */
import type { ClientKind, SessionApi, SessionManagerApi } from '../session/types.js';
import type { ClientSession } from '../session/client-session.js';
import { internalError } from '../core/errors.js';
import { watchHandle, type Notify } from './session-notices.js';
import { BreakpointInbox } from './breakpoint-inbox.js';

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
   * stream). Without it a silent client's lease lapses, so an agent that
   * vanished does not hold the machine; its breakpoints stay until this
   * connection closes. Default: always (stdio, where the pipe's life is the
   * client's).
   */
  isAlive?: () => boolean;
  /** session notices (session-notices.ts) as they happen: the MCP server sends them as logging notifications */
  notify?: Notify;
}

/** The most notices kept for the next reply (the oldest go first). */
const MAX_EVENTS = 20;

export class McpConnection {
  private readonly handles = new Map<string, ClientSession>();
  private readonly watching = new Map<ClientSession, () => void>();
  private readonly events: string[] = [];
  private readonly breakpointChanges = new BreakpointInbox();
  private closed = false;

  constructor(
    readonly manager: SessionManagerApi,
    private readonly opts: ConnectionOptions,
  ) {}

  get label(): string {
    return this.opts.label();
  }
  get kind(): ClientKind {
    return this.opts.kind ?? 'mcp';
  }

  /** How this connection's handles keep themselves alive (for starting a session). */
  get starter() {
    return {
      kind: this.kind,
      label: this.label,
      heartbeatMs: this.opts.heartbeatMs ?? Math.min(5000, this.manager.leaseMs / 4),
      isAlive: this.opts.isAlive,
      // what the client owns lives as long as this connection (close() detaches)
      closedByFrontEnd: true,
    };
  }

  /** What this client lost in any session since its last reply (lease lapsed or taken, dropped), once each. */
  takeLosses(): string[] {
    return [...this.handles.values()].flatMap((handle) => handle.takeLosses());
  }

  /** Notices since the last reply (stops by others, losses), once each. */
  takeEvents(): string[] {
    return this.events.splice(0);
  }

  /** Other clients' breakpoint changes since the last reply, once each. */
  takeBreakpointChanges(): ReturnType<BreakpointInbox['take']> {
    return this.breakpointChanges.take();
  }

  private watch(handle: ClientSession): void {
    if (this.watching.has(handle)) return;
    const offNotices = watchHandle(handle, (text, level) => {
      this.events.push(text);
      if (this.events.length > MAX_EVENTS) this.events.shift();
      this.opts.notify?.(text, level);
    });
    const offChanges = handle.session.onEvent(({ event }) => {
      if (event.type !== 'breakpoints_changed' || handle.closed) return;
      const text = this.breakpointChanges.add(handle, event);
      if (text) this.opts.notify?.(text, 'info');
    });
    this.watching.set(handle, () => {
      offNotices();
      offChanges();
    });
  }

  private unwatch(handle: ClientSession): void {
    this.watching.get(handle)?.();
    this.watching.delete(handle);
  }

  /** This connection's handle in the session a tool names (or the default one); the call counts as life. */
  use(sessionId?: string): ClientSession {
    if (this.closed) throw internalError('This MCP connection is closed.');
    const session = this.manager.get(sessionId);
    let handle = this.handles.get(session.id);
    if (!handle || handle.session !== session) {
      if (handle) this.unwatch(handle);
      handle = this.manager.attach(session.id, this.starter);
      this.handles.set(session.id, handle);
      this.watch(handle);
    }
    // a client the session dropped (silent too long) learns it here; the next heartbeat forgets it
    handle.beat();
    return handle;
  }

  /** Record a session this connection just started, with the starter handle the manager made. */
  adopt(handle: ClientSession): void {
    starters.set(handle.session, handle.id);
    this.handles.set(handle.session.id, handle);
    this.watch(handle);
  }

  /** The client id this connection has in a session, if it touched it. */
  clientIdIn(session: SessionApi): string | undefined {
    const handle = this.handles.get(session.id);
    return handle?.session === session && !handle.closed ? handle.id : undefined;
  }

  /** A request arrived: every touched session sees this client alive; forget sessions that are gone. */
  heartbeat(): void {
    for (const [id, handle] of this.handles) {
      if (this.manager.list().includes(handle.session) && this.beats(handle)) continue;
      handle.close();
      this.unwatch(handle);
      this.handles.delete(id);
    }
  }

  /** Detach from every session: the lease and this client's breakpoints go away. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const handle of this.handles.values()) {
      handle.close();
      this.unwatch(handle);
    }
    this.handles.clear();
  }

  /** False when the session dropped this client (expired after silence): it attaches anew on next use. */
  private beats(handle: ClientSession): boolean {
    try {
      handle.beat();
      return true;
    } catch {
      return false;
    }
  }
}
