/**
 * An agent that only POSTs (no GET event stream: optional in the MCP spec) and
 * thinks for a long time between calls, over real HTTP with the official SDK
 * client on the built-in C64 running a cc65 program: it keeps its breakpoints
 * for as long as its MCP session exists, loses only the control lease, and
 * its next reply says so. Once with a minute on an injected clock, once in
 * real time against a short lease; closing the MCP session removes them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import {
  call,
  callExpectingError,
  connectHttpClient,
  startHttpServerOn,
  waitUntilReady,
  type Structured,
} from './mcp-helpers.js';

let programDir: string;
const open: { server: HttpMcpServer; manager: SessionManager }[] = [];

before(async () => {
  programDir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'console'), ['console.c']);
});

after(async () => {
  for (const { server, manager } of open) {
    await server.close();
    await manager.closeAll();
  }
});

/** An SDK client whose transport never opens the GET stream (the server sees a POST-only client). */
async function postOnlyClient(server: HttpMcpServer, name: string): Promise<{ client: Client; gets: () => number }> {
  let gets = 0;
  const postOnly: typeof fetch = (input, init) => {
    if ((init?.method ?? 'GET') === 'GET') {
      gets++;
      return Promise.resolve(new Response(null, { status: 405 }));
    }
    return fetch(input, init);
  };
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
      fetch: postOnly,
    }),
  );
  await client.listTools();
  return { client, gets: () => gets };
}

async function startIdleScenario(managerOpts: { leaseMs?: number; clock?: () => number }, streaming = false) {
  const manager = new SessionManager({ connectors: CONNECTORS, ...managerOpts });
  const server = await startHttpServerOn(manager, { profile: 'full' });
  open.push({ server, manager });
  const { client, gets } = streaming
    ? { client: await connectHttpClient(server, 'streaming-agent'), gets: () => 0 }
    : await postOnlyClient(server, 'thinking-agent');
  const started = await call(client, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: join(programDir, 'program.prg'),
    cwd: programDir,
  });
  const sid = started.session_id as string;
  await waitUntilReady(client, sid);
  const bp = (await call(client, 'set_breakpoint', { session_id: sid, file: 'console.c', line: 14 })).breakpoint;
  assert.equal(bp.verified, true);
  // claimed just before the silence (a slow boot may have let the starter's lease lapse already)
  assert.ok((await call(client, 'claim_control', { session_id: sid })).lease, 'the agent holds the lease');
  return { manager, server, client, sid, bp, gets };
}

/** After the silence: the breakpoint is there, the lease is not, and the first reply says what went. */
async function assertOnlyTheLeaseWent(client: Client, sid: string, bpId: number): Promise<void> {
  const listed = await call(client, 'list_breakpoints', { session_id: sid });
  assert.ok(
    listed.breakpoints.some((b: Structured) => b.id === bpId),
    `the breakpoint survived the silence: ${JSON.stringify(listed.breakpoints)}`,
  );
  assert.equal(listed.lost?.length, 1, `the reply tells what was lost: ${JSON.stringify(listed.lost)}`);
  assert.match(listed.lost[0], /control lease .* lapsed/);
  const status = await call(client, 'session_status', { session_id: sid });
  assert.equal(status.lease, undefined, 'only the lease went');
  assert.equal(status.lost, undefined, 'told once');
  await callExpectingError(client, 'resume', { session_id: sid }, 'no_lease');
  await call(client, 'claim_control', { session_id: sid });
}

test('a POST-only agent idle for 60 s (injected clock) keeps its breakpoints and loses only the lease', async () => {
  let skew = 0;
  const { manager, client, sid, bp, gets } = await startIdleScenario({ clock: () => Date.now() + skew });
  assert.ok(gets() >= 1, 'the client tried the GET stream and was refused: it only POSTs');
  skew += 60_000; // a minute of thinking, without a request
  // the session's sweep (run here, not waited for) finds the lapse and whoever it would drop
  await (manager.get(sid) as unknown as { sweepExpired(): Promise<void> }).sweepExpired();
  await assertOnlyTheLeaseWent(client, sid, bp.id);
  await client.close();
});

test('real time over real HTTP: silent for 4 lease times, the breakpoints stay until the MCP session is deleted', async () => {
  const leaseMs = 400;
  const { manager, client, sid, bp } = await startIdleScenario({ leaseMs });
  await new Promise((r) => setTimeout(r, leaseMs * 4));
  await assertOnlyTheLeaseWent(client, sid, bp.id);
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
  await client.close();
  const session = manager.get(sid);
  for (let i = 0; i < 50 && session.listBreakpoints().length; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(session.listBreakpoints(), [], 'deleting the MCP session removed its breakpoints');
});

test('a client with an open stream keeps its lease while idle; killed (stream gone, no DELETE), it loses all', async () => {
  const leaseMs = 400;
  const { manager, server, client, sid } = await startIdleScenario({ leaseMs }, true);
  await new Promise((r) => setTimeout(r, leaseMs * 4));
  const status = await call(client, 'session_status', { session_id: sid });
  assert.match(status.lease?.holder.label ?? '', /streaming-agent/, 'the open stream kept the lease');
  assert.equal(status.lost, undefined);
  const sessions = server.sessionCount();
  await client.close(); // what a killed client does: its connections end, nobody says DELETE
  const session = manager.get(sid);
  const deadline = Date.now() + leaseMs * 10;
  while (session.listBreakpoints().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(session.listBreakpoints(), [], 'its breakpoint went with its MCP session');
  assert.equal((await session.status()).lease, undefined);
  assert.equal(server.sessionCount(), sessions - 1, 'its MCP session was closed');
});
