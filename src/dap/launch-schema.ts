/**
 * The `retro` debugger's launch.json attributes, in the shape VS Code wants in
 * package.json `contributes.debuggers[]`. One source: the launch attributes
 * are the connectors' zod option schemas, which the adapter's argument parser
 * (launch-args.ts) and MCP start_session use too; package.json is generated
 * from / checked against this (scripts/sync-manifest.mjs).
 */
import type { Connector } from '../core/connector.js';
import { COMMON_OPTIONS, jsonAttribute, launchJsonAttributes } from '../session/launch-options.js';

type Attribute = Record<string, unknown>;

interface Schema {
  required?: string[];
  properties: Record<string, Attribute>;
}

export const DEBUG_TYPE = 'retro';

/** The secret `retro-debug serve`'s DAP port asks for (with "debugServer"); unused by the extension's own adapter. */
const sharedDapToken = {
  type: 'string',
  description:
    'With "debugServer" (a running `retro-debug serve`): the token from its token file. Not needed otherwise.',
};

/** launch.json's attributes: the connectors' launch options (src/session/launch-options.ts), and the DAP port's token. */
export function launchAttributes(connectors: readonly Connector[]): Schema {
  const { required, properties } = launchJsonAttributes(connectors);
  return { required, properties: { ...properties, dapToken: sharedDapToken } };
}

export const attachAttributes: Schema = {
  properties: {
    sessionId: {
      type: 'string',
      description: 'Session to attach to (e.g. one an AI agent started). Default: the only live session.',
    },
    cwd: jsonAttribute(COMMON_OPTIONS.cwd),
    dapToken: sharedDapToken,
  },
};

/**
 * The `contributes.debuggers[]` entry (minus `program`/`runtime`, which the extension wires inline).
 * Snippets: src/host/launch-snippets.ts; no initialConfigurations — the extension's provider
 * generates them per detected project (a static list here would be written a second time).
 */
export function debuggerContribution(connectors: readonly Connector[]) {
  return {
    type: DEBUG_TYPE,
    label: 'Retro Debug',
    languages: ['c'],
    configurationAttributes: { launch: launchAttributes(connectors), attach: attachAttributes },
  };
}
