import { notOwner, notFound, tooLarge } from '../core/errors.js';
import type { Address, TargetBreakpoints } from '../core/target.js';
import type { BreakpointChange, BreakpointInfo, ClientRef } from './types.js';
import { StepGate } from './step-gate.js';
import { BreakpointChangeLog } from './breakpoint-changes.js';

interface Armed {
  targetId: number;
  users: Set<number>;
  /** the condition the emulator holds: every user's native condition (or guard) joined by `||`; none: it always stops */
  condition?: string;
}

/**
 * Session-level breakpoints: each has an owner and a stable id. Several
 * breakpoints at the same address share one emulator breakpoint, so
 * removing one owner's never disarms another's. When every breakpoint at an
 * address has a condition compiled to the emulator's language
 * (`native_condition`, or the compiled guard of a host-side `&&`:
 * `native_guard`), the emulator breakpoint carries their `||` and a false
 * one never stops the CPU; which of them held is decided on the host
 * (bp-hits.ts), unless the condition is one breakpoint's whole one alone.
 */
/** per session, all owners together: each is an emulator breakpoint (or shares one) and is tested at its hits */
export const MAX_BREAKPOINTS = 256;

/** Console verbs that change the emulator's breakpoints (MAME bp*, VICE break/del/enable/disable/until). */
const RAW_BREAKPOINT_COMMAND = /^(bp|break|del|delete|disable|enable|until)/i;

export class BreakpointTable {
  private nextId = 1;
  private readonly byId = new Map<number, BreakpointInfo>();
  private readonly armed = new Map<string, Armed>();
  /** a breakpoint being armed, before it is listed */
  private readonly pending = new Map<number, BreakpointInfo>();

  /** a line step in flight holds the emulator's breakpoints still (step-gate.ts) */
  readonly stepGate = new StepGate();
  private readonly changeLog = new BreakpointChangeLog();

  /** `announce`: what changed, once each change (added, removed, or moved to the host) is complete */
  constructor(
    private readonly target: () => TargetBreakpoints,
    private readonly announce: (changes: BreakpointChange[]) => void = () => undefined,
  ) {}

  private flush(): void {
    const changes = this.changeLog.take((id) => this.byId.get(id));
    if (changes.length) this.announce(changes);
  }

