/**
 * What an agent pays to see the tools: tools/list per profile, measured with
 * the official SDK client over HTTP and over stdio (one body, transports.ts),
 * failing above its budget; the default profile the same over the bundled
 * CLI's stdio. The envelope and the error block are said once (in the
 * instructions), not in every output schema; the title once; every parameter
 * of the default profile described. Calling a tool of a group not loaded
 * names the group to load, on both transports.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { DEFAULT_PROFILE, PROFILES, type Profile } from '../../src/mcp/groups.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { callExpectingError, connectHttpClient, startHttpServerOn } from './mcp-helpers.js';
import { TRANSPORTS, connectAgent, type ConnectedAgent } from './transports.js';
import { freshBundle } from '../support/bundle.js';

/** Bytes of tools/list JSON each profile may cost (the default was 52,059 before issue 12). */
const BUDGET: Record<Profile, number> = {
  minimal: 8_500,
  static: 34_500,
  live: 16_000,
  raw: 41_500,
  vice: 36_500, // + the history group (time travel on the built-in C64, cpu_history), wave 3
  full: 116_000,
};

let manager: SessionManager;
let server: HttpMcpServer;
const clients: Client[] = [];

before(async () => {
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager);
});
after(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await server.close();
  await manager.closeAll();
});

async function listed(profile: Profile): Promise<{ tools: Tool[]; instructions?: string }> {
  const client = await connectHttpClient({ url: `${server.url}?profile=${profile}`, token: server.token });
  clients.push(client);
  return { tools: (await client.listTools()).tools, instructions: client.getInstructions() };
}

for (const over of TRANSPORTS)
  describe(`over ${over}`, () => {
    const agents: ConnectedAgent[] = [];
    after(() => Promise.all(agents.map((a) => a.close())));
    const agentWith = async (profile: Profile) => {
      const agent = await connectAgent(over, manager, { name: `budget-${over}`, profile });
      agents.push(agent);
      return agent.client;
    };

    test('tools/list per profile stays within its budget', async () => {
      const sizes: Record<string, number> = {};
      for (const profile of Object.keys(PROFILES) as Profile[])
        sizes[profile] = JSON.stringify((await (await agentWith(profile)).listTools()).tools).length;
      console.log(
        `tools/list JSON bytes per profile over ${over}: ${JSON.stringify(sizes)} (default ${DEFAULT_PROFILE})`,
      );
      for (const profile of Object.keys(PROFILES) as Profile[])
        assert.ok(sizes[profile] <= BUDGET[profile], `${profile}: ${sizes[profile]} bytes > budget ${BUDGET[profile]}`);
      assert.ok(sizes.minimal < sizes.static && sizes.static < sizes.full && sizes.live < sizes.full);
    });

    test('a tool of a group not loaded answers with the group to load; a mistyped one with close names', async () => {
      const agent = await agentWith(DEFAULT_PROFILE);
      const hint = await callExpectingError(agent, 'vice_status', {}, 'not_found');
      assert.match(hint.message, /tool group "vice", which is not loaded.*load_tool_group \{"group": "vice"\}/);
      assert.equal(hint.details.group, 'vice');
      const typo = await callExpectingError(agent, 'run_too', {}, 'not_found');
      assert.match(typo.message, /did you mean run_to/);
    });
  });

test('output schemas list the tool fields (required marked), not the envelope or the error block', async () => {
  const { tools, instructions } = await listed('full');
  for (const t of tools) {
    const out = t.outputSchema as { properties?: Record<string, unknown>; anyOf?: { required: string[] }[] };
    assert.ok(out, `${t.name} has an output schema`);
    for (const key of ['session_id', 'build_id', 'generation', 'state', 'error'])
      assert.ok(!(key in (out.properties ?? {})), `${t.name} repeats ${key}`);
    if (out.anyOf) assert.deepEqual(out.anyOf[1], { required: ['error'] }, `${t.name}: a failure is a lone error`);
    assert.ok(!('title' in (t.annotations ?? {})), `${t.name}: title once`);
  }
  const json = JSON.stringify(tools);
  assert.ok(!json.includes('9007199254740991') && !json.includes('"$schema"') && !json.includes('"taskSupport"'));
  const sprites = tools.find((t) => t.name === 'decode_c64_sprites')!;
  assert.deepEqual(
    (sprites.inputSchema.properties as Record<string, unknown>).count,
    { default: 1, type: 'integer', minimum: 1, maximum: 256 },
    'real bounds stay',
  );
  const session = tools.find((t) => t.name === 'session_status')!.outputSchema as unknown as {
    anyOf: { required: string[] }[];
  };
  assert.deepEqual(session.anyOf[0].required, ['phase', 'progress', 'machine', 'emulator']);
  for (const said of [
    'session_id',
    'generation',
    '{error: {code, message, details}}',
    'claim_control',
    'load_tool_group',
  ])
    assert.ok(instructions?.includes(said), `the instructions say ${said}`);
});

test('every parameter of the default profile is described (session_id once, in the instructions)', async () => {
  const { tools, instructions } = await listed(DEFAULT_PROFILE);
  const bare: string[] = [];
  for (const t of tools)
    for (const [name, schema] of Object.entries(t.inputSchema.properties ?? {}))
      if (!(schema as { description?: string }).description && name !== 'session_id') bare.push(`${t.name}.${name}`);
  assert.deepEqual(bare, []);
  assert.match(instructions ?? '', /session_id default the current session/);
});

test('over stdio the default profile costs the same as over HTTP', async () => {
  freshBundle();
  const client = new Client({ name: 'budget', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO_ROOT, 'dist', 'cli.js'), 'mcp'],
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  const overStdio = JSON.stringify((await client.listTools()).tools).length;
  const overHttp = JSON.stringify((await listed(DEFAULT_PROFILE)).tools).length;
  assert.equal(overStdio, overHttp);
  assert.ok(overStdio <= BUDGET[DEFAULT_PROFILE]);
});

test('start_session does not list the options only the user may allow (still accepted: launch-policy test); every mutating tool lists generation', async () => {
  const { tools } = await listed(DEFAULT_PROFILE);
  const input = tools.find((t) => t.name === 'start_session')!.inputSchema as {
    properties: Record<string, { properties?: Record<string, unknown> }>;
  };
  const step = tools.find((t) => t.name === 'step')!.inputSchema.properties!;
  assert.deepEqual(step.generation, { type: 'integer', description: 'stale: refused' });
  for (const t of tools.filter((t) => t.annotations?.readOnlyHint !== true))
    if (!['list_tool_groups', 'load_tool_group', 'start_session', 'stop_session', 'claim_control'].includes(t.name))
      assert.ok('generation' in (t.inputSchema.properties ?? {}), `${t.name} lists generation`);
  for (const key of ['mamePath', 'vicePath', 'media', 'extraArgs'])
    assert.ok(!(key in input.properties), `${key} not listed`);
  const dos = input.properties.dos as { type: string; description: string; properties?: unknown };
  assert.equal(dos.type, 'object');
  assert.ok(!dos.properties && /pid/.test(dos.description) && !/executable/.test(dos.description), 'dos said briefly');
});
