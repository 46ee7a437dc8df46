/**
 * HTTP replies that need no stream are plain JSON; a call that asks for
 * progress keeps its event stream and gets the notifications, also while a
 * plain call runs at the same time on the same MCP session. Official SDK
 * client over a real HTTP server, the built-in C64 with a cc65 program. A JSON
 * reply is let go once sent.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { needsNoStream } from '../../src/mcp/json-replies.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { startHttpServerOn } from './mcp-helpers.js';

let fx: C64Fixture;
let manager: SessionManager;
let server: HttpMcpServer;
let client: Client;
/** the content type of each POST answer, by the JSON-RPC method (or tool) asked */
const replies: { method: string; type: string }[] = [];

before(async () => {
  fx = await buildC64Fixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager);
  client = new Client({ name: 'json-replies', version: '1.0.0' });
  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const msg = JSON.parse(init.body) as { method?: string; id?: unknown; params?: { name?: string } };
      const method = msg.params?.name ?? msg.method ?? '?';
      if (msg.id !== undefined) replies.push({ method, type: res.headers.get('content-type')?.split(';')[0] ?? '' });
    }
    return res;
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
      fetch: recordingFetch,
    }),
  );
});

after(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
  await manager?.closeAll();
});

test('which bodies need a stream: only requests with a progress token', () => {
  assert.equal(needsNoStream({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), true);
  assert.equal(needsNoStream([{ jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 1 } } }]), false);
  assert.equal(needsNoStream(undefined), false, 'a GET keeps its stream');
});

test('plain calls are JSON; a call with progress streams its notifications, also next to a plain one', async () => {
  await client.listTools();
  assert.deepEqual(replies.at(-1), { method: 'tools/list', type: 'application/json' });
  const progress: string[] = [];
  const starting = client.callTool(
    { name: 'start_session', arguments: { machine: 'c64', program: fx.prg, cwd: fx.dir, wait: true } },
    undefined,
    { onprogress: (p) => progress.push(p.message ?? ''), timeout: 60_000 },
  );
  // a plain call while the start waits: answered as JSON, and the streamed call is not disturbed
  const groups = (await client.callTool({ name: 'list_tool_groups', arguments: {} })) as CallToolResult;
  assert.ok(!groups.isError);
  const started = (await starting) as CallToolResult;
  assert.ok(!started.isError, JSON.stringify(started.content));
  assert.ok(progress.length >= 1, 'boot phases arrived as progress');
  const types = Object.fromEntries(replies.map((r) => [r.method, r.type]));
  assert.equal(types.list_tool_groups, 'application/json');
  assert.equal(types.start_session, 'text/event-stream', 'progress asked: streamed');
});

test('a JSON reply is not kept once sent: 200 reads of 64 KiB leave the heap as it was', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const read = async () => {
    const r = (await client.callTool({
      name: 'read_memory',
      arguments: { address: 0, length: 65536 },
    })) as CallToolResult;
    assert.ok(!r.isError, JSON.stringify(r.content));
  };
  for (let i = 0; i < 20; i++) await read();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 200; i++) await read();
  gc();
  const grown = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  // each reply's text is 128 KiB of hex: kept (the SDK's JSON stream entry) that was 26 MB more
  assert.ok(grown < 8, `the heap grew ${grown.toFixed(1)} MB over 200 reads`);
  assert.equal(replies.at(-1)?.type, 'application/json');
});
