/** Catalog tools, always visible: what tool groups exist and which are loaded. */
import * as z from 'zod/v4';
import { READ_ONLY, defineTool, type ToolDef } from '../tool-kit.js';

const listToolGroups = defineTool({
  name: 'list_tool_groups',
  title: 'List tool groups',
  description: 'The tool groups this server offers, their tools, and whether each group is loaded on this connection.',
  input: {},
  output: {
    groups: z.array(z.object({ name: z.string(), description: z.string(), tools: z.array(z.string()), loaded: z.boolean() })),
  },
  annotations: READ_ONLY,
  async run(_args, ctx) {
    const groups = ctx.groups();
    return { data: { groups }, summary: groups.map((g) => `${g.name}${g.loaded ? '' : ' (not loaded)'}: ${g.tools.join(', ')}`).join('\n') };
  },
});

export const catalogTools: ToolDef[] = [listToolGroups];
