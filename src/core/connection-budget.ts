/**
 * TCP connections of a door (MCP over HTTP, serve's DAP port), in two budgets. A connection is unauthenticated until a request on it
 * passed the token check: such ones get a small budget of their own (the oldest is closed to make room for a new
 * one) and a short deadline, so a same-user process without the token cannot hold the slots the real clients need
 * (issue 30: 128 tokenless connections locked the real client out for 30-90 s). Authenticated ones have the big
 * budget; past it a request is refused.
 */
import type { Socket } from 'node:net';

export interface ConnectionBudgetOptions {
  maxAuthenticated: number;
  maxUnauthenticated: number;
  /** an unauthenticated connection is closed after this long */
  unauthenticatedMs: number;
}

export class ConnectionBudget {
  /** insertion-ordered: the first is the oldest */
  private readonly unauthenticated = new Map<Socket, NodeJS.Timeout>();
  private readonly authenticated = new Set<Socket>();

  constructor(private readonly opts: ConnectionBudgetOptions) {}

  /** Every TCP connection Node could ever hold at once under these budgets. */
  get hardLimit(): number {
    return this.opts.maxAuthenticated + this.opts.maxUnauthenticated + 1;
  }

  /** A new connection: unauthenticated, on its deadline; the oldest unauthenticated one makes room. */
  admit(socket: Socket): void {
    if (this.unauthenticated.size >= this.opts.maxUnauthenticated) {
      const [oldest] = this.unauthenticated.keys();
      this.forget(oldest);
      oldest.destroy();
    }
    const timer = setTimeout(() => socket.destroy(), this.opts.unauthenticatedMs);
    timer.unref();
    this.unauthenticated.set(socket, timer);
    socket.once('close', () => this.forget(socket));
  }

  /** A request on `socket` passed the token check: false when the authenticated budget is full. */
  authenticate(socket: Socket): boolean {
    if (this.authenticated.has(socket)) return true;
    if (this.authenticated.size >= this.opts.maxAuthenticated) return false;
    clearTimeout(this.unauthenticated.get(socket));
    this.unauthenticated.delete(socket);
    this.authenticated.add(socket);
    return true;
  }

  counts(): { authenticated: number; unauthenticated: number } {
    return { authenticated: this.authenticated.size, unauthenticated: this.unauthenticated.size };
  }

  private forget(socket: Socket): void {
    clearTimeout(this.unauthenticated.get(socket));
    this.unauthenticated.delete(socket);
    this.authenticated.delete(socket);
  }
}
