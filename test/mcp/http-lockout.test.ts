/**
 * The HTTP door's budgets (issue 30): a same-user process without the token holding 300 connections cannot lock
 * the real client out — tokenless connections have a small budget of their own (the oldest closed for a new one)
 * and a short deadline, never the authenticated clients' 128 slots; and MCP sessions at work are never evicted
 * for load: with more clients than maxSessions, each keeps working, and a new one beyond gets 503 while all are busy.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { after, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { SessionManager } from '../../src/session/manager.js';
import { connectHttpClient, startHttpServerOn } from './mcp-helpers.js';

const cleanup: (() => Promise<unknown> | void)[] = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function server(opts: Parameters<typeof startHttpServerOn>[1] = {}): Promise<HttpMcpServer> {
  const manager = new SessionManager({ connectors: CONNECTORS });
  const s = await startHttpServerOn(manager, opts);
  cleanup.push(
    () => manager.closeAll(),
    () => s.close(),
  );
  return s;
}

async function hold(port: number, n: number): Promise<Socket[]> {
  const sockets = await Promise.all(
    Array.from({ length: n }, async () => {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => undefined);
      await once(s, 'connect');
      return s;
    }),
  );
  cleanup.push(() => sockets.forEach((s) => s.destroy()));
  return sockets;
}

test('300 tokenless connections held open: the real client still initializes at once', async () => {
  const s = await server();
  // the floor: the same client's initialize and tools/list on the same server, with no one else
  let started = Date.now();
  const first: Client = await connectHttpClient(s, 'real-client');
  const floor = Date.now() - started;
  await first.close();
  const held = await hold(s.port, 300);
  started = Date.now();
  const client: Client = await connectHttpClient(s, 'real-client');
  cleanup.push(() => client.close());
  const took = Date.now() - started;
  console.log(`initialize + tools/list: ${took} ms with 300 tokenless connections held, ${floor} ms alone`);
  assert.ok(took < 3 * floor + 1000, `took ${took} ms (alone: ${floor} ms)`);
  // the door keeps at most its small tokenless budget of them open
  await new Promise((r) => setImmediate(r));
  const open = held.filter((h) => !h.destroyed && h.readyState === 'open').length;
  assert.ok(open < 300, `${open} of 300 tokenless connections still open`);
});

test('a tokenless connection is closed at its deadline; a connection with the token is not', async () => {
  const s = await server({ unauthenticatedMs: 300 });
  const [idle] = await hold(s.port, 1);
  const started = Date.now();
  await once(idle, 'close');
  const waited = Date.now() - started;
  assert.ok(waited >= 250 && waited < 3000, `closed after ${waited} ms`);
  const client = await connectHttpClient(s, 'slow-thinker');
  cleanup.push(() => client.close());
  await new Promise((r) => setTimeout(r, 600));
  assert.ok(
    (await client.listTools()).tools.length > 0,
    'its keep-alive connection outlived the deadline or reconnected',
  );
});

test('more clients than maxSessions at work: none is evicted; one more is refused with 503 while all are busy', async () => {
  const s = await server({ maxSessions: 4 });
  const clients = await Promise.all([1, 2, 3, 4].map((k) => connectHttpClient(s, `worker ${k}`)));
  cleanup.push(() => Promise.all(clients.map((c) => c.close())));
  await assert.rejects(connectHttpClient(s, 'fifth'), /503|in use/);
  for (const c of clients) assert.ok((await c.listTools()).tools.length > 0, 'still there');
  assert.equal(s.sessionCount(), 4);
});
