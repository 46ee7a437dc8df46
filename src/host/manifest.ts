/**
 * The extension's `contributes` section, built from the code it describes:
 * the debugger schema comes from src/dap/launch-schema.ts, command ids and
 * settings from here. scripts/sync-manifest.mjs writes it into package.json;
 * test/unit/manifest-sync.test.ts fails when package.json is out of date.
 */
import type { Connector } from '../core/connector.js';
import { DEBUG_TYPE, debuggerContribution } from '../dap/launch-schema.js';
import { DEFAULT_PROFILE, PROFILES } from '../mcp/groups.js';
import { ASM_LANGUAGE_CONFIGURATION, ASM_LANGUAGES } from '../lsp/asm-dialect.js';
import { problemMatcherContributions } from '../lsp/toolchain-messages.js';
import { LAUNCH_SNIPPETS } from './launch-snippets.js';
import { TASK_TYPE } from './projects.js';
import { walkthroughs } from './walkthrough.js';

export const EXTENSION_ID = 'retro-debug.retro-debug';
export const MCP_PROVIDER_ID = 'retro-debug.mcp';
export const MCP_PROVIDER_LABEL = 'Retro Debug';
export const DISASM_LANGUAGE = 'retro-disasm';

export const COMMANDS = {
  openScreen: { command: 'retro.openScreen', title: 'Show Screen' },
  takeControl: { command: 'retro.takeControl', title: 'Take Control' },
  openMemory: { command: 'retro.openMemory', title: 'Open Memory' },
  showMcpConnection: { command: 'retro.showMcpConnection', title: 'Show MCP Connection' },
  diagnostics: { command: 'retro.diagnostics', title: 'Diagnostics' },
  whoLastWrote: { command: 'retro.whoLastWrote', title: 'Who Last Wrote This?' },
  stepBackOut: { command: 'retro.stepBackOut', title: 'Step Back Out' },
  profile: { command: 'retro.profile', title: 'Profile', icon: '$(flame)' },
  showProfile: { command: 'retro.showProfile', title: 'Show Profile Flame Graph' },
  clearProfile: { command: 'retro.clearProfile', title: 'Clear Profile' },
} as const;

/** The context key set while a profile's lenses and hot lines are shown. */
export const PROFILE_SHOWN_KEY = 'retro.profileShown';

export const SETTINGS = {
  mamePath: 'retro.mamePath',
  mcpPort: 'retro.mcp.port',
  mcpEnabled: 'retro.mcp.enabled',
  mcpProfile: 'retro.mcp.profile',
  mcpAllowAgentLaunchOptions: 'retro.mcp.allowAgentLaunchOptions',
  assemblyDetect: 'retro.assembly.detect',
} as const;

/** How .s/.asm/.inc files get one of our assembler languages (see src/lsp/asm-dialect.ts). */
export const ASSEMBLY_DETECT_MODES = ['plaintext', 'always', 'off'] as const;

/** Languages F5 offers the debugger for: C and the project toolchains' assemblers (F5 debugs the file's project). */
export const DEBUG_LANGUAGES: readonly string[] = ['c', ...Object.values(ASM_LANGUAGES).map((l) => l.id)];
/** Languages whose lines take breakpoints: C, and the 6502/Z80 assemblers whose lines the debug info maps. */
const BREAKPOINT_LANGUAGES = ['c', ...(['ca65', 'sdas', 'acme', '64tass'] as const).map((d) => ASM_LANGUAGES[d].id)];

/** The MCP start-up profiles, as src/mcp/groups.ts defines them. */
export const MCP_PROFILES: readonly string[] = Object.keys(PROFILES);

const CATEGORY = 'Retro Debug';

