import { noLease } from '../core/errors.js';
import type { ClientRef } from './types.js';

/**
 * The exclusive raw lease: the control-lease holder's explicit opt-in to run
 * unvetted emulator console commands. It never outlives the control lease:
 * `holder()` is only valid while the same client holds control.
 */
export class RawLease {
  private owner?: ClientRef;

  grant(client: ClientRef): void {
    this.owner = client;
  }

  release(clientId: string): boolean {
    if (this.owner?.id !== clientId) return false;
    this.owner = undefined;
    return true;
  }

  /** Drops the raw lease when control moved to someone else. */
  syncWithControl(controlHolderId: string | undefined): void {
    if (this.owner && this.owner.id !== controlHolderId) this.owner = undefined;
  }

  holder(): ClientRef | undefined {
    return this.owner;
  }

  require(client: ClientRef): void {
    if (this.owner?.id !== client.id) {
      throw noLease(
        client,
        'the exclusive raw lease',
        'console commands outside the read-only set need it (claim_raw_lease, after claim_control)',
      );
    }
  }
}
