/**
 * serve's DAP port before authentication (issue 30: 300 tokenless connections raised RSS from 85 to 190 MB): at
 * most a small budget of connections that have not yet passed launch/attach with the dapToken stay open (the
 * oldest is closed for a new one), each only until its deadline.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, test } from 'node:test';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { serveDap, type DapServer } from '../../src/dap/serve.js';
import { SessionManager } from '../../src/session/manager.js';

const manager = new SessionManager({ connectors: CONNECTORS });
const servers: DapServer[] = [];
const sockets: Socket[] = [];
after(async () => {
  sockets.forEach((s) => s.destroy());
  for (const s of servers) await s.close();
  await manager.closeAll();
});

async function open(port: number): Promise<Socket> {
  const s = connect(port, '127.0.0.1');
  s.on('error', () => undefined);
  sockets.push(s);
  await once(s, 'connect');
  return s;
}

test('300 tokenless connections: at most the budget stay open', async () => {
  const server = await serveDap(manager, 0, { token: 'secret', maxUnauthenticated: 16 });
  servers.push(server);
  const all: Socket[] = [];
  for (let i = 0; i < 300; i++) all.push(await open(server.port));
  const closed = all.slice(0, 284).map((s) => (s.closed ? Promise.resolve() : once(s, 'close')));
  await Promise.all(closed); // every one but the last 16 was closed by the server
  assert.equal(all.slice(284).filter((s) => s.closed).length, 0, 'the newest 16 are still open');
});

test('a tokenless connection is closed at its deadline', async () => {
  const server = await serveDap(manager, 0, { token: 'secret', unauthenticatedMs: 300 });
  servers.push(server);
  const s = await open(server.port);
  const started = Date.now();
  await once(s, 'close');
  const waited = Date.now() - started;
  assert.ok(waited >= 250 && waited < 3000, `closed after ${waited} ms`);
});
