/**
 * The HTTP door's bounds: eviction spares a session with an open stream, a
 * refused request cannot hold its connection with a slow body, and two
 * clients with the same name get distinct labels.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, TOOL_GROUPS } from '../../src/connectors/registry.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { INITIALIZE_BODY, JSON_HEADERS, rawRequest, startHttpServerOn } from './mcp-helpers.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';

let manager: SessionManager;
let server: HttpMcpServer;
before(async () => {
  // eviction takes sessions idle for the lease time: a short one here
  manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 300 });
  server = await startHttpServerOn(manager, { maxSessions: 2 });
});
after(async () => {
  await server.close();
  await manager.closeAll();
});

const auth = () => ({ ...JSON_HEADERS, Authorization: `Bearer ${server.token}` });
async function initialize(): Promise<string> {
  const r = await rawRequest(server.url, { headers: auth(), body: INITIALIZE_BODY });
  assert.equal(r.status, 200);
  return String(r.headers['mcp-session-id']);
}
const list = (sid: string) =>
  rawRequest(server.url, {
    headers: { ...auth(), 'Mcp-Session-Id': sid, 'Mcp-Protocol-Version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
  });

test('eviction never drops a session with an open stream', async () => {
  const streaming = await initialize();
  const stream = request(server.url, {
    method: 'GET',
    headers: {
      Authorization: `Bearer ${server.token}`,
      Accept: 'text/event-stream',
      'Mcp-Session-Id': streaming,
      'Mcp-Protocol-Version': '2025-06-18',
    },
  });
  const opened = new Promise<void>((r) => stream.once('response', () => r()));
  stream.end();
  await opened;
  const idle = await initialize();
  assert.equal((await rawRequest(server.url, { headers: auth(), body: INITIALIZE_BODY })).status, 503, 'both at work');
  await new Promise((r) => setTimeout(r, 400)); // the lease time without a request: idle
  await initialize(); // over the cap of 2: the idle one goes, not the streaming one
  assert.equal((await list(streaming)).status, 200, 'the session with an open stream survived');
  assert.equal((await list(idle)).status, 404, 'the idle one was evicted');
  stream.destroy();
});

test('a refused request is answered and its connection closed; a slow body cannot hold it', async () => {
  const port = server.port;
  const got = await new Promise<string>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () =>
      s.write(
        'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong\r\nContent-Type: application/json\r\n' +
          'Content-Length: 1000000\r\n\r\n{',
      ),
    );
    let text = '';
    s.on('data', (d) => (text += d.toString()));
    // cleared at the close: a pending timer would keep the test process alive for the rest of its 3 s
    const timer = setTimeout(() => s.destroy(new Error(`still open after 3 s: ${text}`)), 3000);
    s.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    s.on('error', reject);
  });
  assert.match(got, /^HTTP\/1.1 401/);
});

test('two clients with the same name get distinct labels', async () => {
  const labels: string[] = [];
  for (let i = 0; i < 2; i++) {
    const cs = createMcpServer(manager, { transport: 'test', outputDir: '/tmp', groups: TOOL_GROUPS });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await cs.connect(b);
    const client = new Client({ name: 'same-name', version: '1' });
    await client.connect(a);
    labels.push(cs.connection.label);
    await client.close();
    await cs.close();
  }
  assert.notEqual(labels[0], labels[1]);
  assert.match(labels[1], /same-name #\d+ \(test\)/);
});
