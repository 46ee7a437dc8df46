// One session, three clients at once: VS Code's debug adapter (over TCP) and two
// MCP agents (over HTTP). Proves the lease and breakpoint-ownership rules on real
// MAME, including an agent that vanishes without saying goodbye.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ZxFixture } from '../support/zx-fixture.js';
import type { RecordingClient } from '../dap/dap-client.js';
import { startThreeClients, type ThreeClients } from '../support/three-clients.js';
import { call, callExpectingError } from '../mcp/mcp-helpers.js';

const LEASE_MS = 5000;
let rig: ThreeClients;
let fx: ZxFixture;
let manager: ThreeClients['manager'];
let vscode: RecordingClient;
let alice: Client;
let bob: Client;
let sessionId: string;
let aliceBp: number;

before(async () => {
  rig = await startThreeClients(LEASE_MS);
  ({ fx, manager, vscode, alice, bob } = rig);
});

after(async () => {
  await rig?.close();
});

test('all three clients see the same session, stopped at main', async () => {
  const a = await call(alice, 'session_status');
  const b = await call(bob, 'session_status');
  const frames = (await vscode.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  sessionId = a.session_id;
  assert.equal(manager.list().length, 1, 'one session, one MAME');
  assert.equal(b.session_id, a.session_id);
  assert.equal(a.state, 'stopped');
  assert.equal(a.location.function, 'main');
  assert.equal(frames[0].name, 'main');
  assert.equal(frames[0].line, a.location.line);
  assert.match(a.lease.holder.label, /VS Code debug session/);
});

test('agents are refused run control while VS Code holds the lease, by name', async () => {
  const err = await callExpectingError(alice, 'claim_control', {}, 'lease_held');
  assert.match(err.message, /VS Code debug session/);
  await callExpectingError(bob, 'resume', { wait: false }, 'lease_held');
  await callExpectingError(bob, 'write_memory', { address: 0x9000, hex: '01' }, 'lease_held');
});

test("an agent's breakpoint is its own: others see it read-only and cannot clear it", async () => {
  const set = await call(alice, 'set_breakpoint', {
    file: basename(fx.markers.plot_body.file),
    line: fx.markers.plot_body.line,
  });
  aliceBp = set.breakpoint.id;
  assert.equal(set.breakpoint.verified, true);
  const seenByBob = (await call(bob, 'list_breakpoints')).breakpoints.find((b: { id: number }) => b.id === aliceBp);
  assert.equal(seenByBob.read_only, true);
  assert.match(seenByBob.owner.label, /alice/);
  await callExpectingError(bob, 'clear_breakpoint', { id: aliceBp }, 'not_owner');
});

test("VS Code's continue stops at the agent's breakpoint, and every client sees the same stop", async () => {
  vscode.drain('stopped');
  await vscode.continueRequest({ threadId: 1 });
  const stopped = await vscode.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
  assert.equal(stopped.body.reason, 'breakpoint');
  const top = (await vscode.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
  assert.deepEqual([top.name, top.line], ['plot', fx.markers.plot_body.line]);
  const waited = await call(bob, 'wait_for_stop', { timeout_ms: 5000 });
  assert.equal(waited.timed_out, false);
  assert.equal(waited.location.line, fx.markers.plot_body.line);
  assert.deepEqual(waited.stop.breakpoint_ids, [aliceBp]);
});

test('an explicit take-over moves control to the agent; VS Code is then refused by name', async () => {
  const claimed = await call(alice, 'claim_control', { take_over: true });
  assert.match(claimed.lease.holder.label, /alice/);
  await assert.rejects(vscode.continueRequest({ threadId: 1 }), (e: Error) =>
    /held by MCP client alice/.test(e.message),
  );
  await callExpectingError(bob, 'step', { kind: 'over' }, 'lease_held');
  const stepped = await call(alice, 'step', { kind: 'out', timeout_ms: 10_000 });
  assert.equal(stepped.location.function, 'draw');
});

test('an agent that vanishes loses its lease and its breakpoints; VS Code carries on', async () => {
  // alice's process dies: its event stream closes and no request comes again
  const transport = (alice as unknown as { _transport?: { close(): Promise<void> } })._transport;
  await transport?.close();
  const deadline = Date.now() + LEASE_MS * 5;
  const aliceHas = async () =>
    (await call(bob, 'list_breakpoints')).breakpoints.some((b: { id: number }) => b.id === aliceBp);
  let status = await call(bob, 'session_status');
  while ((status.lease || (await aliceHas())) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    status = await call(bob, 'session_status');
  }
  assert.equal(status.lease, undefined, 'the lease lapsed');
  assert.equal(await aliceHas(), false, "alice's breakpoint is gone");
  assert.match(vscode.outputText(), /alice/, 'VS Code was told');
  // nothing stops the program at alice's old breakpoint any more
  vscode.drain('stopped');
  await vscode.continueRequest({ threadId: 1 });
  await new Promise((r) => setTimeout(r, 500));
  const st = await call(bob, 'session_status');
  assert.equal(st.state, 'running', 'no stop at the removed breakpoint');
  await vscode.pauseRequest({ threadId: 1 });
  const paused = await vscode.next<DebugProtocol.StoppedEvent>('stopped', 10_000);
  assert.equal(paused.body.reason, 'pause');
  assert.equal(sessionId, st.session_id);
});
