/** A fourth connector, as small as one can be: what docs/adding-a-connector.md asks for, nothing more. */
import type { ConnectorDescriptor } from '../../../src/connectors/descriptor.js';
import { toyToolGroup } from './front/mcp-tools.js';
import { launchToyTarget, TOY_LAMP } from './toy-target.js';

export const toyConnector: ConnectorDescriptor = {
  kind: 'toy',
  summary: 'for machine "toy" (a CPU-less test machine)',
  machines: ['toy'],
  defaultFor: ['toy'],
  options: {},
  stopsAtEntry: true,
  missingProgram: () => undefined,
  launch: launchToyTarget,
  features: [TOY_LAMP],
  toolGroups: [toyToolGroup],
};
