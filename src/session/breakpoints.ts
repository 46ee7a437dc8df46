import { notOwner, notFound } from '../core/errors.js';
import type { Address, TargetBreakpoints } from '../core/target.js';
import type { BreakpointInfo, ClientRef } from './types.js';

interface Armed {
  targetId: number;
  users: Set<number>;
}

/**
 * Session-level breakpoints: each has an owner and a stable id. Several
 * breakpoints at the same address share one emulator breakpoint, so
 * removing one owner's never disarms another's.
 */
export class BreakpointTable {
  private nextId = 1;
  private readonly byId = new Map<number, BreakpointInfo>();
  private readonly armed = new Map<string, Armed>();

  constructor(private readonly target: () => TargetBreakpoints) {}

  list(): BreakpointInfo[] {
    return [...this.byId.values()].map((b) => ({ ...b }));
  }

  get(id: number): BreakpointInfo {
    const bp = this.byId.get(id);
    if (!bp) throw notFound(`There is no breakpoint ${id}.`, { id });
    return bp;
  }

  ownedBy(clientId: string): BreakpointInfo[] {
    return this.list().filter((b) => b.owner.id === clientId);
  }

  /** Adds a breakpoint; arms it in the emulator when it has an address. */
  async add(owner: ClientRef, fields: Omit<BreakpointInfo, 'id' | 'owner' | 'hit_count'>): Promise<BreakpointInfo> {
    const bp: BreakpointInfo = { ...fields, id: this.nextId++, owner, hit_count: 0 };
    if (bp.address && bp.verified) await this.arm(bp.id, bp.address);
    this.byId.set(bp.id, bp);
    return { ...bp };
  }

  async remove(clientId: string, id: number): Promise<void> {
    const bp = this.get(id);
    if (bp.owner.id !== clientId) {
      throw notOwner('Breakpoint', id, bp.owner);
    }
    await this.drop(bp);
  }

  /** Removes everything a client owns (it detached or expired); returns the ids. */
  async removeOwnedBy(clientId: string): Promise<number[]> {
    const mine = this.ownedBy(clientId);
    for (const bp of mine) await this.drop(bp);
    return mine.map((b) => b.id);
  }

  /** Session breakpoint ids behind an emulator breakpoint id; counts the hit unless `count` is false. */
  hit(targetId: number | undefined, pc: number, count = true): number[] {
    const ids = new Set<number>();
    for (const armed of this.armed.values()) {
      if (armed.targetId === targetId) armed.users.forEach((u) => ids.add(u));
    }
    if (ids.size === 0) {
      for (const bp of this.byId.values()) if (bp.address?.offset === pc && bp.verified) ids.add(bp.id);
    }
    if (count) for (const id of ids) this.countHit(id);
    return [...ids];
  }

  countHit(id: number): void {
    const bp = this.byId.get(id);
    if (bp) bp.hit_count++;
  }

  /** After the emulator lost its breakpoints (hard reset): arm them all again. */
  async rearmAll(): Promise<void> {
    const entries = [...this.armed.entries()];
    this.armed.clear();
    for (const [, armed] of entries) {
      for (const id of armed.users) {
        const bp = this.byId.get(id);
        if (bp?.address) await this.arm(id, bp.address);
      }
    }
  }

  private key(address: Address): string {
    return `${address.space}:${address.bank ?? ''}:${address.offset}`;
  }

  /** One emulator breakpoint per address, without a condition: C conditions are the session's (bp-logic.ts). */
  private async arm(id: number, address: Address): Promise<void> {
    const key = this.key(address);
    const existing = this.armed.get(key);
    if (existing) {
      existing.users.add(id);
      return;
    }
    const targetId = await this.target().set(address);
    this.armed.set(key, { targetId, users: new Set([id]) });
  }

  private async drop(bp: BreakpointInfo): Promise<void> {
    this.byId.delete(bp.id);
    if (!bp.address) return;
    const key = this.key(bp.address);
    const armed = this.armed.get(key);
    if (!armed) return;
    armed.users.delete(bp.id);
    if (armed.users.size === 0) {
      this.armed.delete(key);
      await this.target().clear(armed.targetId);
    }
  }
}
