/** The DOSBox connector: a DOS guest in native DOSBox(-X) or the embedded wasm DOSBox-X; no CPU debugger. */
import * as z from 'zod/v4';
import type { ConnectorDescriptor } from '../descriptor.js';
import { DOS_FEATURE } from './dosbox-target.js';
import { dosDebugView } from './front/dap-view.js';
import { dosToolGroup } from './front/mcp-tools.js';
import { launchDosboxTarget } from './launcher.js';

const POSITIVE = { error: 'must be a positive whole number' };

export const dosboxConnector: ConnectorDescriptor = {
  kind: 'dosbox',
  summary:
    'for machine "dos" (a DOS guest in DOSBox-X / DOSBox; the default for machine "dos"; the dos tool group drives it)',
  machines: ['dos'],
  defaultFor: ['dos'],
  debugView: dosDebugView,
  options: {
    dos: z
      .strictObject(
        {
          backend: z
            .enum(['native', 'wasm-dosbox', 'wasm-dosbox-x'])
            .optional()
            .describe('default: wasm DOSBox-X when installed, else native'),
          pid: z.number().int(POSITIVE).positive(POSITIVE).optional().describe('attach to a native DOSBox process'),
          executable: z.string().optional().describe('user-only: DOSBox executable'),
          isolation: z.enum(['dummy', 'xvfb']).optional().describe('native: no display, or a private X'),
          conf: z.string().optional().describe('user-only: dosbox.conf'),
          args: z
            .string()
            .max(120, { error: 'must be at most 120 characters' })
            .optional()
            .describe('program arguments'),
          memsizeMb: z
            .number()
            .int(POSITIVE)
            .min(1, POSITIVE)
            .max(64, { error: 'must be at most 64' })
            .optional()
            .describe('guest MB'),
          profile: z.string().optional().describe('program profile JSON'),
        },
        { error: 'must be an object, e.g. { "backend": "native", "profile": "game.dosprofile.json" }' },
      )
      .optional()
      .describe(
        'machine dos: {backend: native|wasm-dosbox|wasm-dosbox-x, pid (of a native DOSBox to attach to), ' +
          'isolation: dummy|xvfb, args, memsizeMb, profile}',
      ),
  },
  launchJsonDefaults: { dos: {} },
  stopsAtEntry: false,
  ownDebugInfo: true, // a .COM's nasm listing: its data labels (listing-profile.ts)
  missingProgram: (config) =>
    config.program || config.dos?.pid
      ? undefined
      : 'launch.json needs "program" (the DOS .COM/.EXE to run) or "dos": { "pid": N } to attach to a running DOSBox.',
  launch: launchDosboxTarget,
  features: [DOS_FEATURE],
  toolGroups: [dosToolGroup],
};
