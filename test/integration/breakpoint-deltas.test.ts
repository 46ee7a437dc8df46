/**
 * Breakpoint changes reach every client as deltas, never as the whole list: two MCP agents over HTTP (the official
 * SDK client) and VS Code's debug adapter over TCP on one built-in C64 session running a cc65 program. Each change
 * says added / changed / removed with the id, owner and generation; list_breakpoints still gives the whole list.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { MAX_BREAKPOINT_CHANGES } from '../../src/mcp/breakpoint-inbox.js';
import { serveDap, type DapServer } from '../../src/dap/serve.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { RecordingClient } from '../dap/dap-client.js';
import { call, callRaw, connectHttpClient, startHttpServerOn, type Structured } from '../mcp/mcp-helpers.js';

let fx: C64Fixture;
let manager: SessionManager;
let http: HttpMcpServer;
let dap: DapServer;
let alice: Client;
let bob: Client;
const vscode = new RecordingClient();
const aliceTold: string[] = [];

before(async () => {
  fx = await buildC64Fixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  http = await startHttpServerOn(manager);
  dap = await serveDap(manager);
  alice = await connectHttpClient(http, 'alice');
  bob = await connectHttpClient(http, 'bob');
  alice.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void aliceTold.push(String(n.params.data)));
  await call(alice, 'start_session', { machine: 'c64', program: fx.prg, cwd: fx.dir, wait: true });
  await vscode.start(dap.port);
  await vscode.initialize();
  const attached = vscode.attachRequest({ cwd: fx.dir } as DebugProtocol.AttachRequestArguments);
  await vscode.next('initialized', 30_000);
  await vscode.configurationDoneRequest();
  await attached;
});

after(async () => {
  await vscode.stop().catch(() => undefined);
  await Promise.allSettled([alice?.close(), bob?.close()]);
  await http?.close();
  await dap?.close();
  await manager?.closeAll();
});

const changesOf = (reply: Structured) =>
  ((reply.breakpoint_changes ?? []) as Structured[]).map((c) => [c.change, c.id, c.owner.label]);

test("another client's condition that cannot be joined: VS Code hears its own breakpoint changed, agents the deltas", async () => {
  const at = fx.markers.loop_call;
  const mine = await vscode.setBreakpointsRequest({
    source: { path: at.file },
    breakpoints: [{ line: at.line, condition: 'counter == 3' }],
  });
  const dapBp = mine.body.breakpoints[0];
  assert.equal(dapBp.verified, true, dapBp.message);
  const generation = (await call(alice, 'session_status', {})).generation;
  const dapLabel = (await call(alice, 'list_breakpoints', {})).breakpoints[0].owner.label;

  // alone it fits VICE's 255 characters; joined with VS Code's it does not: both fall back to the session
  const long = [200, 201, 202, 203, 204].map((n) => `counter == ${n}`).join(' || ');
  vscode.drain('breakpoint');
  const set = await call(bob, 'set_breakpoint', { file: 'main.c', line: at.line, condition: long });
  const bobBp = set.breakpoint;
  assert.ok((bobBp.native_condition ?? '').length <= 255, bobBp.native_condition);
  assert.match(bobBp.condition_host ?? '', /the emulator refused the compiled condition/);
  assert.deepEqual(changesOf(set), [['changed', dapBp.id, dapLabel]], "bob is told of VS Code's, not of his own");

  const changed = await vscode.next<DebugProtocol.BreakpointEvent>('breakpoint', 10_000);
  assert.equal(changed.body.reason, 'changed');
  assert.equal(changed.body.breakpoint.id, dapBp.id);
  assert.match(changed.body.breakpoint.message ?? '', /^The debugger evaluates the condition at each hit: /);
  await waitFor(
    () => vscode.outputText().includes(`${bobBp.owner.label}: main.c:${at.line} if ${long}`),
    () => `foreign line: ${vscode.outputText()}`,
  );

  const status = await call(alice, 'session_status', {});
  assert.deepEqual(changesOf(status), [
    ['changed', dapBp.id, dapLabel],
    ['added', bobBp.id, bobBp.owner.label],
  ]);
  for (const c of status.breakpoint_changes) {
    assert.equal(c.generation, generation);
    assert.equal(c.session_id, status.session_id);
    assert.equal(c.breakpoint.read_only, true);
  }
  assert.equal(status.breakpoint_changes[1].breakpoint.where, `main.c:${at.line}`);
  assert.match(status.breakpoint_changes[0].breakpoint.condition_host, /refused the compiled condition/);
  assert.ok(
    aliceTold.some((t) => t.includes(`${bobBp.id} (main.c:${at.line}) added, ${bobBp.owner.label}'s`)),
    aliceTold.join('\n'),
  );
  assert.equal((await call(alice, 'session_status', {})).breakpoint_changes, undefined, 'told once');

  vscode.drain('breakpoint');
  const cleared = await call(bob, 'clear_breakpoint', { id: bobBp.id });
  assert.deepEqual(changesOf(cleared), [['changed', dapBp.id, dapLabel]]);
  const back = await vscode.next<DebugProtocol.BreakpointEvent>('breakpoint', 10_000);
  assert.deepEqual(
    [back.body.reason, back.body.breakpoint.id, back.body.breakpoint.message],
    ['changed', dapBp.id, undefined],
  );
  const after = await call(alice, 'session_status', {});
  assert.deepEqual(changesOf(after), [
    ['removed', bobBp.id, bobBp.owner.label],
    ['changed', dapBp.id, dapLabel],
  ]);
  assert.equal(after.breakpoint_changes[0].breakpoint, undefined, 'a removal carries no copy');
  await vscode.setBreakpointsRequest({ source: { path: at.file }, breakpoints: [] });
});

test('many changes: a reply keeps the newest and counts the rest; a closed client’s are removed; the list is whole', async () => {
  await call(alice, 'session_status', {}); // what came before is told
  const extra = MAX_BREAKPOINT_CHANGES + 6;
  const ids: number[] = [];
  for (let i = 0; i < extra; i++) ids.push((await call(bob, 'set_breakpoint', { address: 0x2000 + i })).breakpoint.id);
  const listed = await call(alice, 'list_breakpoints', {});
  assert.deepEqual(
    listed.breakpoints.map((b: Structured) => b.id),
    ids,
    'list_breakpoints has them all',
  );
  assert.equal(listed.breakpoint_changes.length, MAX_BREAKPOINT_CHANGES);
  assert.deepEqual(
    listed.breakpoint_changes.map((c: Structured) => c.id),
    ids.slice(-MAX_BREAKPOINT_CHANGES),
  );
  assert.equal(listed.breakpoint_changes_missed, 6);
  await waitFor(() => vscode.outputText().includes('0x2045'), "VS Code's foreign line");

  // bob ends his MCP session (HTTP DELETE): what he owned goes with it
  await (bob.transport as StreamableHTTPClientTransport).terminateSession();
  await bob.close();
  await waitFor(() => manager.list()[0].listBreakpoints().length === 0, "bob's breakpoints removed");
  const raw = await callRaw(alice, 'session_status', {});
  const gone = raw.structuredContent as Structured;
  assert.equal(gone.breakpoint_changes.length, MAX_BREAKPOINT_CHANGES);
  assert.ok(
    gone.breakpoint_changes.every((c: Structured) => c.change === 'removed' && /^MCP client bob/.test(c.owner.label)),
  );
  assert.equal(gone.breakpoint_changes_missed, 6);
  const text = raw.content[0].type === 'text' ? raw.content[0].text : '';
  assert.match(text, /^Breakpoints of other clients since your last call: \d+ removed \(MCP client bob/);
  assert.match(text, /, and 56 more in breakpoint_changes; 6 earlier ones: list_breakpoints\.\n/);
});

async function waitFor(probe: () => boolean, what: string | (() => string), ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    assert.ok(Date.now() < end, `no ${typeof what === 'string' ? what : what()} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
