/** The VICE connector: a real x64sc (started, or attached to by its binary monitor), machine c64. */
import * as z from 'zod/v4';
import type { ConnectorDescriptor } from '../descriptor.js';
import { DRIVE8_OPTION, EXTRA_ARGS_OPTION } from '../../core/shared-launch-options.js';
import { NEEDS_PROGRAM } from '../mame/descriptor.js';
import { viceToolGroup } from './front/mcp-group.js';
import { launchViceTarget } from './launcher.js';
import { VICE_FEATURE, VICE_FRAME_SOURCE } from './vice-target.js';

export const viceConnector: ConnectorDescriptor = {
  kind: 'vice',
  summary: 'for machine "c64" (x64sc with its binary monitor)',
  machines: ['c64'],
  options: {
    vicePath: z.string().optional().describe('user-only: x64sc executable'),
    viceMonitor: z
      .string()
      .regex(/^[\w.-]+:\d+$/, { error: 'must be "host:port", e.g. "127.0.0.1:6502"' })
      .optional()
      .describe('VICE monitor to attach to: "host:port"'),
    extraArgs: EXTRA_ARGS_OPTION,
    drive8: DRIVE8_OPTION,
    screenRefreshFps: z
      .literal(VICE_FRAME_SOURCE.rates as number[])
      .optional()
      .describe('frames/s while running, each a stop (0: at stops); default 1'),
  },
  // the rate is the user's: each frame stops their VICE; an agent's watch_screen and screenshot keep within it
  notForAgents: ['screenRefreshFps'],
  // a path on the host: from an agent only inside its roots
  hostPaths: ['drive8'],
  notInLaunchJson: ['extraArgs'],
  stopsAtEntry: true,
  missingProgram: (config) => (config.program || config.viceMonitor ? undefined : NEEDS_PROGRAM),
  launch: launchViceTarget,
  features: [VICE_FEATURE],
  toolGroups: [viceToolGroup],
};
