import { notOwner, badRequest, notFound } from '../core/errors.js';
import type { StopInfo, TargetWatch } from '../core/target.js';
import type { CType } from '../debuginfo/model.js';
import type { ClientRef, SessionWatchSpec, WatchpointInfo } from './types.js';

/** A watchpoint as the session keeps it: the bytes last seen, to tell old → new and whether they changed. */
export interface WatchRecord extends WatchpointInfo {
  targetId: number;
  ctype?: CType;
  last?: Uint8Array;
}

/**
 * Session-level watchpoints: each has an owner and a stable id, and maps to
 * one emulator watchpoint. Only the owner removes it; a departed owner's go
 * with it (the session's dropClient path).
 */
export class WatchpointTable {
  private readonly byId = new Map<number, WatchRecord>();

  /** `nextId`: shared with the breakpoints (one numbering for both) */
  constructor(
    private readonly target: () => TargetWatch,
    private readonly nextId: () => number,
  ) {}

  has(id: number): boolean {
    return this.byId.has(id);
  }

  list(): WatchpointInfo[] {
    return [...this.byId.values()].map(({ targetId: _t, ctype: _c, last: _l, ...w }) => ({
      ...w,
      address: { ...w.address },
      last_hit: w.last_hit && { ...w.last_hit },
    }));
  }

  /** `initial`: the watched bytes now (undefined when they could not be read: the first hit then counts as a change). */
  async add(owner: ClientRef, spec: SessionWatchSpec, initial?: Uint8Array): Promise<WatchpointInfo> {
    const target = this.target();
    if (!Number.isInteger(spec.length) || spec.length < 1 || spec.length > 0x10000) {
      throw badRequest(`A watchpoint covers 1..65536 bytes, not ${spec.length}.`);
    }
    if (spec.changeOnly && spec.kind === 'read') throw badRequest('A read does not change a value: watch writes.');
    const { expression, ctype, changeOnly, ...emulator } = spec;
    const targetId = await target.set(emulator);
    const wp: WatchRecord = {
      id: this.nextId(),
      owner,
      ...emulator,
      ...(expression ? { expression } : {}),
      change_only: !!changeOnly,
      hit_count: 0,
      targetId,
      ctype,
      last: initial,
    };
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

  /** The watchpoints behind the emulator watchpoint that fired. */
  firing(stop: StopInfo): WatchRecord[] {
    return [...this.byId.values()].filter((w) => w.targetId === stop.watchpointId);
  }

  /** Records a hit that stops: counted, with where and what it accessed. */
  counted(wp: WatchRecord, stop: StopInfo, accessPc: number | undefined): void {
    wp.hit_count++;
    const a = stop.access;
    wp.last_hit = { pc: stop.pc, access_pc: accessPc, access: a?.kind, address: a?.address, value: a?.value };
  }

  /** After the session wrote memory itself: the bytes a watch compares against are the new ones. */
  overlapping(from: number, length: number): WatchRecord[] {
    return [...this.byId.values()].filter(
      (w) => w.address.space === 'cpu' && w.address.offset < from + length && from < w.address.offset + w.length,
    );
  }

  private async drop(wp: WatchRecord): Promise<void> {
    this.byId.delete(wp.id);
    await this.target().clear(wp.targetId);
  }
}
