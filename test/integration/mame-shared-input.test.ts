// One session, three clients (VS Code's debug adapter and two MCP agents) using
// the raw MAME abilities at once: concurrent mutations are serialized (the
// input queue) or refused (the lease, ownership); an agent killed mid-way
// leaves no breakpoint, watchpoint or held key behind.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ZxFixture } from '../support/zx-fixture.js';
import type { RecordingClient } from '../dap/dap-client.js';
import { startThreeClients, type ThreeClients } from '../support/three-clients.js';
import { call, callExpectingError, type Structured } from '../mcp/mcp-helpers.js';
import { findKeyBuffer, rowAtoG, typedText, waitFor, type KeyBuffer } from '../mcp/mame-helpers.js';

// Long enough that a loaded CI machine does not expire VS Code by accident; short enough to watch alice expire.
const LEASE_MS = 5000;
let rig: ThreeClients;
let fx: ZxFixture;
let vscode: RecordingClient;
let alice: Client;
let bob: Client;
const owned = { breakpoint: 0, watchpoint: 0 };
let keyBuffer: KeyBuffer;
let message = 0;

before(async () => {
  rig = await startThreeClients(LEASE_MS);
  ({ fx, vscode, alice, bob } = rig);
  keyBuffer = await findKeyBuffer(bob);
  message = (await call(bob, 'evaluate', { expression: 'message' })).result.address.offset;
});

after(async () => {
  await rig?.close();
});

test("concurrent resumes from two agents: the lease holder's runs, the other is refused by name", async () => {
  await call(alice, 'claim_control', { take_over: true });
  const [a, b] = await Promise.all([
    call(alice, 'resume', { wait: false }),
    callExpectingError(bob, 'resume', { wait: false }, 'lease_held'),
  ]);
  assert.equal(a.state, 'running');
  assert.match(b.message, /alice/);
  await assert.rejects(vscode.pauseRequest({ threadId: 1 }), (e: Error) => /alice/.test(e.message));
});

test('concurrent key presses of one client are serialized through the input queue, in order', async () => {
  const before = await typedText(bob, keyBuffer);
  const results = await Promise.all(['q', 'w', 'e'].map((key) => call(alice, 'press_key', { key, frames: 2 })));
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['done', 'done', 'done'],
  );
  await waitFor('qwe typed', async () => (await typedText(bob, keyBuffer)) === before + 'qwe');
  await callExpectingError(bob, 'press_key', { key: 'r' }, 'lease_held');
  await callExpectingError(bob, 'type_string', { text: 'r' }, 'lease_held');
});

test("the agent's breakpoint, watchpoint and held key are its own: others see them read-only", async () => {
  const bp = await call(alice, 'set_breakpoint', { file: 'util.c', line: fx.markers.fill_bitmap.line }); // runs only at start
  owned.breakpoint = bp.breakpoint.id;
  const wp = await call(alice, 'set_watchpoint', { address: message, length: 6, kind: 'read' }); // never read
  owned.watchpoint = wp.watchpoint.id;
  const gField = (await call(alice, 'list_ports', { type_class: 'keyboard' })).ports
    .find((p: Structured) => p.tag === ':LINE1')
    .fields.find((f: Structured) => f.name.startsWith('g ')).name;
  assert.equal((await call(alice, 'set_input', { port: ':LINE1', field: gField, value: 1 })).outcome, 'held');
  await waitFor('g down', async () => (await rowAtoG(bob)) === 0x0f);

  const seen = (await call(bob, 'list_watchpoints')).watchpoints.find((w: Structured) => w.id === owned.watchpoint);
  assert.equal(seen.read_only, true);
  assert.match(seen.owner.label, /alice/);
  await callExpectingError(bob, 'clear_watchpoint', { id: owned.watchpoint }, 'not_owner');
  await callExpectingError(bob, 'clear_breakpoint', { id: owned.breakpoint }, 'not_owner');
  await callExpectingError(bob, 'set_input', { port: ':LINE1', field: gField, value: 0 }, 'lease_held');
  const held = (await call(bob, 'list_held_inputs')).held;
  assert.deepEqual(
    held.map((h: Structured) => h.owner.label.includes('alice')),
    [true],
  );
});

test('alice is killed mid-way: her lease, breakpoint, watchpoint and held key all go; VS Code carries on', async () => {
  const transport = (alice as unknown as { _transport?: { close(): Promise<void> } })._transport;
  await transport?.close();
  await waitFor(
    'alice expired',
    async () => {
      const st = await call(bob, 'session_status');
      const bps = (await call(bob, 'list_breakpoints')).breakpoints;
      const wps = (await call(bob, 'list_watchpoints')).watchpoints;
      const held = (await call(bob, 'list_held_inputs')).held;
      return (
        !st.lease && !bps.some((b: Structured) => b.id === owned.breakpoint) && wps.length === 0 && held.length === 0
      );
    },
    LEASE_MS * 6,
  );
  await waitFor('the g key released in MAME', async () => (await rowAtoG(bob)) === 0x1f, 5000);
  assert.match((await call(bob, 'debugger_command', { command: 'wplist' })).lines.join('\n'), /No watchpoints/);
  assert.match(vscode.outputText(), /alice/, 'VS Code was told');
  vscode.drain('stopped');
  await vscode.pauseRequest({ threadId: 1 });
  const paused = await vscode.next<DebugProtocol.StoppedEvent>('stopped', 10_000);
  assert.equal(paused.body.reason, 'pause');
});
