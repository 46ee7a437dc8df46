import { leaseHeld, noLease } from '../core/errors.js';
import type { ClientRef, LeaseInfo } from './types.js';

/**
 * The control lease: one client at a time may change the machine's state.
 * It lapses when its holder shows no life for `timeoutMs` (a short timer,
 * separate from what the client owns); taking it from a live holder must be
 * asked for explicitly. `onLapse` hears of every lapse, whichever call found it.
 */
export class ControlLease {
  private holder?: ClientRef;
  private lastBeat = 0;

  constructor(
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
    private readonly onLapse: (holder: ClientRef) => void = () => undefined,
  ) {}

  info(): LeaseInfo | undefined {
    this.expireIfStale();
    if (!this.holder) return undefined;
    return { holder: this.holder, expires_in_ms: Math.max(0, this.lastBeat + this.timeoutMs - this.now()) };
  }

  claim(client: ClientRef, takeOver = false): LeaseInfo {
    this.expireIfStale();
    if (this.holder && this.holder.id !== client.id && !takeOver) throw leaseHeld(this.holder);
    this.holder = client;
    this.lastBeat = this.now();
    return this.info()!;
  }

  release(clientId: string): boolean {
    if (this.holder?.id !== clientId) return false;
    this.holder = undefined;
    return true;
  }

  beat(clientId: string): void {
    // a beat after the lapse is too late: the lease is gone, not revived
    this.expireIfStale();
    if (this.holder?.id === clientId) this.lastBeat = this.now();
  }

  /** Throws unless `client` holds the lease. */
  require(client: ClientRef): void {
    this.expireIfStale();
    if (!this.holder) {
      throw noLease(client);
    }
    if (this.holder.id !== client.id) throw leaseHeld(this.holder);
  }

  /** The holder that lapsed since the last look, if one did (and clears it). */
  expireIfStale(): ClientRef | undefined {
    if (this.holder && this.now() - this.lastBeat > this.timeoutMs) {
      const lapsed = this.holder;
      this.holder = undefined;
      this.onLapse(lapsed);
      return lapsed;
    }
    return undefined;
  }

  get timeout(): number {
    return this.timeoutMs;
  }
}
