/**
 * Waits as an agent sees them, with the official SDK client over HTTP and over
 * stdio (one body, transports.ts) on real MAME (the SDCC-built ZX fixture): start_session {wait:true} sends a
 * progress notification per boot phase; a wait sends progress while it lasts
 * and ends server-side when the client cancels; a timed-out resume says so; a
 * failed start and a missing program are errors, not successes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { connectorFor } from '../../src/session/launch-options.js';
const defaultEmulator = (machine: string) => connectorFor(CONNECTORS, machine).kind;
import { PROGRESS_EVERY_MS } from '../../src/mcp/run-control.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { call, callExpectingError, callRaw, type Structured } from './mcp-helpers.js';
import { TRANSPORTS, connectAgent, type ConnectedAgent } from './transports.js';

let fx: ZxFixture;
let manager: SessionManager;
let workDir: string;

before(async () => {
  fx = await buildZxFixture();
  workDir = mkdtempSync(join(tmpdir(), 'mcp-waits-'));
  manager = new SessionManager({ connectors: CONNECTORS, workDir });
});

after(async () => {
  await manager?.closeAll();
  rmSync(workDir, { recursive: true, force: true });
});

/** How many listeners the session's event queue has: each server-side wait adds one while it lasts. */
function listeners(sessionId: string): number {
  const session = manager.get(sessionId) as unknown as { events: { listeners: Set<unknown> } };
  return session.events.listeners.size;
}

const launch = () => ({ machine: 'spectrum', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir });

test('the machine picks its emulator: c64 is the built-in, dos is DOSBox, the rest MAME', () => {
  assert.equal(defaultEmulator('c64'), 'builtin');
  assert.equal(defaultEmulator('dos'), 'dosbox');
  assert.equal(defaultEmulator('spectrum'), 'mame');
});

for (const over of TRANSPORTS)
  describe(`over ${over}`, () => {
    let connected: ConnectedAgent;
    let agent: Client;
    let sessionId: string;
    before(async () => {
      connected = await connectAgent(over, manager, { name: `waiting-agent-${over}`, outputDir: workDir });
      agent = connected.client;
    });
    after(() => connected?.close());

    test('a missing program is named before anything starts', async () => {
      const sessionsBefore = manager.list().length;
      const err = await callExpectingError(agent, 'start_session', { ...launch(), program: 'nope.rom' }, 'not_found');
      assert.match(err.message, /nope\.rom does not exist/);
      assert.equal(manager.list().length, sessionsBefore, 'no session was started');
    });

    test('a start that fails is an error where the agent waits for it', async () => {
      const result = await callRaw(agent, 'start_session', { ...launch(), machine: 'spectrun', wait: true });
      assert.equal(result.isError, true, `a failed boot is no success: ${JSON.stringify(result.content)}`);
      assert.match(JSON.stringify(result.content), /spectrun/, 'the failure names the machine');
    });

    test('start_session {wait:true} notifies each boot phase and returns stopped at main', async () => {
      const progress: Progress[] = [];
      const result = await agent.callTool(
        { name: 'start_session', arguments: { ...launch(), wait: true } },
        undefined,
        {
          timeout: 90_000,
          onprogress: (p) => progress.push(p),
        },
      );
      const sc = result.structuredContent as Structured;
      assert.ok(!result.isError, JSON.stringify(result.content));
      sessionId = sc.session_id;
      assert.equal(sc.phase, 'ready');
      assert.equal(sc.state, 'stopped');
      assert.equal(sc.timed_out, false);
      assert.match(JSON.stringify(result.content), /ready, stopped in main/);
      const messages = progress.map((p) => p.message ?? '');
      assert.ok(
        messages.some((m) => m.startsWith('starting_emulator')),
        `phases notified: ${JSON.stringify(messages)}`,
      );
      assert.ok(
        messages.some((m) => m.startsWith('ready')),
        'the last phase is notified',
      );
      for (let i = 1; i < progress.length; i++)
        assert.ok(progress[i].progress > progress[i - 1].progress, 'increasing');
    });

    test('a timed-out resume {wait:true} says so', async () => {
      const run = await callRaw(agent, 'resume', { wait: true, timeout_ms: 1500 });
      const sc = run.structuredContent as Structured;
      assert.equal(sc.timed_out, true);
      assert.equal(sc.state, 'running');
      assert.match((run.content[0] as { text: string }).text, /No stop within 1500 ms; still running/);
    });

    test('a wait sends progress while it lasts; cancelling it ends the wait on the server', async () => {
      const idle = listeners(sessionId);
      const controller = new AbortController();
      const progress: Progress[] = [];
      const waiting = agent.callTool({ name: 'wait_for_stop', arguments: { timeout_ms: 45_000 } }, undefined, {
        signal: controller.signal,
        timeout: 60_000,
        onprogress: (p) => progress.push(p),
      });
      const deadline = Date.now() + 4 * PROGRESS_EVERY_MS;
      while (!progress.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(progress.length > 0, 'progress arrives while waiting');
      assert.match(progress[0].message ?? '', /still running after \d+ s/);
      assert.ok(listeners(sessionId) > idle, 'the server is waiting');
      const t0 = Date.now();
      controller.abort('the agent gave up');
      await assert.rejects(waiting);
      while (listeners(sessionId) > idle && Date.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 20));
      assert.equal(listeners(sessionId), idle, 'the server-side wait ended with the cancellation');
      assert.ok(Date.now() - t0 < 2000, 'at once, not at its 45 s timeout');
      await call(agent, 'pause', {});
    });

    test('wait_for_stop on an ended session is an error, not "stopped in no source location"', async () => {
      const session = manager.get(sessionId);
      await call(agent, 'stop_session', {});
      assert.equal((await session.status()).state, 'exited');
      // the ended session is no longer the default one: a wait names it
      const result = await callRaw(agent, 'wait_for_stop', { session_id: sessionId, timeout_ms: 1000 });
      assert.equal(result.isError, true, JSON.stringify(result.content));
    });
  });
