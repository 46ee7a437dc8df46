/**
 * Catalog tools, always visible: what tool groups exist, searching tools by
 * words, and loading/unloading groups on this connection (tools/list_changed
 * follows). The start-up profile's groups stay loaded.
 */
import * as z from 'zod/v4';
import { RetroError } from '../../core/errors.js';
import { READ_ONLY, defineTool, type ToolContext, type ToolDef } from '../tool-kit.js';
import type { CatalogApi } from '../tool-catalog.js';

const groupName = z.string().min(1).max(64).describe('a group name from list_tool_groups, or "all"');

function catalogOf(ctx: ToolContext): CatalogApi {
  if (!ctx.catalog) throw new RetroError('unsupported', 'Tool groups can only be loaded on an MCP connection.');
  return ctx.catalog;
}

const listToolGroups = defineTool({
  name: 'list_tool_groups',
  title: 'List tool groups',
  description:
    'The tool groups this server offers, their tools, and whether each group is loaded on this connection (baseline: part of the start-up profile).',
  input: {},
  output: {
    profile: z.string().optional(),
    groups: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        tools: z.array(z.string()),
        loaded: z.boolean(),
        baseline: z.boolean().optional(),
      }),
    ),
  },
  annotations: READ_ONLY,
  async run(_args, ctx) {
    const groups = ctx.groups();
    return {
      data: { ...(ctx.catalog ? { profile: ctx.catalog.profile } : {}), groups },
      summary: groups
        .map((g) => `${g.name}${g.loaded ? (g.baseline ? ' (baseline)' : '') : ' (not loaded)'}: ${g.tools.join(', ')}`)
        .join('\n'),
    };
  },
});

const searchTools = defineTool({
  name: 'search_tools',
  title: 'Search tools',
  description:
    "Find tools in every group (loaded or not) by words in their names and descriptions; load_tool_group makes a group's tools callable.",
  input: { query: z.string().min(1).max(200), limit: z.number().int().min(1).max(50).default(10) },
  output: {
    tools: z.array(
      z.object({
        name: z.string(),
        title: z.string(),
        group: z.string(),
        loaded: z.boolean(),
        description: z.string(),
        score: z.number(),
      }),
    ),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const tools = catalogOf(ctx).search(args.query, args.limit);
    return {
      data: { tools },
      summary: tools.length
        ? tools.map((t) => `${t.name} [${t.group}${t.loaded ? '' : ', not loaded'}]`).join(', ')
        : 'no tools match',
    };
  },
});

/** load_tool_group and unload_tool_group: the same shape, opposite catalog calls. */
function groupChanger(kind: 'load' | 'unload', description: string): ToolDef {
  const done = kind === 'load' ? 'loaded' : 'unloaded';
  return defineTool({
    name: `${kind}_tool_group`,
    title: kind === 'load' ? 'Load tool group' : 'Unload tool group',
    description,
    input: { group: groupName },
    output: { [done]: z.array(z.string()), visible_groups: z.array(z.string()) },
    annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
    async run(args, ctx) {
      const catalog = catalogOf(ctx);
      const changed = kind === 'load' ? catalog.load(args.group) : catalog.unload(args.group);
      const visible = catalog
        .groups()
        .filter((g) => g.loaded)
        .map((g) => g.name);
      return {
        data: { [done]: changed, visible_groups: visible },
        summary: changed.length
          ? `${done} ${changed.join(', ')}`
          : `${args.group} was already ${kind === 'load' ? 'loaded' : 'not loaded'}`,
      };
    },
  });
}

const loadToolGroup = groupChanger(
  'load',
  'Make a group\'s tools (or "all") visible on this connection; the server sends tools/list_changed.',
);
const unloadToolGroup = groupChanger(
  'unload',
  'Hide a group loaded after start-up (or "all" such groups); the profile\'s baseline groups stay, and the full profile unloads nothing.',
);

export const catalogTools: ToolDef[] = [listToolGroups, searchTools, loadToolGroup, unloadToolGroup];