/** `connectors`: src/connectors/registry.ts CONNECTORS (the sync script and the tests pass them). */
export function contributes(connectors: readonly Connector[]): Record<string, unknown> {
  return {
    debuggers: [
      { ...debuggerContribution(connectors), languages: [...DEBUG_LANGUAGES], configurationSnippets: LAUNCH_SNIPPETS },
    ],
    breakpoints: BREAKPOINT_LANGUAGES.map((language) => ({ language })),
    commands: Object.values(COMMANDS).map((c) => ({ ...c, category: CATEGORY })),
    menus: {
      commandPalette: [
        ...[COMMANDS.takeControl, COMMANDS.openMemory, COMMANDS.whoLastWrote, COMMANDS.stepBackOut].map((c) => ({
          command: c.command,
          when: `inDebugMode && debugType == ${DEBUG_TYPE}`,
        })),
        ...[COMMANDS.showProfile, COMMANDS.clearProfile].map((c) => ({ command: c.command, when: PROFILE_SHOWN_KEY })),
      ],
      // profiles the session's program headless from its start (the session itself runs on)
      'debug/toolbar': [{ command: COMMANDS.profile.command, when: `debugType == ${DEBUG_TYPE}` }],
      // time travel: the adapter offers Step Back only where the machine records its past
      'debug/variables/context': [
        { command: COMMANDS.whoLastWrote.command, when: `debugType == ${DEBUG_TYPE} && debugState == stopped` },
      ],
    },
    mcpServerDefinitionProviders: [{ id: MCP_PROVIDER_ID, label: MCP_PROVIDER_LABEL }],
    walkthroughs: walkthroughs({
      diagnostics: COMMANDS.diagnostics.command,
      openScreen: COMMANDS.openScreen.command,
      showMcpConnection: COMMANDS.showMcpConnection.command,
    }),
    jsonValidation: [
      { fileMatch: ['*.dosprofile.json', '**/dos-profiles/*.json'], url: './schemas/dos-profile.schema.json' },
    ],
    configuration: {
      title: CATEGORY,
      properties: {
        [SETTINGS.mamePath]: {
          type: 'string',
          default: '',
          markdownDescription:
            'MAME executable used when a launch configuration sets no `mamePath`. Empty: `mame` on PATH, then `/usr/games/mame`.',
        },
        [SETTINGS.mcpPort]: {
          type: 'integer',
          default: 0,
          minimum: 0,
          maximum: 65535,
          markdownDescription:
            'Port of the MCP endpoint on 127.0.0.1. `0`: a random port, remembered and reused across reloads.',
        },
        [SETTINGS.mcpProfile]: {
          type: 'string',
          enum: MCP_PROFILES,
          default: DEFAULT_PROFILE,
          markdownDescription:
            'Tool groups MCP clients see when they connect (see the README). Agents can load more with `load_tool_group`; a client that never refreshes its tool list can add `?profile=full` to the endpoint URL.',
        },
        [SETTINGS.mcpAllowAgentLaunchOptions]: {
          type: 'boolean',
          default: false,
          markdownDescription:
            'Let AI agents (MCP `start_session`, `dosbox_launch`) choose executables and raw emulator options: `mamePath`, `vicePath`, `media`, `extraArgs`, `dos.executable`, `dos.conf`. Off: agents get the executables from `retro.mamePath` (or PATH) and are refused those options, since any of them can run a program of their choice as you.',
        },
        [SETTINGS.assemblyDetect]: {
          type: 'string',
          enum: [...ASSEMBLY_DETECT_MODES],
          default: 'plaintext',
          enumDescriptions: [
            'A .s/.asm/.inc file that opens as Plain Text gets the ca65, sdas, nasm, ACME or 64tass language its content shows.',
            'Also files another extension has claimed.',
            'Never: use `files.associations` (e.g. `"*.s": "retro-ca65"`) to choose.',
          ],
          markdownDescription:
            'How assembly files with a shared extension (`.s`, `.asm`, `.inc`) get the ca65, sdas/asz80, nasm, ACME or 64tass language (`.a` is always ACME, `.tas` 64tass). `files.associations` always wins.',
        },
        [SETTINGS.mcpEnabled]: {
          type: 'boolean',
          default: true,
          markdownDescription:
            'Offer the Retro Debug MCP server (tools for AI agents) to VS Code and other MCP clients.',
        },
      },
    },
    languages: [
      { id: DISASM_LANGUAGE, aliases: ['Retro Disassembly'], extensions: ['.retro-disasm'] },
      ...Object.values(ASM_LANGUAGES).map((l) => ({
        id: l.id,
        aliases: [l.alias],
        extensions: l.extensions,
        configuration: ASM_LANGUAGE_CONFIGURATION,
      })),
    ],
    grammars: [
      { language: DISASM_LANGUAGE, scopeName: 'source.retro-disasm', path: './syntaxes/retro-disasm.tmLanguage.json' },
      ...Object.values(ASM_LANGUAGES).map((l) => ({ language: l.id, scopeName: l.scopeName, path: l.grammar })),
    ],
    problemMatchers: problemMatcherContributions(),
    taskDefinitions: [
      {
        type: TASK_TYPE,
        required: ['project'],
        properties: {
          project: {
            type: 'string',
            description:
              'The cc65, SDCC, nasm, ACME or 64tass project to build: its folder relative to the workspace (nasm, ACME, 64tass: plus the main source).',
          },
        },
      },
    ],
  };
}
