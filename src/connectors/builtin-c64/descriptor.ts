/** The built-in C64: runs in this process and serves the VICE binary monitor, so the VICE client drives it. */
import * as z from 'zod/v4';
import type { ConnectorDescriptor } from '../descriptor.js';
import { DRIVE8_OPTION } from '../../core/shared-launch-options.js';
import { NEEDS_PROGRAM } from '../mame/descriptor.js';
import { viceToolGroup } from '../vice/front/mcp-group.js';
import { VICE_FEATURE } from '../vice/vice-target.js';
import { launchBuiltinTarget } from './launcher.js';
import { c64TestMachine } from './front/test-machine.js';

export const builtinConnector: ConnectorDescriptor = {
  kind: 'builtin',
  summary: 'for machine "c64" (the built-in C64: no install needed; the default for machine "c64")',
  machines: ['c64'],
  defaultFor: ['c64'],
  options: {
    drive8: DRIVE8_OPTION,
    history: z
      .object({
        seconds: z.number().min(0).optional().describe('machine seconds kept (default 60; 0: no history)'),
        maxMegabytes: z.number().min(0).optional().describe('memory the history may use (default 128; 0: none)'),
      })
      .optional()
      .describe('built-in C64 time travel: {seconds (default 60; 0: none), maxMegabytes (default 128)}'),
    builtinMonitorPort: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .describe('user-only: also serve the VICE binary monitor on this 127.0.0.1 port (0: a free one)'),
  },
  // a path on the host: from an agent only inside its roots
  hostPaths: ['drive8'],
  stopsAtEntry: true,
  missingProgram: (config) => (config.program ? undefined : NEEDS_PROGRAM),
  launch: launchBuiltinTarget,
  features: [VICE_FEATURE],
  toolGroups: [viceToolGroup],
  testMachines: [c64TestMachine],
};
