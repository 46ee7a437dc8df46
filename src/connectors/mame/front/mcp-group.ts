/** Tool group `mame`: the raw MAME tools. */
import type { ToolGroup } from '../../../mcp/tool-kit.js';
import { mameConsoleTools } from './mcp-console.js';
import { mameInputTools } from './mcp-input.js';
import { mameMemoryTools } from './mcp-memory.js';
import { mameScreenTools } from './mcp-screen.js';

export const mameToolGroup: ToolGroup = {
  name: 'mame',
  description:
    'raw MAME: address spaces, VRAM and shares, disassembly, the debugger console, input ports, keys, mouse, screen pixels',
  tools: [...mameMemoryTools, ...mameConsoleTools, ...mameInputTools, ...mameScreenTools],
};
