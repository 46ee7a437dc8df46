/**
 * reset (group `c`, the default profile) and the snapshot slots save_state / load_state (group `state`): the
 * session does the work (session/session-lifecycle.ts); slots are files `snapshots/<slot>.rdsnap` under the output
 * folder, named by a short plain word so no slot name reaches outside it.
 */
import * as z from 'zod/v4';
import { badRequest } from '../../core/errors.js';
import { resolveOutputPath } from '../../core/files.js';
import { sha256 } from './memory-export.js';
import { runControl, runOutput } from './c.js';
import { DEFAULT_WAIT_MS } from '../run-control.js';
import { generationInput, locationSchema, sessionIdInput, stopSchema } from '../schemas.js';
import { defineTool, type ToolDef } from '../tool-kit.js';
import { readToolFile, writeOutputToolFile } from '../tool-files.js';

/** Loses the machine's state (reset, load_state): the class of vice_reset and stop_session. */
const RESETS = { readOnly: false, destructive: true, idempotent: false, openWorld: false } as const;
const SLOT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** a snapshot is the machine's state: MAME's and VICE's are well under this */
const MAX_SNAPSHOT_FILE = 64 * 1024 * 1024;
const RELOAD_WAIT_MS = 50_000;

const reset = defineTool({
  name: 'reset',
  title: 'Reset',
  description: 'Restart; breakpoints kept.',
  input: {
    session_id: sessionIdInput,
    kind: z.enum(['soft', 'hard', 'reload']).default('reload').describe('soft/hard: runs on; reload: stops at main'),
    generation: generationInput,
  },
  // soft/hard answer the running state; reload the stop at main
  output: { stop: stopSchema.optional(), location: locationSchema.optional() },
  annotations: RESETS,
  async run(args, ctx) {
    const reload = args.kind === 'reload';
    const timeout_ms = reload ? RELOAD_WAIT_MS : DEFAULT_WAIT_MS;
    const done = await runControl(ctx, { ...args, wait: reload, timeout_ms }, (me, o) => me.reset(args.kind, o));
    const { stop, location } = done.data;
    return { ...done, data: { stop, location } };
  },
});

function slotFile(slot: string): string {
  if (!SLOT.test(slot))
    throw badRequest(
      `A slot is a name of 1-64 letters, digits, "_" or "-" (starting with a letter or digit), not ${JSON.stringify(slot.slice(0, 80))}.`,
      { slot: slot.slice(0, 80) },
    );
  return `snapshots/${slot}.rdsnap`;
}

const slotInput = z.string().describe('slot name: letters, digits, _ or -');

const saveState = defineTool({
  name: 'save_state',
  title: 'Save a snapshot',
  description: "Save the stopped machine's whole state in a named slot (a file under the output folder).",
  input: {
    session_id: sessionIdInput,
    slot: slotInput,
    overwrite: z.boolean().default(false),
    generation: generationInput,
  },
  output: { slot: z.string(), file: z.string(), bytes: z.number().int(), sha256: z.string() },
  // reads the machine; the file it writes is new unless overwrite
  annotations: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  async run(args, ctx) {
    const me = ctx.connection.use(args.session_id);
    const name = slotFile(args.slot);
    const bytes = await me.saveState({ generation: args.generation });
    const file = await writeOutputToolFile(ctx, name, bytes, args.overwrite);
    const digest = sha256(bytes);
    return {
      session: me.session,
      data: { slot: args.slot, file, bytes: bytes.length, sha256: digest },
      summary: `Saved slot ${args.slot} (${bytes.length} bytes, sha256 ${digest.slice(0, 12)}…).`,
    };
  },
});

const loadState = defineTool({
  name: 'load_state',
  title: 'Load a snapshot',
  description:
    'Put a saved slot back (checked whole first: another machine, build or a damaged file is refused); bumps generation.',
  input: { session_id: sessionIdInput, slot: slotInput, generation: generationInput },
  output: runOutput,
  annotations: RESETS,
  async run(args, ctx) {
    const path = resolveOutputPath(ctx.outputDir, slotFile(args.slot));
    // read once the session could load it: a missing slot is not_found naming the file, on a machine that has snapshots
    const read = async () => (await readToolFile(ctx, path, { maxBytes: MAX_SNAPSHOT_FILE, what: 'snapshot' })).data;
    return runControl(ctx, { ...args, wait: true, timeout_ms: DEFAULT_WAIT_MS }, (c, o) => c.loadState(read, o));
  },
});

export const resetTools: ToolDef[] = [reset];
export const stateTools: ToolDef[] = [saveState, loadState];
