/** Tool group `vice`: the live VICE debugger tools, for real x64sc and the built-in C64 alike. */
import type { ToolGroup } from '../../../mcp/tool-kit.js';
import { viceTools } from './mcp-tools.js';

export const viceToolGroup: ToolGroup = {
  name: 'vice',
  description:
    'live VICE debugger (real x64sc or the built-in C64): connect, cached status, registers, banks, bank-aware memory, checkpoints with conditions, run control, stop waits, reset, typing keys, joystick, screen capture as indexed PNG',
  tools: viceTools,
};
