/**
 * The C64 symbol profile: get_c64_symbol_profile (group c64_static) returns
 * the bundled profile; apply_c64_symbol_profile (group c64) applies it to a
 * session's labels or exports a VICE label file; list_c64_labels shows them.
 */
import * as z from 'zod/v4';
import { badRequest } from '../../core/errors.js';
import { viceLabelFile, type Label } from '../../session/labels.js';
import { C64_PROFILE_SHA256, C64_SYMBOL_PROFILE, profileSymbols } from '../../machines/c64/symbol-profile.js';
import { writeOutputToolFile } from '../tool-files.js';
import { generationInput, sessionIdInput } from '../schemas.js';
import { READ_ONLY, defineTool, type ToolDef } from '../tool-kit.js';
import { applyLabels, conflictInputs, labelPlanOutput, labelsOf } from './c64-labels.js';
import { hex } from '../../core/hex.js';

const GROUP_IDS = C64_SYMBOL_PROFILE.groups.map((g) => g.id);
const groupsInput = z
  .array(z.string())
  .max(GROUP_IDS.length)
  .optional()
  .describe(`symbol groups to use (default all): ${GROUP_IDS.join(', ')}`);

function chosenGroups(groups?: string[]): string[] | undefined {
  const unknown = groups?.filter((g) => !GROUP_IDS.includes(g)) ?? [];
  if (unknown.length)
    throw badRequest(`Unknown symbol group(s) ${unknown.join(', ')}; the profile has ${GROUP_IDS.join(', ')}.`);
  return groups;
}

const profileLabels = (groups?: string[]): Label[] =>
  profileSymbols(chosenGroups(groups)).map((s) => ({
    name: s.name,
    address: s.address,
    size: s.size,
    comment: s.comment,
    source: `c64-profile@${C64_SYMBOL_PROFILE.version}`,
  }));

const getProfile = defineTool({
  name: 'get_c64_symbol_profile',
  title: 'Get C64 symbol profile',
  description:
    'The bundled, versioned C64 platform symbols (6510 port, VIC-II, SID, CIAs, colour RAM, KERNAL jump table, vectors, workspace) ' +
    'and value-only equates for control bits, each group with its Commodore source.',
  input: { groups: groupsInput, include_equates: z.boolean().default(true) },
  output: {
    format: z.string(),
    version: z.string(),
    sha256: z.string(),
    address_space: z.string(),
    groups: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        source: z.string(),
        symbols: z.array(
          z.object({
            name: z.string(),
            address: z.number().int(),
            address_hex: z.string(),
            size: z.number().int(),
            comment: z.string(),
          }),
        ),
      }),
    ),
    equates: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        source: z.string(),
        values: z.array(
          z.object({ name: z.string(), value: z.number().int(), register: z.string(), comment: z.string() }),
        ),
      }),
    ),
  },
  annotations: READ_ONLY,
  async run(args) {
    const wanted = chosenGroups(args.groups);
    const groups = C64_SYMBOL_PROFILE.groups
      .filter((g) => !wanted || wanted.includes(g.id))
      .map((g) => ({ ...g, symbols: g.symbols.map((s) => ({ ...s, address_hex: hex(s.address) })) }));
    const equates = args.include_equates ? C64_SYMBOL_PROFILE.equates : [];
    const p = C64_SYMBOL_PROFILE;
    return {
      data: {
        format: p.format,
        version: p.version,
        sha256: C64_PROFILE_SHA256,
        address_space: p.address_space,
        groups,
        equates,
      },
      summary: `C64 symbol profile ${p.version}: ${groups.map((g) => `${g.id} (${g.symbols.length})`).join(', ')}; ${equates.reduce((n, e) => n + e.values.length, 0)} equates`,
    };
  },
});

const applyProfile = defineTool({
  name: 'apply_c64_symbol_profile',
  title: 'Apply C64 symbol profile',
  description:
    "Apply the bundled C64 symbols to a session's labels (shown in read_memory, disassembly, variables and hovers), or export them as a " +
    'VICE label file (target vice_label_file + output_path). dry_run defaults to true; conflict_policy defaults to error; re-applying is a no-op.',
  input: {
    target: z.enum(['session', 'vice_label_file']).default('session'),
    groups: groupsInput,
    output_path: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('VICE label file to write (relative to the output folder)'),
    overwrite: z.boolean().default(false),
    ...conflictInputs,
    session_id: sessionIdInput,
    generation: generationInput,
  },
  output: { ...labelPlanOutput, version: z.string(), labels: z.number().int(), path: z.string().optional() },
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run(args, ctx) {
    const labels = profileLabels(args.groups);
    const version = C64_SYMBOL_PROFILE.version;
    if (args.target === 'vice_label_file') {
      if (!args.output_path) throw badRequest('target vice_label_file needs output_path.');
      const text = viceLabelFile(labels);
      const path = args.dry_run
        ? undefined
        : await writeOutputToolFile(ctx, args.output_path, Buffer.from(text), args.overwrite);
      return {
        data: {
          dry_run: args.dry_run,
          applied: !args.dry_run,
          added: labels.length,
          unchanged: 0,
          replaced: 0,
          skipped: 0,
          conflicts: [],
          version,
          labels: labels.length,
          path,
        },
        summary: args.dry_run
          ? `would write ${labels.length} VICE labels to ${args.output_path}`
          : `wrote ${labels.length} VICE labels to ${path}`,
      };
    }
    const { session } = ctx.connection.use(args.session_id);
    session.assertGeneration(args.generation);
    const result = applyLabels(session, labels, args);
    return {
      session,
      data: { ...result.data, version, labels: labels.length },
      summary: `C64 profile ${version}: ${result.summary}`,
    };
  },
});

const listLabels = defineTool({
  name: 'list_c64_labels',
  title: 'List session labels',
  description:
    'The labels a session holds (from apply_c64_symbol_profile and define_c64_text), optionally only those in an address range or matching a name.',
  input: {
    session_id: sessionIdInput,
    from: z.number().int().min(0).optional(),
    to: z.number().int().min(0).optional(),
    name_contains: z.string().max(64).optional(),
    limit: z.number().int().min(1).max(5000).default(500),
  },
  output: {
    labels: z.array(
      z.object({
        name: z.string(),
        address: z.number().int(),
        address_hex: z.string(),
        size: z.number().int(),
        comment: z.string().optional(),
        source: z.string(),
      }),
    ),
    total: z.number().int(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const { session } = ctx.connection.use(args.session_id);
    const needle = args.name_contains?.toLowerCase();
    const all = labelsOf(session)
      .list()
      .filter(
        (l) =>
          (args.from === undefined || l.address >= args.from) &&
          (args.to === undefined || l.address <= args.to) &&
          (!needle || l.name.toLowerCase().includes(needle)),
      );
    const labels = all.slice(0, args.limit).map((l) => ({ ...l, address_hex: hex(l.address) }));
    return {
      session,
      data: { labels, total: all.length },
      summary: `${all.length} labels${all.length > labels.length ? ` (first ${labels.length} shown)` : ''}`,
    };
  },
});

export const c64SymbolStaticTools: ToolDef[] = [getProfile];
export const c64SymbolLiveTools: ToolDef[] = [applyProfile, listLabels];
