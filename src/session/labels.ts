/**
 * A session's label database: names for CPU addresses that front ends show
 * (disassembly, Variables view, hovers, read_memory). Labels come from symbol
 * profiles and text definitions; they are not part of the program's debug
 * info and survive resets. Applying is all-or-nothing: a plan is computed
 * first and conflicts under policy "error" change nothing. Re-applying the
 * same labels is a no-op.
 */
import { badRequest, tooLarge, badAddress } from '../core/errors.js';

export interface Label {
  name: string;
  /** CPU logical address */
  address: number;
  /** bytes covered (1 for a register) */
  size: number;
  comment?: string;
  /** where it came from, e.g. "c64-profile@1.0.0" or "define_c64_text" */
  source: string;
}

export type ConflictPolicy = 'error' | 'skip' | 'replace';

export interface LabelConflict {
  label: Label;
  existing: Label;
  reason: 'name_elsewhere' | 'address_named_otherwise';
}

export interface ApplyPlan {
  added: Label[];
  unchanged: Label[];
  replaced: { label: Label; previous: Label[] }[];
  skipped: LabelConflict[];
  conflicts: LabelConflict[];
  applied: boolean;
}

export const MAX_LABELS = 65536;
const ADDRESS_LIMIT = 2 ** 32;
const NAME = /^[A-Za-z_][A-Za-z0-9_.]{0,63}$/;

export class LabelTable {
  private readonly byName = new Map<string, Label>();
  private changeListeners: (() => void)[] = [];

  list(): Label[] {
    return [...this.byName.values()].sort((a, b) => a.address - b.address || a.name.localeCompare(b.name));
  }

  get(name: string): Label | undefined {
    return this.byName.get(name);
  }

  /** The label covering an address (exact start first, then the nearest one whose range covers it). */
  at(address: number): { label: Label; offset: number } | undefined {
    let best: Label | undefined;
    for (const l of this.byName.values()) {
      if (address < l.address || address >= l.address + l.size) continue;
      if (!best || l.address > best.address || (l.address === best.address && l.size < best.size)) best = l;
    }
    return best ? { label: best, offset: address - best.address } : undefined;
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.push(listener);
    return () => {
      this.changeListeners = this.changeListeners.filter((l) => l !== listener);
    };
  }

  /** Plans (dryRun) or applies labels under a conflict policy. */
  apply(labels: readonly Label[], policy: ConflictPolicy, dryRun: boolean): ApplyPlan {
    for (const l of labels) checkLabel(l);
    const plan: ApplyPlan = { added: [], unchanged: [], replaced: [], skipped: [], conflicts: [], applied: false };
    const incomingNames = new Set<string>();
    for (const label of labels) {
      if (incomingNames.has(label.name)) throw badRequest(`Label ${label.name} is given twice.`, { name: label.name });
      incomingNames.add(label.name);
      const same = this.byName.get(label.name);
      if (same && same.address === label.address && same.size === label.size) {
        plan.unchanged.push(label);
        continue;
      }
      const clashes: LabelConflict[] = [];
      if (same) clashes.push({ label, existing: same, reason: 'name_elsewhere' });
      for (const other of this.byName.values()) {
        if (
          other.name !== label.name &&
          other.address === label.address &&
          !labels.some((l) => l.name === other.name)
        ) {
          clashes.push({ label, existing: other, reason: 'address_named_otherwise' });
        }
      }
      if (!clashes.length) plan.added.push(label);
      else if (policy === 'error') plan.conflicts.push(...clashes);
      else if (policy === 'skip') plan.skipped.push(...clashes);
      else plan.replaced.push({ label, previous: clashes.map((c) => c.existing) });
    }
    if (dryRun || (policy === 'error' && plan.conflicts.length)) return plan;
    const total = this.byName.size + plan.added.length;
    if (total > MAX_LABELS) throw tooLarge(`A session holds at most ${MAX_LABELS} labels.`, { limit: MAX_LABELS });
    for (const { label, previous } of plan.replaced) {
      for (const p of previous) this.byName.delete(p.name);
      this.byName.set(label.name, label);
    }
    for (const label of plan.added) this.byName.set(label.name, label);
    plan.applied = true;
    if (plan.added.length || plan.replaced.length) for (const l of this.changeListeners) l();
    return plan;
  }
}

/** VICE monitor label file: one "al C:d020 .EXTCOL" line per label, in the order given. */
export function viceLabelFile(labels: readonly Label[]): string {
  return labels.map((l) => `al C:${l.address.toString(16).padStart(4, '0')} .${l.name}\n`).join('');
}

function checkLabel(l: Label): void {
  if (!NAME.test(l.name))
    throw badRequest(
      `"${l.name}" is not a label name: letters, digits, _ and . (up to 64), not starting with a digit.`,
    );
  if (!Number.isInteger(l.address) || l.address < 0 || l.address >= ADDRESS_LIMIT)
    throw badAddress(`Label ${l.name}: address ${l.address} is not a 32-bit CPU address.`);
  if (!Number.isInteger(l.size) || l.size < 1 || l.address + l.size > ADDRESS_LIMIT)
    throw badRequest(`Label ${l.name}: size ${l.size} is not positive or runs past the address space.`);
}
