/**
 * The `retro` debugger's launch.json attributes, in the shape VS Code wants in
 * package.json `contributes.debuggers[]`. One source: the extension's
 * package.json is generated from / checked against this object, and the
 * adapter's argument parser (launch-args.ts) reads the same attribute names.
 */

interface Attribute {
  type: string | string[];
  description: string;
  default?: unknown;
  enum?: string[];
  additionalProperties?: { type: string };
  items?: { type: string };
}

interface Schema {
  required?: string[];
  properties: Record<string, Attribute>;
}

export const DEBUG_TYPE = 'retro';

const sharedCwd: Attribute = {
  type: 'string',
  description: 'Folder that relative paths resolve against and where C sources are looked up.',
  default: '${workspaceFolder}',
};

/** The secret `retro-debug serve`'s DAP port asks for (with "debugServer"); unused by the extension's own adapter. */
const sharedDapToken = {
  type: 'string',
  description:
    'With "debugServer" (a running `retro-debug serve`): the token from its token file. Not needed otherwise.',
};

export const launchAttributes: Schema = {
  required: ['machine', 'program'],
  properties: {
    machine: {
      type: 'string',
      description: 'Emulated machine, as the emulator names it (e.g. "spectrum").',
      default: 'spectrum',
    },
    emulator: {
      type: 'string',
      enum: ['mame', 'dosbox', 'vice', 'builtin'],
      description:
        'Emulator that runs the machine: "mame", or "dosbox" for machine "dos" (a DOS guest in DOSBox-X / DOSBox; the default for machine "dos"), or for machine "c64" "vice" (x64sc with its binary monitor) or "builtin" (the built-in C64: no install needed).',
      default: 'mame',
    },
    program: {
      type: 'string',
      description: 'Program image built by the toolchain (e.g. an SDCC .rom/.bin or .ihx).',
      default: '${workspaceFolder}/build/program.rom',
    },
    debugInfo: {
      type: 'string',
      description:
        'Debug information (SDCC .cdb or cc65 .dbg). Defaults to the program path with a .cdb, then .dbg extension.',
    },
    mamePath: {
      type: 'string',
      description: 'MAME executable. Default: "mame" on PATH, then /usr/games/mame.',
    },
    vicePath: {
      type: 'string',
      description: 'VICE x64sc executable (emulator "vice"). Default: "x64sc" on PATH.',
    },
    viceMonitor: {
      type: 'string',
      description:
        'Attach to a running VICE whose binary monitor listens at "host:port" (e.g. "127.0.0.1:6502") instead of starting x64sc.',
    },
    rompath: {
      type: 'string',
      description: "Extra ROM search paths for MAME (';'-separated, as MAME takes them).",
    },
    media: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'MAME media options, e.g. { "cart": "game.bin" } becomes -cart game.bin.',
      default: {},
    },
    headless: {
      type: 'boolean',
      description: 'Run MAME without a window or sound.',
      default: true,
    },
    stopOnEntry: {
      type: 'boolean',
      description: 'Stop at main once the program is loaded.',
      default: true,
    },
    dos: {
      type: 'object',
      description:
        'Machine "dos" only: { "backend": "native" | "wasm-dosbox-x" | "wasm-dosbox", "pid": N (attach to a running DOSBox), "profile": "x.dosprofile.json", "args", "executable", "isolation": "dummy" | "xvfb", "conf", "memsizeMb" }. The guest always runs: programs show as threads, profile symbols as variables, memory in the memory view.',
      default: {},
    },
    cwd: sharedCwd,
    dapToken: sharedDapToken,
  },
};

export const attachAttributes: Schema = {
  properties: {
    sessionId: {
      type: 'string',
      description: 'Session to attach to (e.g. one an AI agent started). Default: the only live session.',
    },
    cwd: sharedCwd,
    dapToken: sharedDapToken,
  },
};

/**
 * The `contributes.debuggers[]` entry (minus `program`/`runtime`, which the extension wires inline).
 * Snippets: src/host/launch-snippets.ts; no initialConfigurations — the extension's provider
 * generates them per detected project (a static list here would be written a second time).
 */
export const debuggerContribution = {
  type: DEBUG_TYPE,
  label: 'Retro Debug',
  languages: ['c'],
  configurationAttributes: { launch: launchAttributes, attach: attachAttributes },
};
