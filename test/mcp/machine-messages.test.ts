// The built-in C64's own messages reach agents: a program that opens device
// 9 (not present) makes the next MCP reply carry "device not present" in
// machine_messages, once; the DAP still gets it as output.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { call, connectHttpClient, startHttpServerOn, waitUntilReady } from './mcp-helpers.js';

const manager = new SessionManager({ connectors: CONNECTORS });
let server: HttpMcpServer | undefined;

after(async () => {
  await server?.close();
  await manager.closeAll();
});

test('"device not present" from the machine is in the next reply, once', async () => {
  const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'console'), ['console.c']);
  server = await startHttpServerOn(manager, { profile: 'full' });
  const client = await connectHttpClient(server, 'messages-agent');
  const started = await call(client, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: join(dir, 'program.prg'),
    cwd: dir,
  });
  const ready = await waitUntilReady(client, started.session_id);
  assert.equal(ready.machine_messages, undefined, 'nothing said before the program ran');
  await call(client, 'claim_control', { session_id: started.session_id });
  await call(client, 'resume', { session_id: started.session_id });
  const deadline = Date.now() + 30_000;
  let said: string[] | undefined;
  while (!said && Date.now() < deadline) {
    said = (await call(client, 'session_status', { session_id: started.session_id })).machine_messages;
    if (!said) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(
    said?.some((m) => /OPEN of device 9: device not present/.test(m)),
    JSON.stringify(said),
  );
  const again = await call(client, 'session_status', { session_id: started.session_id });
  assert.equal(again.machine_messages, undefined, 'each message is told once per client');
  await client.close();
});
