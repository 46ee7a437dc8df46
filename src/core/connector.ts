/**
 * What the layers below the front ends know of a connector: its kind, its
 * machines, its launch options as zod schemas and how it starts a Target.
 * Each connector folder exports one descriptor (this plus its front-end
 * pieces); src/connectors/registry.ts lists them and the top-level wiring
 * hands them to the SessionManager, the DAP and the MCP server.
 */
import type * as z from 'zod/v4';
import type { EmulatorKind, LaunchConfig } from './launch.js';
import type { FeatureKey, Target } from './target.js';

/** Launch options as zod schemas, each checked against its LaunchConfig field's type. */
export type LaunchOptionShape = { readonly [K in keyof LaunchConfig]?: z.ZodType<LaunchConfig[K]> };

export interface TargetLaunchOptions {
  /** a private folder for this session's files */
  workDir: string;
  onProgress?: (message: string) => void;
}

export type TargetLauncher = (config: LaunchConfig, opts: TargetLaunchOptions) => Promise<Target>;

export interface Connector {
  readonly kind: EmulatorKind;
  /** one sentence for the "emulator" option: what it is and which machines it runs */
  readonly summary: string;
  /** the machine names it runs; 'any' for an emulator with its own machine names (MAME's drivers) */
  readonly machines: readonly string[] | 'any';
  /** machines it is the default emulator for, when a launch names none */
  readonly defaultFor?: readonly string[];
  /** its own launch options (the common ones are in session/launch-options.ts) */
  readonly options: LaunchOptionShape;
  /** launch.json IntelliSense defaults of its options (parsing applies none) */
  readonly launchJsonDefaults?: Partial<Record<keyof LaunchConfig, unknown>>;
  /** of `options`, those that are no launch.json attributes (for agents and the CLI only) */
  readonly notInLaunchJson?: readonly (keyof LaunchConfig)[];
  /** of `options`, those agents are not offered (MCP start_session); launch.json and the CLI only */
  readonly notForAgents?: readonly (keyof LaunchConfig)[];
  /**
   * of `options`, host paths (relative to cwd): from an agent (MCP
   * start_session) each must lie, after symlinks, inside the client's roots,
   * else `outside_roots`; launch.json and the CLI speak for the user.
   */
  readonly hostPaths?: readonly (keyof LaunchConfig)[];
  /** false: the machine runs on its own without a CPU debugger: no stop at main, no stop on entry */
  readonly stopsAtEntry: boolean;
  /** true: `debugInfo` (or a file beside the program) is the connector's to read; the session loads no C debug info */
  readonly ownDebugInfo?: boolean;
  /** why a launch.json without "program" cannot start here; undefined when it can */
  missingProgram(config: LaunchConfig): string | undefined;
  /**
   * Before anything starts: refuses a machine this emulator does not know,
   * naming the close matches (MAME asks its driver list). Absent: the machine
   * names in `machines` are all it takes, checked by the launch options.
   */
  checkMachine?(config: LaunchConfig): Promise<void>;
  /** what it finds on this computer, as lines for the diagnostics report (MAME: which binary runs which driver) */
  diagnose?(): Promise<string[]>;
  readonly launch: TargetLauncher;
  /** the typed features its targets provide (Target.features) */
  readonly features: readonly FeatureKey<unknown>[];
}
