/** The MAME connector: any MAME driver through the mamebridge Lua plugin. */
import * as z from 'zod/v4';
import type { ConnectorDescriptor } from '../descriptor.js';
import { EXTRA_ARGS_OPTION } from '../../core/shared-launch-options.js';
import { mameToolGroup } from './front/mcp-group.js';
import { MAME_RAW_FEATURE } from './mame-raw.js';
import { launchMameTarget } from './mame-target.js';
import { requireDriver } from './driver-check.js';
import { mameForMachine } from './mame-finder.js';
import { mameDriverReport } from './mame-report.js';
import { spectrumTestMachine, sprinterTestMachine } from './front/test-machine.js';

export const NEEDS_PROGRAM =
  'launch.json needs "program": the image to run (e.g. a .rom built by SDCC, a .prg built by cc65).';

export const mameConnector: ConnectorDescriptor = {
  kind: 'mame',
  summary: 'runs any MAME driver (the default)',
  machines: 'any',
  options: {
    mamePath: z.string().optional().describe('user-only: MAME executable'),
    rompath: z
      .union([z.string(), z.array(z.string()).max(16)])
      .optional()
      .describe("MAME ROM folder(s): a list, or one string split on ';' as MAME does"),
    media: z.record(z.string(), z.string()).optional().describe('user-only: MAME media, {"cart": "game.bin"}'),
    headless: z.boolean().optional().describe('no window or sound (default true)'),
    extraArgs: EXTRA_ARGS_OPTION,
    bridgeLoad: z
      .strictObject({
        bootAddress: z.number().int().min(0).max(0xffff).optional().describe('the BIOS is ready at this PC'),
        bootFrames: z.number().int().min(1).max(3000).optional().describe('frames to boot (default 50; 500 max wait)'),
        dss: z.enum(['absent', 'present']).optional().describe('absent (default): a DSS call stops the program'),
      })
      .optional()
      .describe('sprinter, own BIOS, no DSS disk: load the EXE at a boot point {bootAddress, bootFrames, dss}'),
  },
  launchJsonDefaults: { media: {}, headless: true },
  notInLaunchJson: ['extraArgs'],
  stopsAtEntry: true,
  missingProgram: (config) => (config.program ? undefined : NEEDS_PROGRAM),
  async checkMachine(config) {
    let mamePath: string;
    try {
      mamePath = await mameForMachine(config);
    } catch {
      return; // no MAME: the launch says so, with where it looked
    }
    await requireDriver(mamePath, config.machine);
  },
  diagnose: mameDriverReport,
  launch: launchMameTarget,
  features: [MAME_RAW_FEATURE],
  toolGroups: [mameToolGroup],
  testMachines: [spectrumTestMachine, sprinterTestMachine],
};
