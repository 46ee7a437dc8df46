/**
 * The tool catalog over real MCP (SDK client, Streamable HTTP): profile
 * baselines, load/unload rules, tools/list_changed reaching the client, the
 * per-connection ?profile= query, the group to load named when an unloaded tool is called.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, TOOL_GROUPS } from '../../src/connectors/registry.js';
import { DEFAULT_PROFILE, PROFILES, type Profile } from '../../src/mcp/groups.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { call, callExpectingError, rawRequest, startHttpServerOn } from './mcp-helpers.js';

const CATALOG = ['list_tool_groups', 'load_tool_group'];
const toolsOf = (groups: readonly string[]) =>
  [...CATALOG, ...TOOL_GROUPS.filter((g) => groups.includes(g.name)).flatMap((g) => g.tools.map((t) => t.name))].sort();

let manager: SessionManager;
const servers: HttpMcpServer[] = [];
const clients: Client[] = [];

before(() => {
  manager = new SessionManager({ connectors: CONNECTORS });
});
after(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(servers.map((s) => s.close()));
  await manager.closeAll();
});

async function connect(profile?: Profile, query?: string): Promise<{ client: Client; changes: () => number }> {
  const server = await startHttpServerOn(manager, { profile });
  servers.push(server);
  const client = new Client({ name: 'catalog-test', version: '1.0.0' });
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url + (query ?? '')), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  );
  clients.push(client);
  return { client, changes: () => changes };
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('each profile shows its baseline groups plus the two catalog tools', async () => {
  assert.ok(DEFAULT_PROFILE in PROFILES);
  for (const profile of Object.keys(PROFILES) as Profile[]) {
    const { client } = await connect(profile);
    const listed = await client.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name).sort(), toolsOf(PROFILES[profile]), profile);
    const groups = await call(client, 'list_tool_groups');
    assert.equal(groups.profile, profile);
    for (const g of groups.groups) assert.equal(g.loaded, PROFILES[profile].includes(g.name), `${profile}: ${g.name}`);
  }
});

test('load and unload at run time: list_changed reaches the client; baseline groups stay', async () => {
  const { client, changes } = await connect('static');
  assert.ok((await names(client)).includes('decode_c64_sprites'), 'static has the C64 decoders');
  assert.ok(!(await names(client)).includes('backtrace'));
  const before = changes();
  const loaded = await call(client, 'load_tool_group', { group: 'c' });
  assert.deepEqual(loaded.loaded, ['c']);
  await until(() => changes() > before, 'tools/list_changed after load');
  assert.ok((await names(client)).includes('backtrace'));
  assert.deepEqual((await call(client, 'load_tool_group', { group: 'c' })).loaded, [], 'loading twice is a no-op');

  const err = await callExpectingError(client, 'load_tool_group', { group: 'c64_static', unload: true }, 'bad_request');
  assert.match(err.message, /baseline/);
  await callExpectingError(client, 'load_tool_group', { group: 'session', unload: true }, 'bad_request');
  await callExpectingError(client, 'load_tool_group', { group: 'nope' }, 'not_found');

  const mid = changes();
  assert.deepEqual((await call(client, 'load_tool_group', { group: 'c', unload: true })).unloaded, ['c']);
  await until(() => changes() > mid, 'tools/list_changed after unload');
  assert.ok(!(await names(client)).includes('backtrace'));
  const gone = await callExpectingError(client, 'backtrace', {}, 'not_found');
  assert.match(gone.message, /group "c", which is not loaded.*load_tool_group/, 'the error names the group to load');
  assert.equal(gone.details.group, 'c');
  const typo = await callExpectingError(client, 'bactrace', {}, 'not_found');
  assert.match(typo.message, /did you mean backtrace/);

  // static + all: the transient groups can be unloaded again, the baseline cannot
  await call(client, 'load_tool_group', { group: 'all' });
  assert.deepEqual(await names(client), toolsOf(PROFILES.full));
  const all = await call(client, 'load_tool_group', { group: 'all', unload: true });
  assert.deepEqual(
    all.unloaded.sort(),
    TOOL_GROUPS.map((g) => g.name)
      .filter((n) => !PROFILES.static.includes(n))
      .sort(),
  );
  assert.deepEqual(await names(client), toolsOf(PROFILES.static));
});

test('the full profile allows no partial unloading', async () => {
  const { client } = await connect('full');
  for (const group of ['c', 'c64', 'all']) {
    const err = await callExpectingError(client, 'load_tool_group', { group, unload: true }, 'bad_request');
    assert.match(err.message, /full profile/);
  }
  assert.deepEqual(await names(client), toolsOf(PROFILES.full));
});

test('list_tool_groups {query} finds tools in unloaded groups and says so', async () => {
  const { client } = await connect('minimal');
  const found = await call(client, 'list_tool_groups', { query: 'sprite' });
  assert.equal(found.tools[0].name, 'decode_c64_sprites');
  assert.equal(found.tools[0].group, 'c64_static');
  assert.equal(found.tools[0].loaded, false);
  const petscii = await call(client, 'list_tool_groups', { query: 'petscii text', limit: 3 });
  assert.ok(petscii.tools.some((t: { name: string }) => t.name === 'decode_c64_text'));
});

test('per-connection profile: ?profile= on the endpoint URL; an unknown profile is refused', async () => {
  const { client } = await connect('full', '?profile=minimal');
  assert.deepEqual(await names(client), toolsOf(PROFILES.minimal));
  assert.equal((await call(client, 'list_tool_groups')).profile, 'minimal');
  const server = servers.at(-1)!;
  const res = await rawRequest(server.url + '?profile=everything', {
    headers: {
      Authorization: `Bearer ${server.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Host: `127.0.0.1:${server.port}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    }),
  });
  assert.equal(res.status, 400);
  assert.match(JSON.parse(res.body).error.message, /Unknown tool profile "everything"/);
  assert.equal(server.sessionCount(), 1, 'the refused initialize opened no MCP session');
});
