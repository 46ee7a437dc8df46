/**
 * Catalog tools, always visible: what tool groups exist (and searching their
 * tools by words), and loading/unloading groups on this connection
 * (tools/list_changed follows). The start-up profile's groups stay loaded.
 */
import * as z from 'zod/v4';
import { unsupported } from '../../core/errors.js';
import { READ_ONLY, defineTool, type CatalogApi, type ToolContext, type ToolDef } from '../tool-kit.js';

const groupName = z.string().min(1).max(64).describe('group name, or "all"');

function catalogOf(ctx: ToolContext): CatalogApi {
  if (!ctx.catalog) throw unsupported('Tool groups can only be loaded on an MCP connection.');
  return ctx.catalog;
}

const toolMatch = z.object({
  name: z.string(),
  title: z.string(),
  group: z.string(),
  loaded: z.boolean(),
  description: z.string(),
  score: z.number(),
});

const listToolGroups = defineTool({
  name: 'list_tool_groups',
  title: 'List or search tool groups',
  description: 'Tool groups and which are loaded; with query, matching tools of every group.',
  input: {
    query: z.string().min(1).max(200).optional().describe('words to find tools by'),
    limit: z.number().int().min(1).max(50).default(10).describe('most tools found'),
  },
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
    tools: z.array(toolMatch).optional(),
  },
  annotations: READ_ONLY,
  async run(args, ctx) {
    const groups = ctx.groups();
    const profile = ctx.catalog ? { profile: ctx.catalog.profile } : {};
    if (args.query !== undefined) {
      const tools = catalogOf(ctx).search(args.query, args.limit);
      return {
        data: { ...profile, groups, tools },
        summary: tools.length
          ? tools.map((t) => `${t.name} [${t.group}${t.loaded ? '' : ', not loaded'}]`).join(', ')
          : 'no tools match',
      };
    }
    return {
      data: { ...profile, groups },
      summary: groups
        .map((g) => `${g.name}${g.loaded ? (g.baseline ? ' (baseline)' : '') : ' (not loaded)'}: ${g.tools.join(', ')}`)
        .join('\n'),
    };
  },
});

const loadToolGroup = defineTool({
  name: 'load_tool_group',
  title: 'Load or unload a tool group',
  description: "Make a group's tools callable, or hide one loaded later.",
  input: { group: groupName, unload: z.boolean().default(false).describe('hide it instead') },
  output: {
    loaded: z.array(z.string()).optional(),
    unloaded: z.array(z.string()).optional(),
    visible_groups: z.array(z.string()),
  },
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  async run(args, ctx) {
    const catalog = catalogOf(ctx);
    const changed = args.unload ? catalog.unload(args.group) : catalog.load(args.group);
    const done = args.unload ? 'unloaded' : 'loaded';
    const visible = catalog
      .groups()
      .filter((g) => g.loaded)
      .map((g) => g.name);
    return {
      data: { [done]: changed, visible_groups: visible },
      summary: changed.length ? `${done} ${changed.join(', ')}` : `${args.group} was already ${done}`,
    };
  },
});

export const catalogTools: ToolDef[] = [listToolGroups, loadToolGroup];
