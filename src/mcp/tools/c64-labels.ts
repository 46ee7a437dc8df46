/**
 * Shared by the tools that add labels to a session (apply_c64_symbol_profile,
 * define_c64_text): the dry-run / conflict-policy inputs, the plan output,
 * and applying through the session's label table.
 */
import * as z from 'zod/v4';
import type { SessionApi } from '../../session/types.js';
import { unsupported, badRequest } from '../../core/errors.js';
import type { ApplyPlan, ConflictPolicy, Label } from '../../session/labels.js';
import { hex } from '../../core/hex.js';

export const conflictInputs = {
  dry_run: z.boolean().default(true).describe('only report what would change (default true)'),
  conflict_policy: z
    .enum(['error', 'skip', 'replace'])
    .default('error')
    .describe(
      'an existing label with the same name elsewhere, or another name at the same address: error (nothing applied), skip, or replace',
    ),
};

const labelOut = z.object({
  name: z.string(),
  address: z.number().int(),
  address_hex: z.string(),
  size: z.number().int(),
});
export const labelPlanOutput = {
  dry_run: z.boolean(),
  applied: z.boolean(),
  added: z.number().int(),
  unchanged: z.number().int(),
  replaced: z.number().int(),
  skipped: z.number().int(),
  conflicts: z
    .array(z.object({ label: labelOut, existing: labelOut, reason: z.string() }))
    .describe('at most 100 listed'),
};

const out = (l: Label) => ({ name: l.name, address: l.address, address_hex: hex(l.address), size: l.size });

export function labelsOf(session: SessionApi) {
  if (!session.labels) throw unsupported('This session has no label table.');
  return session.labels;
}

export function planData(plan: ApplyPlan, dryRun: boolean) {
  return {
    dry_run: dryRun,
    applied: plan.applied,
    added: plan.added.length,
    unchanged: plan.unchanged.length,
    replaced: plan.replaced.length,
    skipped: plan.skipped.length,
    conflicts: plan.conflicts
      .slice(0, 100)
      .map((c) => ({ label: out(c.label), existing: out(c.existing), reason: c.reason })),
  };
}

/** Plans or applies; a conflict under policy error is an error result naming the first clashes. */
export function applyLabels(
  session: SessionApi,
  labels: Label[],
  args: { dry_run: boolean; conflict_policy: ConflictPolicy },
) {
  const plan = labelsOf(session).apply(labels, args.conflict_policy, args.dry_run);
  if (!args.dry_run && plan.conflicts.length) {
    const first = plan.conflicts
      .slice(0, 3)
      .map(
        (c) =>
          `${c.label.name} at ${hex(c.label.address)} vs existing ${c.existing.name} at ${hex(c.existing.address)}`,
      );
    throw badRequest(
      `${plan.conflicts.length} label conflict(s), nothing applied: ${first.join('; ')}. Choose conflict_policy skip or replace.`,
      { conflicts: plan.conflicts.length },
    );
  }
  const verb = args.dry_run ? 'would add' : 'added';
  return {
    data: planData(plan, args.dry_run),
    summary: `${verb} ${plan.added.length}, unchanged ${plan.unchanged.length}, replaced ${plan.replaced.length}, skipped ${plan.skipped.length}, conflicts ${plan.conflicts.length}`,
  };
}
