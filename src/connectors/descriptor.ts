/**
 * One connector, self-described: its launch half (core/connector.ts) plus its
 * front-end pieces. Each connector folder exports one (src/connectors/<x>/descriptor.ts);
 * src/connectors/registry.ts lists them.
 */
import type { Connector } from '../core/connector.js';
import type { DebugViewChooser } from '../dap/debug-view.js';
import type { ToolGroup } from '../mcp/tool-kit.js';
import type { TestMachineSpec } from '../testing/run-tests.js';

export interface ConnectorDescriptor extends Connector {
  /** its MCP tool groups (connectors that speak one protocol share them: vice and builtin) */
  readonly toolGroups: readonly ToolGroup[];
  /** its DAP view, when the generic C view does not fit: undefined for a session that is not its own */
  /** the machines it runs unit tests (retro_test.h) on headless, without a session */
  readonly testMachines?: readonly TestMachineSpec[];
  readonly debugView?: (ctx: Parameters<DebugViewChooser>[0]) => ReturnType<DebugViewChooser> | undefined;
}
