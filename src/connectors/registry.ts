/**
 * Every connector, one line each. Only the top-level wiring (extension.ts,
 * cli.ts, the DAP's stdio/serve entries) and tests import this: they hand the
 * list to the SessionManager and the tool groups to the MCP server.
 * A new emulator = its folder with a descriptor.ts, plus one line here.
 */
import type { ToolDef, ToolGroup } from '../mcp/tool-kit.js';
import { genericToolGroups } from '../mcp/groups.js';
import { testTools } from '../mcp/tools/tests.js';
import { CDebugView } from '../dap/c-view.js';
import type { DebugViewChooser } from '../dap/debug-view.js';
import type { ConnectorDescriptor } from './descriptor.js';
import type { TestMachineSpec } from '../testing/run-tests.js';
import { builtinConnector } from './builtin-c64/descriptor.js';
import { dosboxConnector } from './dosbox/descriptor.js';
import { mameConnector } from './mame/descriptor.js';
import { viceConnector } from './vice/descriptor.js';

export const CONNECTORS: readonly ConnectorDescriptor[] = [
  mameConnector,
  dosboxConnector,
  viceConnector,
  builtinConnector,
];

/** The machines unit tests (retro_test.h) run on, from the connectors that provide one. */
export const TEST_MACHINES: readonly TestMachineSpec[] = CONNECTORS.flatMap((c) => c.testMachines ?? []);

/**
 * The MCP tool groups: the generic ones, then each connector's (a group two connectors share, once), then
 * `tests` when a connector runs unit tests.
 */
export function toolGroupsOf(connectors: readonly ConnectorDescriptor[]): readonly ToolGroup[] {
  const groups = [...genericToolGroups(connectors)];
  for (const c of connectors) for (const g of c.toolGroups) if (!groups.includes(g)) groups.push(g);
  const machines = connectors.flatMap((c) => c.testMachines ?? []);
  if (machines.length)
    groups.push({
      name: 'tests',
      description: 'C unit tests, coverage, cycle profiler (headless)',
      tools: testTools(machines),
    });
  return groups;
}

export const TOOL_GROUPS = toolGroupsOf(CONNECTORS);

export function findTool(name: string): ToolDef | undefined {
  for (const group of TOOL_GROUPS) for (const tool of group.tools) if (tool.name === name) return tool;
  return undefined;
}

/** The DAP view of a session: its connector's own view, else the C view of a stopped CPU. */
export const chooseView: DebugViewChooser = (ctx) => {
  for (const c of CONNECTORS) {
    const view = c.debugView?.(ctx);
    if (view) return view;
  }
  return new CDebugView(ctx);
};
