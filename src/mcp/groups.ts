/**
 * The generic tool groups (any connector) and the start-up profiles. The
 * connectors' own groups come from their descriptors; the registry joins
 * them (src/connectors/registry.ts) and the wiring hands the list to the server.
 */
import type { Connector } from '../core/connector.js';
import type { ToolGroup } from './tool-kit.js';
import { cTools } from './tools/c.js';
import { runTo } from './tools/run-to.js';
import { historyTools } from './tools/history.js';
import { cpuHistoryTool } from './tools/cpu-history.js';
import { watchListTools, watchTools } from './tools/watch.js';
import { resetTools, stateTools } from './tools/lifecycle.js';
import { memoryTools, rawTools } from './tools/raw.js';
import { memoryExportTools } from './tools/memory-export.js';
import { screenTools, screenWatchTools } from './tools/screen.js';
import { sessionTools } from './tools/session.js';
import { c64GraphicsTools } from './tools/c64-graphics.js';
import { c64SymbolLiveTools, c64SymbolStaticTools } from './tools/c64-symbols.js';
import { c64TextLiveTools, c64TextStaticTools } from './tools/c64-text.js';

/** The groups every server has; start_session's input comes from the connectors. */
export function genericToolGroups(connectors: readonly Connector[]): ToolGroup[] {
  return [
    {
      name: 'session',
      description: 'start, inspect and stop sessions; the control lease; waiting for stops',
      tools: sessionTools(connectors),
    },
    {
      name: 'c',
      description: 'C-level debugging: breakpoints, watchpoints, run control, run_to, reset, backtrace, variables',
      tools: [...cTools, ...watchTools, runTo, ...resetTools],
    },
    {
      name: 'history',
      description:
        'time travel (built-in C64): last_write (who corrupted a value), go_to a frame or the present, history; cpu_history (recent instructions, also VICE 3.10+)',
      tools: [...historyTools, cpuHistoryTool],
    },
    { name: 'state', description: 'machine snapshots in named slots: save_state, load_state', tools: stateTools },
    { name: 'memory', description: 'memory as hex bytes, with the symbol there', tools: memoryTools },
    {
      name: 'raw',
      description:
        'CPU registers; writing memory; dumping memory to a file (SHA-256) and searching it; clear/list watchpoints',
      tools: [...rawTools, ...memoryExportTools, ...watchListTools],
    },
    { name: 'screen', description: 'the emulated screen as PNG; typing keys', tools: screenTools },
    // loaded when an agent needs to see motion: its schema stays out of the default profile's budget
    {
      name: 'screen_watch',
      description: 'the frames that changed since a frame number (motion), as PNGs',
      tools: screenWatchTools,
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
  ];
}

export type Profile = 'minimal' | 'live' | 'full' | 'raw' | 'static' | 'vice';
/** Group names per profile; `full` is every group the server has (the registry's today, as listed). */
export const PROFILES: Record<Profile, readonly string[]> = {
  minimal: ['session'],
  /** work on bytes without a running machine: C64 symbols, text and graphics decoders */
  static: ['session', 'c64_static'],
  /** the default: C debugging, reading memory, the screen and the keyboard on every machine */
  live: ['session', 'c', 'memory', 'screen'],
  full: [
    'session',
    'c',
    'history',
    'memory',
    'raw',
    'state',
    'screen',
    'screen_watch',
    'c64_static',
    'c64',
    'mame',
    'dos',
    'vice',
    'tests',
  ],
  /** any MAME machine, no C program needed: run control, bytes, screen and the raw MAME tools */
  raw: ['session', 'c', 'memory', 'raw', 'state', 'screen', 'mame'],
  /** a C64 in VICE or the built-in: live C debugging plus the vice_* tools */
  vice: ['session', 'c', 'history', 'memory', 'raw', 'screen', 'vice'],
};

/** The groups of `profile` among `groups`. */
export function profileGroups(profile: Profile, groups: readonly ToolGroup[]): string[] {
  if (profile === 'full') return groups.map((g) => g.name);
  return PROFILES[profile].filter((n) => groups.some((g) => g.name === n));
}

/** The profile a connection gets when nobody chose one: live debugging, machine groups loaded on demand. */
export const DEFAULT_PROFILE: Profile = 'live';

export function isProfile(value: string): value is Profile {
  return Object.prototype.hasOwnProperty.call(PROFILES, value);
}
