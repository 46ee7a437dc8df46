import type { QueuedEvent, SessionEvent } from './types.js';

/**
 * Bounded queue of session events with sequence numbers, so polling clients
 * (MCP wait tools) can ask "what happened since seq N" and learn when they
 * fell behind instead of silently missing events.
 */
export class EventQueue {
  private readonly events: QueuedEvent[] = [];
  private readonly listeners = new Set<(e: QueuedEvent) => void>();
  private seq = 0;

  constructor(private readonly capacity = 256) {}

  push(event: SessionEvent): QueuedEvent {
    const queued: QueuedEvent = { seq: ++this.seq, time: Date.now(), event };
    this.events.push(queued);
    if (this.events.length > this.capacity) this.events.shift();
    for (const listener of [...this.listeners]) {
      try {
        listener(queued);
      } catch {
        /* a failing listener must not break the session */
      }
    }
    return queued;
  }

  subscribe(listener: (e: QueuedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  since(seq: number): { events: QueuedEvent[]; dropped: boolean; last_seq: number } {
    const events = this.events.filter((e) => e.seq > seq);
    const oldest = this.events[0]?.seq ?? this.seq + 1;
    return { events, dropped: seq + 1 < oldest && seq < this.seq, last_seq: this.seq };
  }
}
