// A tools/call whose arguments are not an object (an array, a string, a number, null) is the client's mistake:
// JSON-RPC -32602 invalid params naming what is wrong, over HTTP as a raw client sends it (the SDK's -32603
// "internal error" before); a well-formed call on the same MCP session still works afterwards.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { INITIALIZE_BODY, JSON_HEADERS, rawRequest, startHttpServerOn } from './mcp-helpers.js';

let manager: SessionManager;
let server: HttpMcpServer;
let headers: Record<string, string>;

before(async () => {
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager);
  const auth = { ...JSON_HEADERS, Authorization: `Bearer ${server.token}` };
  const init = await rawRequest(server.url, { headers: auth, body: INITIALIZE_BODY });
  headers = { ...auth, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
  await rawRequest(server.url, {
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
});

after(async () => {
  await server?.close();
  await manager?.closeAll();
});

async function callWith(args: unknown, id: number) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'list_sessions', arguments: args },
  });
  const reply = await rawRequest(server.url, { headers, body });
  return JSON.parse(reply.body.startsWith('{') ? reply.body : reply.body.replace(/^[\s\S]*?data: /, '')) as {
    id: number;
    error?: { code: number; message: string };
    result?: { isError?: boolean };
  };
}

for (const [label, args] of [
  ['an array', [1, 2]],
  ['an empty array', []],
  ['a string', 'x'],
  ['a number', 5],
  ['null', null],
] as const) {
  test(`arguments that are ${label}: -32602 invalid params naming params.arguments`, async () => {
    const reply = await callWith(args, 7);
    assert.equal(reply.id, 7);
    assert.equal(reply.error?.code, -32602, JSON.stringify(reply));
    assert.match(reply.error?.message ?? '', /^Invalid params: params\.arguments: Invalid input: expected record/);
  });
}

test('the same session then answers well-formed requests', async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} });
  const reply = await rawRequest(server.url, { headers, body });
  assert.match(reply.body, /"name":"start_session"/);
});
