/**
 * The tool registry: named groups and start-up profiles. Later groups (c64,
 * dos, …) and the load/unload catalog tools plug in here.
 */
import type { ToolDef } from './tool-kit.js';
import { cTools } from './tools/c.js';
import { rawTools } from './tools/raw.js';
import { screenTools } from './tools/screen.js';
import { sessionTools } from './tools/session.js';
import { c64GraphicsTools } from './tools/c64-graphics.js';
import { c64SymbolLiveTools, c64SymbolStaticTools } from './tools/c64-symbols.js';
import { c64TextLiveTools, c64TextStaticTools } from './tools/c64-text.js';
import { mameConsoleTools } from '../connectors/mame/front/mcp-console.js';
import { mameInputTools } from '../connectors/mame/front/mcp-input.js';
import { mameMemoryTools } from '../connectors/mame/front/mcp-memory.js';
import { mameScreenTools } from '../connectors/mame/front/mcp-screen.js';
import { mameWatchTools } from '../connectors/mame/front/mcp-watch.js';
import { dosTools } from '../connectors/dosbox/front/mcp-tools.js';
import { viceTools } from '../connectors/vice/front/mcp-tools.js';

export interface ToolGroup {
  name: string;
  description: string;
  tools: readonly ToolDef[];
}

export const TOOL_GROUPS: readonly ToolGroup[] = [
  {
    name: 'session',
    description: 'start, inspect and stop sessions; the control lease; waiting for stops',
    tools: sessionTools,
  },
  { name: 'c', description: 'C-level debugging: breakpoints, run control, backtrace, variables', tools: cTools },
  { name: 'raw', description: 'CPU registers and memory as bytes', tools: rawTools },
  { name: 'screen', description: 'the emulated screen as PNG', tools: screenTools },
  {
    name: 'mame',
    description:
      'raw MAME: address spaces, VRAM and shares, disassembly, watchpoints, the debugger console, input ports, keys, mouse, screen pixels',
    tools: [...mameMemoryTools, ...mameWatchTools, ...mameConsoleTools, ...mameInputTools, ...mameScreenTools],
  },
  {
    name: 'c64_static',
    description:
      'C64 from bytes (inline, file or session memory): symbol profile, PETSCII/screen-code text decode and search, bitmap/charset/screen/sprite decoders to PNG',
    tools: [...c64SymbolStaticTools, ...c64TextStaticTools, ...c64GraphicsTools],
  },
  {
    name: 'c64',
    description: 'C64 in a live session: apply the symbol profile to its labels, label decoded text, list labels',
    tools: [...c64SymbolLiveTools, ...c64TextLiveTools],
  },
  {
    name: 'dos',
    description:
      'a DOS guest in DOSBox / DOSBox-X (native or embedded wasm) without touching the desktop: find the guest and its programs, read/patch/search memory, text and mode-13h screen, keys, clicks, code-cave traces, program profiles',
    tools: dosTools,
  },
  {
    name: 'vice',
    description:
      'live VICE debugger (real x64sc or the built-in C64): connect, cached status, registers, banks, bank-aware memory, checkpoints with conditions, run control, stop waits, reset, typing keys, screen capture as indexed PNG',
    tools: viceTools,
  },
];

export type Profile = 'minimal' | 'live' | 'full' | 'raw' | 'static' | 'vice';
export const PROFILES: Record<Profile, readonly string[]> = {
  minimal: ['session'],
  /** work on bytes without a running machine: C64 symbols, text and graphics decoders */
  static: ['session', 'c64_static'],
  live: ['session', 'c', 'raw', 'screen'],
  full: TOOL_GROUPS.map((g) => g.name),
  /** any MAME machine, no C program needed: run control, bytes, screen and the raw MAME tools */
  raw: ['session', 'c', 'raw', 'screen', 'mame'],
  /** a C64 in VICE or the built-in: live C debugging plus the vice_* tools */
  vice: ['session', 'c', 'raw', 'screen', 'vice'],
};

export function findTool(name: string): ToolDef | undefined {
  for (const group of TOOL_GROUPS) for (const tool of group.tools) if (tool.name === name) return tool;
  return undefined;
}

/** The profile a connection gets when nobody chose one: live debugging, machine groups loaded on demand. */
export const DEFAULT_PROFILE: Profile = 'live';

export function isProfile(value: string): value is Profile {
  return Object.prototype.hasOwnProperty.call(PROFILES, value);
}
