import { notOwner, badRequest, notFound } from '../core/errors.js';
import type { StopInfo, TargetWatch, WatchSpec } from '../core/target.js';
import type { ClientRef, WatchpointInfo } from './types.js';

/**
 * Session-level watchpoints: each has an owner and a stable id, and maps to
 * one emulator watchpoint. Only the owner removes it; a departed owner's go
 * with it (the session's dropClient path).
 */
export class WatchpointTable {
  private nextId = 1;
  private readonly byId = new Map<number, WatchpointInfo & { targetId: number }>();

  constructor(private readonly target: () => TargetWatch) {}

  list(): WatchpointInfo[] {
    return [...this.byId.values()].map(({ targetId: _t, ...w }) => ({
      ...w,
      address: { ...w.address },
      last_hit: w.last_hit && { ...w.last_hit },
    }));
  }

  async add(owner: ClientRef, spec: WatchSpec): Promise<WatchpointInfo> {
    const target = this.target();
    if (!Number.isInteger(spec.length) || spec.length < 1 || spec.length > 0x10000) {
      throw badRequest(`A watchpoint covers 1..65536 bytes, not ${spec.length}.`);
    }
    const targetId = await target.set(spec);
    const wp = { id: this.nextId++, owner, ...spec, hit_count: 0, targetId };
    this.byId.set(wp.id, wp);
    return this.list().find((w) => w.id === wp.id)!;
  }

  async remove(clientId: string, id: number): Promise<void> {
    const wp = this.byId.get(id);
    if (!wp) throw notFound(`There is no watchpoint ${id}.`, { id });
    if (wp.owner.id !== clientId) {
      throw notOwner('Watchpoint', id, wp.owner);
    }
    await this.drop(wp);
  }

  async removeOwnedBy(clientId: string): Promise<number[]> {
    const mine = [...this.byId.values()].filter((w) => w.owner.id === clientId);
    for (const wp of mine) await this.drop(wp);
    return mine.map((w) => w.id);
  }

  /** Session ids behind the emulator watchpoint that fired; counts and records the hit. */
  hit(stop: StopInfo): number[] {
    const ids: number[] = [];
    for (const wp of this.byId.values()) {
      if (wp.targetId !== stop.watchpointId) continue;
      wp.hit_count++;
      const a = stop.access;
      wp.last_hit = { pc: stop.pc, access_pc: a?.pc, access: a?.kind, address: a?.address, value: a?.value };
      ids.push(wp.id);
    }
    return ids;
  }

  private async drop(wp: WatchpointInfo & { targetId: number }): Promise<void> {
    this.byId.delete(wp.id);
    await this.target().clear(wp.targetId);
  }
}
