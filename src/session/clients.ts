import { randomUUID } from 'node:crypto';
import { notFound } from '../core/errors.js';
import type { ClientKind, ClientRef } from './types.js';

interface ClientEntry {
  ref: ClientRef;
  lastBeat: number;
  /** false: attached until detached, however long it is silent */
  expires: boolean;
}

/**
 * The clients attached to one session and their liveness. A client that
 * stops heartbeating for `timeoutMs` is reported by `expired()` so the
 * session can remove what it owns — unless it was attached with
 * `expires: false`: then its front end detaches it when the client goes (an
 * MCP session deleted or evicted, a pipe or socket closed), and silence costs
 * it only the control lease (lease.ts), not its breakpoints.
 */
export class ClientRegistry {
  private readonly clients = new Map<string, ClientEntry>();

  constructor(
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  attach(kind: ClientKind, label: string, expires = true): ClientRef {
    const ref: ClientRef = { id: `${kind}-${randomUUID().slice(0, 8)}`, kind, label };
    this.clients.set(ref.id, { ref, lastBeat: this.now(), expires });
    return ref;
  }

  detach(id: string): ClientRef | undefined {
    const entry = this.clients.get(id);
    this.clients.delete(id);
    return entry?.ref;
  }

  beat(id: string): void {
    this.require(id).lastBeat = this.now();
  }

  get(id: string): ClientRef {
    return this.require(id).ref;
  }

  has(id: string): boolean {
    return this.clients.has(id);
  }

  /** Expiring clients whose heartbeat is older than the timeout. */
  expired(): ClientRef[] {
    const limit = this.now() - this.timeoutMs;
    return [...this.clients.values()].filter((c) => c.expires && c.lastBeat < limit).map((c) => c.ref);
  }

  private require(id: string): ClientEntry {
    const entry = this.clients.get(id);
    if (!entry)
      throw notFound(`No client ${id} is attached to this session (it may have expired after missing heartbeats).`, {
        client_id: id,
      });
    return entry;
  }
}
