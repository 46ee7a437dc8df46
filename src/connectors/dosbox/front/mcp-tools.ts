/** Tool group `dos`: a DOS guest in DOSBox / DOSBox-X driven without touching the desktop. */
import type { ToolDef, ToolGroup } from '../../../mcp/tool-kit.js';
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

export const dosToolGroup: ToolGroup = {
  name: 'dos',
  description:
    'a DOS guest in DOSBox / DOSBox-X (native or embedded wasm) without touching the desktop: find the guest and its programs, read/patch/search memory, text and mode-13h screen, keys, clicks, code-cave traces, program profiles',
  tools: dosTools,
};