  /** The next id of a breakpoint or a watchpoint: one numbering, so clear_breakpoint {id} names either. */
  allocateId(): number {
    return this.nextId++;
  }

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
    if (this.byId.size + this.pending.size >= MAX_BREAKPOINTS)
      throw tooLarge(
        `A session holds at most ${MAX_BREAKPOINTS} breakpoints (all clients together); clear some first (list_breakpoints).`,
        { max: MAX_BREAKPOINTS },
      );
    const bp: BreakpointInfo = { ...fields, id: this.allocateId(), owner, hit_count: 0 };
    this.pending.set(bp.id, bp);
    try {
      if (bp.address && bp.verified) await this.arm(bp.id, bp.address);
      this.byId.set(bp.id, bp);
      this.changeLog.note(bp.id, 'added', owner);
    } finally {
      this.pending.delete(bp.id);
      this.flush();
    }
    return { ...bp };
  }

  async remove(clientId: string, id: number): Promise<void> {
    const bp = this.get(id);
    if (bp.owner.id !== clientId) {
      throw notOwner('Breakpoint', id, bp.owner);
    }
    try {
      await this.drop(bp);
    } finally {
      this.flush();
    }
  }

  /** Removes everything a client owns (it detached or expired); returns the ids. */
  async removeOwnedBy(clientId: string): Promise<number[]> {
    const mine = this.ownedBy(clientId);
    try {
      for (const bp of mine) await this.drop(bp);
    } finally {
      this.flush();
    }
    return mine.map((b) => b.id);
  }

  /**
   * The breakpoint whose own native condition alone made the emulator stop with `targetId` (no host test needed),
   * or its guard alone (the host tests only the rest of its `&&`).
   */
  provenBy(targetId: number | undefined): number | undefined {
    if (targetId === undefined) return undefined;
    for (const armed of this.armed.values()) {
      if (armed.targetId !== targetId || armed.condition === undefined || armed.users.size !== 1) continue;
      const [id] = armed.users;
      const bp = this.byId.get(id);
      return bp && (bp.native_condition ?? bp.native_guard) === armed.condition ? id : undefined;
    }
    return undefined;
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

  /**
   * After a lifecycle event (hard reset, a raw console breakpoint command): the emulator holds exactly one
   * breakpoint per armed address again. Each old one is cleared first (MAME and the C64 keep theirs over a hard
   * reset: armed again on top, each address stopped twice and the extra copy's stop named no breakpoint; one a raw
   * `bpclear` removed is already gone), all before any is set, so a new id can never be cleared as an old one.
   */
  rearmAll(): Promise<void> {
    const next = this.settling.then(() => this.rearmNow());
    this.settling = next.catch(() => undefined);
    return next;
  }

  /** A raw bpclear, bpdisable, del … may have removed one the session lists: arm them again, once each. */
  async afterRawCommand(verb: string): Promise<void> {
    if (RAW_BREAKPOINT_COMMAND.test(verb)) await this.rearmAll();
  }

  /** Resolves once the re-arming under way (if any) is done. */
  settled(): Promise<void> {
    return this.settling;
  }

  private settling: Promise<void> = Promise.resolve();

  private rearmNow(): Promise<void> {
    return this.exclusive(() => this.rearmEntries()).finally(() => this.flush());
  }

  /** one change of the emulator's breakpoints at a time, each after a line step in flight lets it (step-gate.ts) */
  private exclusive<T>(change: () => Promise<T>): Promise<T> {
    const next = this.changes.then(() => this.stepGate.wait()).then(change);
    this.changes = next.catch(() => undefined);
    return next;
  }

  private changes: Promise<unknown> = Promise.resolve();

  private async rearmEntries(): Promise<void> {
    const entries = [...this.armed.entries()];
    this.armed.clear();
    for (const [, armed] of entries)
      await this.target()
        .clear(armed.targetId)
        .catch(() => undefined);
    for (const [key, armed] of entries) await this.arrange(key, armed.users, undefined);
  }

  private key(address: Address): string {
    return `${address.space}:${address.bank ?? ''}:${address.offset}`;
  }

  /** Adds `id` to its address's emulator breakpoint (arranged again when the joint condition changes). */
  private arm(id: number, address: Address): Promise<void> {
    return this.exclusive(async () => {
      const key = this.key(address);
      const existing = this.armed.get(key);
      await this.arrange(key, new Set([...(existing?.users ?? []), id]), existing, address);
    });
  }

  private async drop(bp: BreakpointInfo): Promise<void> {
    this.byId.delete(bp.id);
    this.changeLog.note(bp.id, 'removed', bp.owner);
    const address = bp.address;
    if (!address) return;
    await this.exclusive(async () => {
      const key = this.key(address);
      const armed = this.armed.get(key);
      if (!armed) return;
      armed.users.delete(bp.id);
      await this.arrange(key, armed.users, armed);
    });
  }

  /**
   * Makes the emulator breakpoint at `key` fit `users`: none when empty; else
   * with their joint native condition, or unconditional when one has none
   * (or the emulator refused the joint text: then the host decides alone).
   */
  private async arrange(key: string, users: Set<number>, existing: Armed | undefined, at?: Address): Promise<void> {
    const bps = [...users].map((id) => this.byId.get(id) ?? this.pending.get(id)).filter((b) => b !== undefined);
    const address = at ?? bps[0]?.address;
    // a host-side condition's guard filters in the emulator too; the session tests the rest at its hits (provenBy)
    const natives = bps.map((b) => b.native_condition ?? b.native_guard);
    const condition = natives.every((n) => n !== undefined) && natives.length ? joinAny(natives) : undefined;
    if (existing && existing.condition === condition && users.size) {
      existing.users = users;
      return;
    }
    if (existing) {
      this.armed.delete(key);
      await this.target().clear(existing.targetId);
    }
    if (!users.size || !address) return;
    let targetId: number;
    let held = condition;
    try {
      targetId = await this.target().set(address, condition);
      if (condition !== undefined) for (const b of bps) this.noteRefusal(b, undefined);
    } catch (err) {
      if (condition === undefined) throw err;
      held = undefined;
      targetId = await this.target().set(address);
      const reason = `the emulator refused the compiled condition (${(err as Error).message})`;
      for (const b of bps) if (b.native_condition) this.noteRefusal(b, reason);
    }
    this.armed.set(key, { targetId, users, condition: held });
  }

  private noteRefusal(b: BreakpointInfo, reason: string | undefined): void {
    const before = [b.message, b.condition_host];
    noteRefusal(b, reason);
    if (b.message !== before[0] || b.condition_host !== before[1]) this.changeLog.note(b.id, 'changed', b.owner);
  }
}

/** One condition true when any is: parenthesized, as VICE evaluates strictly left to right. */
function joinAny(conditions: string[]): string {
  return conditions.length === 1 ? conditions[0] : conditions.map((c) => `(${c})`).join(' || ');
}

const REFUSED = 'The debugger evaluates the condition at each hit: ';

/**
 * A compiled condition the emulator refused falls back to the session's evaluation at each hit: the breakpoint
 * says so (condition_host, and its message, which front ends show); `reason` undefined: it holds again.
 */
function noteRefusal(b: BreakpointInfo, reason: string | undefined): void {
  const at = b.message?.indexOf(REFUSED) ?? -1;
  const before = (at >= 0 ? b.message!.slice(0, at) : b.message)?.trimEnd() || undefined;
  if (reason === undefined) {
    if (b.condition_host?.startsWith('the emulator refused')) delete b.condition_host;
    if (before === undefined) delete b.message;
    else b.message = before;
    return;
  }
  b.condition_host = reason;
  b.message = `${before ? `${before} ` : ''}${REFUSED}${reason}.`;
}
