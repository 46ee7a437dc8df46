/**
 * The breakpoint changes not yet announced, one entry per breakpoint (its net change): clients are told what
 * changed, never sent the whole list again, so an event costs what changed whatever the list holds.
 */
import type { BreakpointChange, BreakpointInfo, ClientRef } from './types.js';

type Kind = BreakpointChange['change'];

export class BreakpointChangeLog {
  private readonly unannounced = new Map<number, { change: Kind; owner: ClientRef }>();

  note(id: number, change: Kind, owner: ClientRef): void {
    const before = this.unannounced.get(id)?.change;
    // added then removed before anyone heard of it: nothing happened
    if (before === 'added' && change === 'removed') this.unannounced.delete(id);
    else if (before !== 'added') this.unannounced.set(id, { change, owner });
  }

  /** The changes since the last take, oldest first; added and changed carry the breakpoint as it is now. */
  take(current: (id: number) => BreakpointInfo | undefined): BreakpointChange[] {
    const out: BreakpointChange[] = [];
    for (const [id, { change, owner }] of this.unannounced) {
      if (change === 'removed') {
        out.push({ change, id, owner });
        continue;
      }
      const bp = current(id);
      if (bp) out.push({ change, id, owner, breakpoint: { ...bp } });
    }
    this.unannounced.clear();
    return out;
  }
}
