import type { ClientRef, HeldInputInfo } from './types.js';

interface Held extends HeldInputInfo {
  release: () => Promise<void>;
}

/**
 * Who holds which input right now (a held key, a key sequence being typed).
 * Bounded; a departed owner's inputs are released; a stop forgets them all,
 * because the emulator side released them already.
 */
export class InputQueue {
  static readonly MAX_HELD = 64;
  private nextId = 1;
  private readonly held = new Map<number, Held>();

  list(): HeldInputInfo[] {
    return [...this.held.values()].map(({ release: _r, ...h }) => ({ ...h }));
  }

  /** Returns the id; `release` undoes it in the emulator. */
  track(owner: ClientRef, what: string, release: () => Promise<void>): number {
    if (this.held.size >= InputQueue.MAX_HELD) {
      // the oldest entry is the least likely to still be live; forgetting it keeps the table bounded
      this.held.delete(this.held.keys().next().value as number);
    }
    const id = this.nextId++;
    this.held.set(id, { id, owner, what, since: Date.now(), release });
    return id;
  }

  /** The input finished or was released by its owner. */
  untrack(id: number): void {
    this.held.delete(id);
  }

  /** Releases what `clientId` holds (disconnect, expiry, losing the lease); returns the ids. */
  async releaseOwnedBy(clientId: string): Promise<number[]> {
    const mine = [...this.held.values()].filter((h) => h.owner.id === clientId);
    for (const h of mine) {
      this.held.delete(h.id);
      await h.release().catch(() => undefined);
    }
    return mine.map((h) => h.id);
  }

  /** The CPU stopped: the emulator side let go of everything already. */
  forgetAll(): void {
    this.held.clear();
  }
}
