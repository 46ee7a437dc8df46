/**
 * The tool registry: named groups and start-up profiles. Later groups (c64,
 * dos, …) and the load/unload catalog tools plug in here.
 */
import type { ToolDef } from './tool-kit.js';
import { cTools } from './tools/c.js';
import { rawTools } from './tools/raw.js';
import { screenTools } from './tools/screen.js';
import { sessionTools } from './tools/session.js';

export interface ToolGroup { name: string; description: string; tools: readonly ToolDef[] }

export const TOOL_GROUPS: readonly ToolGroup[] = [
  { name: 'session', description: 'start, inspect and stop sessions; the control lease; waiting for stops', tools: sessionTools },
  { name: 'c', description: 'C-level debugging: breakpoints, run control, backtrace, variables', tools: cTools },
  { name: 'raw', description: 'CPU registers and memory as bytes', tools: rawTools },
  { name: 'screen', description: 'the emulated screen as PNG', tools: screenTools },
];

export type Profile = 'minimal' | 'live' | 'full';
export const PROFILES: Record<Profile, readonly string[]> = {
  minimal: ['session'],
  live: ['session', 'c', 'raw', 'screen'],
  full: TOOL_GROUPS.map((g) => g.name),
};

export function findTool(name: string): ToolDef | undefined {
  for (const group of TOOL_GROUPS) for (const tool of group.tools) if (tool.name === name) return tool;
  return undefined;
}
