/** A connector's kind, e.g. 'mame', 'vice', 'builtin', 'dosbox' (src/connectors/registry.ts lists them). */
export type EmulatorKind = string;

/** What starts (or attaches) a session. Shared by DAP launch.json, MCP start_session and the CLI. */
export interface LaunchConfig {
  /** machine name, e.g. "spectrum" (the test fixture), "sprinter", "c64", "dos" */
  machine: string;
  /** which emulator connector (src/connectors/registry.ts lists them) */
  emulator: EmulatorKind;
  /** the program image (e.g. a ROM built by SDCC: .rom/.bin or .ihx) */
  program?: string;
  /** debug info file (SDCC .cdb); defaults to program with .cdb extension when it exists */
  debugInfo?: string;
  /** MAME executable; default: "mame" on PATH, then /usr/games/mame */
  mamePath?: string;
  /** extra ROM search paths for MAME (';'-separated as MAME takes them) */
  rompath?: string | string[];
  /** MAME media options, e.g. { cart: "game.bin" } → -cart game.bin */
  media?: Record<string, string>;
  /** true (default): no window, no sound (SDL dummy drivers, -video none) */
  headless?: boolean;
  /** run at real speed (default false: -nothrottle) */
  throttle?: boolean;
  /** stop at main once the program is loaded (default true) */
  stopOnEntry?: boolean;
  /** folder relative paths resolve against; also where sources are looked up */
  cwd?: string;
  /** extra MAME command-line arguments */
  extraArgs?: string[];
  /** VICE (emulator "vice"): x64sc executable; default "x64sc" on PATH */
  vicePath?: string;
  /** VICE: attach to a running VICE's binary monitor ("host:port", e.g. "127.0.0.1:6502") instead of starting one */
  viceMonitor?: string;
  /** VICE: frames a second while running (0, 1, 2 or 5; each stops the C64 for one display read); default 1 */
  screenRefreshFps?: number;
  /** built-in C64: the host folder served as device 8 (default: the program's folder); relative to cwd */
  drive8?: string;
  /** built-in C64: how much of the machine's past is recorded for time travel (0 in either: none) */
  history?: { seconds?: number; maxMegabytes?: number };
  /** built-in C64: also serve its VICE binary monitor on 127.0.0.1:port (0: a free one) for one outside client; default: none */
  builtinMonitorPort?: number;
  /** DOS guests (emulator "dosbox"): which backend, attach by PID, profile */
  dos?: DosLaunchOptions;
  /** Sprinter: the debugger loads the DSS .EXE itself once the BIOS has booted (own BIOS, no DSS disk) */
  bridgeLoad?: BridgeLoadOptions;
}

/** docs/sprinter.md, "Your own BIOS, no DSS disk" */
export interface BridgeLoadOptions {
  /** the boot point: the BIOS is ready once it executes this address (e.g. its idle loop) */
  bootAddress?: number;
  /** frames to run: the boot point itself without bootAddress (default 50), else the most to wait for it (500) */
  bootFrames?: number;
  /** 'absent' (default): a DSS call (RST 10h) stops with an exception; 'present': the booted system answers them */
  dss?: 'absent' | 'present';
}

export interface DosLaunchOptions {
  /** default: the embedded wasm DOSBox-X when the optional "emulators" package is installed, else native */
  backend?: 'native' | 'wasm-dosbox' | 'wasm-dosbox-x';
  /** attach to a running native DOSBox by process id instead of launching one */
  pid?: number;
  /** native DOSBox executable; default dosbox-x, dosbox or dosbox-staging on PATH */
  executable?: string;
  /** native: 'dummy' (SDL dummy video, no window; default) or 'xvfb' (a private X display) */
  isolation?: 'dummy' | 'xvfb';
  /** a whole DOSBox .conf to use instead of ours (native) */
  conf?: string;
  /** command-line tail for the program */
  args?: string;
  memsizeMb?: number;
  /** a program profile (JSON) to load once the guest is up */
  profile?: string;
}

/**
 * The rompath setting as folders: a list is taken entry by entry, as written; a string is split on ';' the way MAME
 * itself reads it (so a folder whose name holds a ';' needs the list form).
 */
export function rompathFolders(rompath: string | string[] | undefined): string[] {
  if (rompath === undefined) return [];
  return (Array.isArray(rompath) ? rompath : rompath.split(';')).filter(Boolean);
}
