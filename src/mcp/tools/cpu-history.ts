/**
 * cpu_history (the `history` group): the CPU's last instructions with their
 * C lines, read-only (VICE 3.10+'s CPU history; the built-in C64 answers it
 * from its recorded past). Runs of one C line are also given as `lines`, so
 * "what was the program doing" reads at a glance.
 */
import * as z from 'zod/v4';
import { hex } from '../../core/hex.js';
import { recentInstructions, type RecentInstruction } from '../../session/cpu-history.js';
import { describeLocation } from '../format.js';
import { locationSchema, sessionIdInput } from '../schemas.js';
import { READ_ONLY, defineTool } from '../tool-kit.js';

/** Consecutive instructions of one C line (or of code without one), oldest first. */
function lineRuns(list: RecentInstruction[]) {
  const runs: { location?: RecentInstruction['location']; first_cycle: number; instructions: number }[] = [];
  for (const ins of list) {
    const last = runs.at(-1);
    const same = last && last.location?.file === ins.location?.file && last.location?.line === ins.location?.line;
    if (same) last.instructions++;
    else runs.push({ location: ins.location, first_cycle: ins.cycle, instructions: 1 });
  }
  return runs;
}

export const cpuHistoryTool = defineTool({
  name: 'cpu_history',
  title: 'Recent instructions',
  description: 'Last instructions run, oldest first, with registers and C lines; read-only (VICE 3.10+, built-in C64).',
  input: {
    session_id: sessionIdInput,
    count: z.number().int().min(1).max(0xffff).optional().describe('default 32'),
  },
  output: {
    source: z.string(),
    instructions: z.array(
      z.object({
        cycle: z.number(),
        pc: z.number().int(),
        text: z.string(),
        a: z.number().int(),
        x: z.number().int(),
        y: z.number().int(),
        sp: z.number().int(),
        flags: z.number().int(),
        location: locationSchema.optional(),
      }),
    ),
    lines: z.array(
      z.object({ location: locationSchema.optional(), first_cycle: z.number(), instructions: z.number().int() }),
    ),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const { source, instructions: list } = await recentInstructions(session, args.count ?? 32);
    const instructions = list.map(({ bytes: _bytes, ...rest }) => rest);
    const runs = lineRuns(list);
    const tail = runs
      .slice(-3)
      .map((r) => `${describeLocation(r.location)} (${r.instructions})`)
      .join(' -> ');
    return {
      session,
      data: { source, instructions, lines: runs },
      summary: list.length
        ? `${list.length} instructions up to ${hex(list.at(-1)!.pc)}; last C lines: ${tail}.`
        : 'No instructions are recorded yet.',
    };
  },
});
