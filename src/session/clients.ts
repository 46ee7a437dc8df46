import { randomUUID } from 'node:crypto';
import { RetroError } from '../core/errors.js';
import type { ClientKind, ClientRef } from './types.js';

interface ClientEntry {
  ref: ClientRef;
  lastBeat: number;
}

/**
 * The clients attached to one session and their liveness. A client that
 * stops heartbeating for `timeoutMs` is reported by `expired()` so the
 * session can remove what it owns.
 */
export class ClientRegistry {
  private readonly clients = new Map<string, ClientEntry>();

  constructor(
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  attach(kind: ClientKind, label: string): ClientRef {
    const ref: ClientRef = { id: `${kind}-${randomUUID().slice(0, 8)}`, kind, label };
    this.clients.set(ref.id, { ref, lastBeat: this.now() });
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

  /** Clients whose heartbeat is older than the timeout. */
  expired(): ClientRef[] {
    const limit = this.now() - this.timeoutMs;
    return [...this.clients.values()].filter((c) => c.lastBeat < limit).map((c) => c.ref);
  }

  private require(id: string): ClientEntry {
    const entry = this.clients.get(id);
    if (!entry)
      throw new RetroError(
        'not_found',
        `No client ${id} is attached to this session (it may have expired after missing heartbeats).`,
        { client_id: id },
      );
    return entry;
  }
}
