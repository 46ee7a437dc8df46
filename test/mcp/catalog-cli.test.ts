/** The headless CLI's --profile flag: default profile over stdio, a chosen one, and a refused unknown one. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEFAULT_PROFILE, PROFILES } from '../../src/mcp/groups.js';
import { TOOL_GROUPS } from '../../src/connectors/registry.js';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { freshBundle } from '../support/bundle.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const expected = (profile: keyof typeof PROFILES) =>
  [
    'list_tool_groups',
    'load_tool_group',
    ...TOOL_GROUPS.filter((g) => PROFILES[profile].includes(g.name)).flatMap((g) => g.tools.map((t) => t.name)),
  ].sort();

before(() => {
  freshBundle();
});

async function listedTools(args: string[]): Promise<string[]> {
  const client = new Client({ name: 'cli-profile', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], stderr: 'pipe' }),
  );
  try {
    return (await client.listTools()).tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

test('retro-debug mcp starts with the default profile, or the one --profile names', async () => {
  assert.deepEqual(await listedTools([]), expected(DEFAULT_PROFILE));
  assert.deepEqual(await listedTools(['--profile', 'static']), expected('static'));
});

test('an unknown --profile is a usage error naming the profiles', () => {
  const run = spawnSync(process.execPath, [CLI, 'mcp', '--profile', 'everything'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--profile must be one of minimal, static, live/);
});
