/** Tool group `dos`: a DOS guest in DOSBox / DOSBox-X driven without touching the desktop. */
import type { ToolDef } from '../../../mcp/tool-kit.js';
import { dosInputTools } from './mcp-input.js';
import { dosMemoryTools } from './mcp-memory.js';
import { dosRecordTools } from './mcp-record.js';
import { dosScreenTools } from './mcp-screen.js';
import { dosSessionTools } from './mcp-session.js';

export const dosTools: ToolDef[] = [
  ...dosSessionTools,
  ...dosMemoryTools,
  ...dosScreenTools,
  ...dosInputTools,
  ...dosRecordTools,
];
