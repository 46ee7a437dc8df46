/**
 * A DAP client attaches over serveDap (TCP) to a session an agent started
 * through the manager: no second MAME, the agent's lease is respected until
 * VS Code takes control explicitly, foreign breakpoints are shown read-only,
 * and disconnecting leaves the emulator running.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { SessionApi } from '../../src/session/types.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { serveDap, type DapServer } from '../../src/dap/serve.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { RecordingClient } from './dap-client.js';

let fx: ZxFixture;
let manager: SessionManager;
let session: SessionApi;
let agent: ClientSession;
let server: DapServer;
let dc: RecordingClient;
const TAKE_OVER =
  "Control is held by MCP client test-agent; click Retro Debug's control item in the status bar (or run 'Retro Debug: Take Control') to take it back.";

before(async () => {
  fx = await buildZxFixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  agent = manager.start(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir, stopOnEntry: true },
    { kind: 'mcp', label: 'MCP client test-agent' },
  );
  session = agent.session;
  await session.waitForStop(60_000);
  server = await serveDap(manager);
  dc = new RecordingClient();
  await dc.start(server.port);
});

after(async () => {
  // The last test already disconnected and the server ended that socket: only close what is left.
  await server?.close();
  await manager?.closeAll();
});

test('attach joins the running session, reports where it stopped, and says who has control', async () => {
  await dc.initialize();
  await agent.setLineBreakpoint(fx.sources[1], fx.markers.plot_body.line);
  const attached = dc.attachRequest({ cwd: fx.dir } as DebugProtocol.AttachRequestArguments);
  await dc.next('initialized', 30_000);
  await dc.configurationDoneRequest();
  await attached;
  const stop = await dc.next<DebugProtocol.StoppedEvent>('stopped', 10_000);
  assert.equal(stop.body.reason, 'entry');
  const top = await dc.topFrame();
  assert.deepEqual([top.name, top.source?.path], ['main', fx.sources[0]]);
  assert.equal(manager.list().length, 1, 'no second session (and so no second MAME)');
  const output = dc.outputText();
  assert.ok(output.includes(TAKE_OVER), output);
  assert.ok(output.includes(`MCP client test-agent: util.c:${fx.markers.plot_body.line}`), output);
});

test("the agent's lease is respected: run control and memory writes are refused naming the holder", async () => {
  await assert.rejects(dc.continueRequest({ threadId: 1 }), (err: Error) => err.message === TAKE_OVER);
  await assert.rejects(dc.nextRequest({ threadId: 1 }), (err: Error) => err.message === TAKE_OVER);
  // pause refuses before its first await: the same sentence, never the JavaScript stack (VS Code showed it in a modal)
  await assert.rejects(dc.pauseRequest({ threadId: 1 }), (err: Error) => err.message === TAKE_OVER);
  await assert.rejects(
    dc.customRequest('writeMemory', { memoryReference: '0x9000', data: 'AQI=' }),
    (err: Error) => err.message === TAKE_OVER,
  );
  assert.equal((await session.status()).state, 'stopped', 'nothing moved');
  // Reads stay free.
  const r = (await dc.customRequest('readMemory', {
    memoryReference: '0',
    count: 2,
  })) as DebugProtocol.ReadMemoryResponse;
  assert.equal(Buffer.from(r.body!.data!, 'base64').length, 2);
});

test('taking control explicitly lets VS Code drive; the agent sees the new holder', async () => {
  await dc.customRequest('retro/takeControl');
  assert.equal((await session.status()).lease?.holder.label, 'VS Code debug session');
  const bps = await dc.setBreakpointsRequest({
    source: { path: fx.sources[0] },
    breakpoints: [{ line: fx.markers.loop_body.line }],
  });
  assert.equal(bps.body.breakpoints[0].verified, true);
  dc.drain('stopped');
  await dc.continueRequest({ threadId: 1 });
  const stop = await dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
  assert.equal(stop.body.reason, 'breakpoint');
  assert.equal((await dc.topFrame()).line, fx.markers.loop_body.line);
  await assert.rejects(agent.resume(), /VS Code debug session/);
});

test('disconnect after attach leaves the emulator running and removes only our breakpoints', async () => {
  await dc.disconnectRequest({ terminateDebuggee: true });
  await new Promise((r) => setTimeout(r, 300));
  const status = await session.status();
  assert.equal(status.phase, 'ready');
  assert.notEqual(status.state, 'exited');
  const left = session.listBreakpoints();
  assert.deepEqual(
    left.map((b) => [b.owner.label, b.line]),
    [['MCP client test-agent', fx.markers.plot_body.line]],
  );
  // The agent can take control back and keep working with the same MAME.
  agent.claimControl();
  const mem = await session.readMemory({ space: 'cpu', offset: 0 }, 4);
  assert.equal(mem.length, 4);
});
