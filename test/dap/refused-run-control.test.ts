/**
 * A user's run control refused because an agent holds the lease, with a host that tells the user itself (the
 * inline adapter in VS Code, whose command palette turns any failed request into a modal dialog): the request is
 * answered as done, the host hears the one sentence naming the holder, a refused step reports the stop again
 * (VS Code waits for one), and nothing moves. Writes still fail as before. On the built-in C64 and cc65's program.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { serveDap, type DapServer } from '../../src/dap/serve.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { RecordingClient } from './dap-client.js';

let fx: C64Fixture;
let manager: SessionManager;
let agent: ClientSession;
let server: DapServer;
let dc: RecordingClient;
const told: string[] = [];
const SENTENCE =
  "Control is held by MCP client test-agent; click Retro Debug's control item in the status bar (or run 'Retro Debug: Take Control') to take it back.";

before(async () => {
  fx = await buildC64Fixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  agent = manager.start(
    { machine: 'c64', emulator: 'builtin', program: fx.prg, debugInfo: fx.dbg, cwd: fx.dir, stopOnEntry: true },
    { kind: 'mcp', label: 'MCP client test-agent' },
  );
  await agent.session.waitForStop(60_000);
  server = await serveDap(manager, 0, { onRefused: (sentence) => told.push(sentence) });
  dc = new RecordingClient();
  await dc.start(server.port);
  await dc.initialize();
  const attached = dc.attachRequest({ cwd: fx.dir } as DebugProtocol.AttachRequestArguments);
  await dc.next('initialized', 30_000);
  await dc.configurationDoneRequest();
  await attached;
  await dc.next('stopped', 10_000);
});

after(async () => {
  await dc?.stop().catch(() => undefined);
  await server?.close();
  await manager?.closeAll();
});

test('a refused step is answered, told once to the host, and the stop is reported again', async () => {
  const before = await agent.session.status();
  await dc.nextRequest({ threadId: 1 });
  const again = await dc.next<DebugProtocol.StoppedEvent>('stopped', 10_000);
  assert.deepEqual(told, [SENTENCE]);
  assert.equal(again.body.threadId, 1);
  const now = await agent.session.status();
  assert.deepEqual([now.state, now.pc], ['stopped', before.pc], 'nothing moved');
  assert.equal(now.lease?.holder.label, 'MCP client test-agent');
});

test('a refused pause while the agent runs is answered and told; the machine runs on', async () => {
  told.length = 0;
  await agent.resume();
  await dc.pauseRequest({ threadId: 1 });
  assert.deepEqual(told, [SENTENCE]);
  assert.equal((await agent.session.status()).state, 'running');
  await agent.pause();
});

test('a refused write is still an error (the host tells only run control)', async () => {
  told.length = 0;
  await assert.rejects(
    dc.customRequest('writeMemory', { memoryReference: '0xc000', data: 'AQI=' }),
    (err: Error) => err.message === SENTENCE,
  );
  assert.deepEqual(told, []);
});
