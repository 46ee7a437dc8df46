/**
 * Which launch options an agent (an MCP client) may choose. From launch.json
 * the user speaks; from an agent, an executable path, a raw emulator option
 * or a MAME media slot (which can become -autoboot_script) would run any
 * program as the user. So executables come from the user's settings, CLI
 * flags or environment, and these options are refused from agents unless the
 * user allowed them (setting retro.mcp.allowAgentLaunchOptions, flag
 * --allow-agent-launch-options, RETRO_DEBUG_ALLOW_AGENT_LAUNCH_OPTIONS=1).
 */
import { notAllowed } from '../core/errors.js';
import type { LaunchConfig } from '../core/launch.js';

export interface LaunchPolicy {
  /** the user allowed agents to choose executables and raw emulator options */
  allowAgentLaunchOptions: boolean;
  /** executables the user configured; used when the launch names none */
  mamePath?: string;
  vicePath?: string;
  dosExecutable?: string;
}

/** The options only the user may set (dotted for nested ones). */
export const USER_ONLY_LAUNCH_OPTIONS = [
  'mamePath',
  'vicePath',
  'media',
  'extraArgs',
  'dos.executable',
  'dos.conf',
  'builtinMonitorPort',
];

/** The policy from the environment (the CLI adds its flags on top). */
export function launchPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): LaunchPolicy {
  const set = (v: string | undefined) => (v ? v : undefined);
  return {
    allowAgentLaunchOptions: env.RETRO_DEBUG_ALLOW_AGENT_LAUNCH_OPTIONS === '1',
    mamePath: set(env.RETRO_DEBUG_MAME_PATH),
    vicePath: set(env.RETRO_DEBUG_VICE_PATH),
    dosExecutable: set(env.RETRO_DEBUG_DOSBOX_PATH),
  };
}

function present(config: LaunchConfig, option: string): boolean {
  const [head, tail] = option.split('.');
  const value = (config as unknown as Record<string, unknown>)[head];
  const v = tail ? (value as Record<string, unknown> | undefined)?.[tail] : value;
  if (v === undefined) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object' && v !== null) return Object.keys(v).length > 0;
  return true;
}

/**
 * The launch config an agent may start: refused with `not_allowed` (naming the
 * options and how the user allows them) unless permitted; the user's
 * configured executables filled in where the config names none.
 */
export function agentLaunchConfig(config: LaunchConfig, policy: LaunchPolicy | undefined): LaunchConfig {
  const given = USER_ONLY_LAUNCH_OPTIONS.filter((o) => present(config, o));
  if (given.length && !policy?.allowAgentLaunchOptions) {
    throw notAllowed(
      `An agent may not set ${given.join(', ')}: executables and raw emulator options come from the user's settings ` +
        '(retro.mamePath, CLI flags --mame-path/--vice-path/--dosbox-path, or RETRO_DEBUG_MAME_PATH/…). ' +
        'The user can allow agents to choose them with the setting retro.mcp.allowAgentLaunchOptions, the CLI flag ' +
        '--allow-agent-launch-options or RETRO_DEBUG_ALLOW_AGENT_LAUNCH_OPTIONS=1.',
      { options: given },
    );
  }
  const out: LaunchConfig = { ...config };
  if (!out.mamePath && policy?.mamePath) out.mamePath = policy.mamePath;
  if (!out.vicePath && policy?.vicePath) out.vicePath = policy.vicePath;
  if (out.dos && !out.dos.executable && policy?.dosExecutable)
    out.dos = { ...out.dos, executable: policy.dosExecutable };
  return out;
}
