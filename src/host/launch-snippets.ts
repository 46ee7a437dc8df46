/**
 * launch.json snippets ("Add Configuration…"), one per machine the adapter runs,
 * with the outputs each toolchain really writes (cc65: .prg + .dbg, SDCC: .rom/.ihx
 * + .cdb, nasm: .com/.exe). `^"\\${…}"` keeps VS Code variables literal in the snippet.
 */
import { DEBUG_TYPE } from '../dap/launch-schema.js';

const WS = (path: string) => `^"\\\${workspaceFolder}/${path}"`;
const CWD = '^"\\${workspaceFolder}"';

export const LAUNCH_SNIPPETS = [
  {
    label: 'Retro Debug: C64 program on the built-in C64',
    description: 'A cc65 program (.prg + .dbg from cl65 -g -Wl --dbgfile) on the built-in C64: no emulator to install.',
    body: {
      type: DEBUG_TYPE,
      request: 'launch',
      name: 'Retro: ${1:C64 program} (built-in C64)',
      machine: 'c64',
      emulator: 'builtin',
      program: WS('${2:build/program.prg}'),
      debugInfo: WS('${3:build/program.dbg}'),
      stopOnEntry: true,
      cwd: CWD,
    },
  },
  {
    label: 'Retro Debug: C64 program in VICE',
    description: 'A cc65 program in VICE x64sc, driven through its binary monitor.',
    body: {
      type: DEBUG_TYPE,
      request: 'launch',
      name: 'Retro: ${1:C64 program} (VICE)',
      machine: 'c64',
      emulator: 'vice',
      program: WS('${2:build/program.prg}'),
      debugInfo: WS('${3:build/program.dbg}'),
      stopOnEntry: true,
      cwd: CWD,
    },
  },
  {
    label: 'Retro Debug: ZX Spectrum ROM in MAME',
    description: 'An SDCC program (.rom + .cdb from sdcc --debug) in MAME\'s "spectrum", stopping at main.',
    body: {
      type: DEBUG_TYPE,
      request: 'launch',
      name: 'Retro: ${1:ZX program} (MAME spectrum)',
      machine: '${2:spectrum}',
      emulator: 'mame',
      program: WS('${3:build/program.rom}'),
      debugInfo: WS('${4:build/program.cdb}'),
      stopOnEntry: true,
      cwd: CWD,
    },
  },
  {
    label: 'Retro Debug: Sprinter program in MAME',
    description:
      'An SDCC .EXE run by DSS on the Sprinter (needs a MAME with the "sprinter" driver and a hard disk image).',
    body: {
      type: DEBUG_TYPE,
      request: 'launch',
      name: 'Retro: ${1:Sprinter program} (MAME sprinter)',
      machine: 'sprinter',
      emulator: 'mame',
      program: WS('${2:build/program.exe}'),
      debugInfo: WS('${3:build/program.cdb}'),
      media: { hard1: WS('${4:sprinter.hdd}') },
      stopOnEntry: true,
      cwd: CWD,
    },
  },
  {
    label: 'Retro Debug: DOS program in DOSBox',
    description:
      'Run a .COM/.EXE in a native DOSBox without touching the desktop; programs, memory and profile symbols.',
    body: {
      type: DEBUG_TYPE,
      request: 'launch',
      name: 'Retro: ${1:DOS program} (DOSBox)',
      machine: 'dos',
      emulator: 'dosbox',
      program: WS('${2:build/PROGRAM.COM}'),
      dos: { backend: 'native' },
      cwd: CWD,
    },
  },
  {
    label: 'Retro Debug: DOS program on the embedded DOSBox-X',
    description: 'Run a .COM/.EXE on the WebAssembly DOSBox-X (needs the optional npm package "emulators").',
    body: {
      type: DEBUG_TYPE,
      request: 'launch',
      name: 'Retro: ${1:DOS program} (embedded DOSBox-X)',
      machine: 'dos',
      emulator: 'dosbox',
      program: WS('${2:build/PROGRAM.COM}'),
      dos: { backend: 'wasm-dosbox-x' },
      cwd: CWD,
    },
  },
  {
    label: 'Retro Debug: Attach to a running session',
    description: 'Join a session that an AI agent (MCP) started, without a second emulator.',
    body: {
      type: DEBUG_TYPE,
      request: 'attach',
      name: 'Retro: attach',
      cwd: CWD,
    },
  },
];
