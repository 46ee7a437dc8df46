/**
 * Events an agent did not cause reach it at once as MCP logging notifications
 * and again in its next reply: its lease taken by another client (`lost`), a
 * stop at another client's breakpoint (`events`), the lines of its own logpoints. Two official SDK clients
 * over HTTP on one built-in C64 session running a cc65 program.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { call, connectHttpClient, startHttpServerOn } from './mcp-helpers.js';

let fx: C64Fixture;
let manager: SessionManager;
let server: HttpMcpServer;
let alice: Client;
let bob: Client;
const told: { level: string; data: string }[] = [];
const bobTold: string[] = [];

before(async () => {
  fx = await buildC64Fixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager);
  alice = await connectHttpClient(server, 'alice');
  bob = await connectHttpClient(server, 'bob');
  alice.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    told.push({ level: n.params.level, data: String(n.params.data) });
  });
  bob.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    bobTold.push(String(n.params.data));
  });
});

after(async () => {
  await Promise.allSettled([alice?.close(), bob?.close()]);
  await server?.close();
  await manager?.closeAll();
});

async function until(what: string, probe: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    assert.ok(Date.now() < end, `no ${what} within ${ms} ms: ${JSON.stringify(told)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Bytes a reply's lost + events block may add for one lease taken and one stop by another client. */
const NOTICE_BUDGET = 400;

test('a lease taken and a stop at another client’s breakpoint: told at once, and in the next reply', async () => {
  await call(alice, 'start_session', { machine: 'c64', program: fx.prg, cwd: fx.dir, wait: true });
  await call(bob, 'claim_control', { take_over: true });
  await until('lease notice', () => told.some((t) => /bob.*took the control lease/.test(t.data)));
  assert.equal(told.find((t) => /took the control lease/.test(t.data))!.level, 'warning');

  const bp = await call(bob, 'set_breakpoint', { file: 'util.c', line: fx.markers.scaled.line });
  const hit = await call(bob, 'resume', { wait: true, timeout_ms: 30_000 });
  assert.equal(hit.location.line, fx.markers.scaled.line);
  await until('stop notice', () => told.some((t) => /stopped in add_scaled/.test(t.data)));
  const stop = told.find((t) => /stopped in add_scaled/.test(t.data))!;
  assert.equal(stop.level, 'info');
  assert.match(stop.data, new RegExp(`breakpoint ${bp.breakpoint.id} of MCP client bob`));

  const next = await call(alice, 'session_status', {});
  assert.ok(
    next.lost.some((l: string) => /took the control lease/.test(l)),
    JSON.stringify(next.lost),
  );
  assert.ok(
    next.events.some((e: string) => /stopped in add_scaled/.test(e)),
    JSON.stringify(next.events),
  );
  assert.ok(!next.events.some((e: string) => /took the control lease/.test(e)), 'a loss is said once, in lost');
  // what this typical block (a lease taken, a stop by another client) adds to a reply, as JSON
  const block = JSON.stringify({ lost: next.lost, events: next.events }).length;
  console.log(`lost + events block: ${block} bytes`);
  assert.ok(block <= NOTICE_BUDGET, `${block} bytes > ${NOTICE_BUDGET}`);
  const again = await call(alice, 'session_status', {});
  assert.ok(!('events' in again) && !('lost' in again), 'each is told once');

  // bob's own stop is no news to bob
  const bobNext = await call(bob, 'session_status', {});
  assert.ok(!('events' in bobNext));
});

test('a logpoint tells its owner each line it prints, at once and in the next reply; nobody else', async () => {
  const listed = await call(bob, 'list_breakpoints', {});
  for (const b of listed.breakpoints) await call(bob, 'clear_breakpoint', { id: b.id });
  const log = await call(bob, 'set_breakpoint', {
    file: 'util.c',
    line: fx.markers.add_return.line,
    log_message: 'sum={sum} scaled={scaled}',
  });
  await call(bob, 'set_breakpoint', { file: 'main.c', line: fx.markers.prompt.line });
  const aliceBefore = told.length;
  const stop = await call(bob, 'resume', { wait: true, timeout_ms: 30_000 });
  assert.equal(stop.location.line, fx.markers.prompt.line);
  const lines = bobTold.filter((t) => t.startsWith(`Logpoint ${log.breakpoint.id} in add_scaled`));
  // add_scaled(0, 1) was stopped at its first line, then (10, 2) and (30, 3): sum + value * 10
  assert.deepEqual(
    lines.map((l) => l.replace(/^.*: /, '')),
    ['sum=0 scaled=10', 'sum=10 scaled=20', 'sum=30 scaled=30'],
  );
  // and in the next reply after they were printed: the resume that waited through them
  const kept = (stop.events ?? []).filter((e: string) => /^Logpoint /.test(e));
  assert.equal(kept.length, 3, JSON.stringify(stop.events));
  assert.ok(!told.slice(aliceBefore).some((t) => /^Logpoint /.test(t.data)), "alice is not told of bob's logpoint");
});
