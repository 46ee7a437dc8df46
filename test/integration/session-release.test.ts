// Ended sessions let go of their machine: past the few kept for their status (MAX_ENDED), nothing holds a session —
// not the manager's 10-minute keep timer, nor an MCP HTTP session its agent closed (DELETE) — so a farm that starts
// hundreds does not keep hundreds of emulated machines. Checked with WeakRefs and a forced full GC.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Session as Inspector } from 'node:inspector/promises';
import { setFlagsFromString } from 'node:v8';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runInNewContext } from 'node:vm';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, TOOL_GROUPS } from '../../src/connectors/registry.js';
import { startHttpMcpServer } from '../../src/mcp/http.js';
import { buildC64Fixture } from '../support/c64-fixture.js';
import { buildZxFixture } from '../support/zx-fixture.js';
import { call, connectHttpClient } from '../mcp/mcp-helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const SESSIONS = 14; // more than the 8 ended sessions kept for their status

async function collected(refs: WeakRef<object>[]): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
  return refs.filter((r) => r.deref() === undefined).length;
}

test('sessions started and stopped through the API are released past the ones kept', async () => {
  const fx = await buildC64Fixture();
  const manager = new SessionManager({ connectors: CONNECTORS });
  const refs: WeakRef<object>[] = [];
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const { session } = manager.start(
        { machine: 'c64', emulator: 'builtin', program: fx.prg },
        { kind: 'cli', label: 't' },
      );
      await session.waitForStop(30_000);
      await session.stop('test');
      refs.push(new WeakRef(session));
    }
    assert.ok((await collected(refs)) >= SESSIONS - 8, `released: ${await collected(refs)} of ${SESSIONS}`);
  } finally {
    await manager.closeAll();
  }
});

/** How many live objects have `proto` as their prototype (the inspector's queryObjects, after a GC). */
async function liveInstances(proto: object): Promise<number> {
  const inspector = new Inspector();
  inspector.connect();
  try {
    (globalThis as { __countProto?: object }).__countProto = proto;
    const { result } = await inspector.post('Runtime.evaluate', { expression: 'globalThis.__countProto' });
    const { objects } = await inspector.post('Runtime.queryObjects', { prototypeObjectId: result.objectId! });
    const counted = await inspector.post('Runtime.callFunctionOn', {
      objectId: objects.objectId!,
      functionDeclaration: 'function () { return this.length; }',
      returnByValue: true,
    });
    return counted.result.value as number;
  } finally {
    delete (globalThis as { __countProto?: object }).__countProto;
    inspector.disconnect();
  }
}

test('sessions of MCP HTTP agents that leave (DELETE) are released past the ones kept, and so are their MCP servers', async () => {
  const fx = await buildC64Fixture();
  const manager = new SessionManager({ connectors: CONNECTORS });
  const outputDir = mkdtempSync(join(tmpdir(), 'release-out-'));
  const server = await startHttpMcpServer({ manager, port: 0, outputDir, roots: () => [fx.dir], groups: TOOL_GROUPS });
  const refs: WeakRef<object>[] = [];
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const agent = await connectHttpClient(server, `agent-${i}`);
      const started = await call(agent, 'start_session', {
        machine: 'c64',
        emulator: 'builtin',
        program: fx.prg,
        wait: true,
      });
      refs.push(new WeakRef(manager.get(started.session_id as string)));
      await call(agent, 'stop_session', { session_id: started.session_id });
      await (agent.transport as StreamableHTTPClientTransport).terminateSession();
      await agent.close();
    }
    assert.ok((await collected(refs)) >= SESSIONS - 8, `released: ${await collected(refs)} of ${SESSIONS}`);
    // each MCP session's server (its tools' schemas: ~0.6 MB) goes with the DELETE, not after a 30 s grace timer
    assert.equal(server.sessionCount(), 0);
    assert.equal(await liveInstances(McpServer.prototype), 0);
  } finally {
    await server.close();
    await manager.closeAll();
    rmSync(outputDir, { recursive: true, force: true });
  }
});

test('a session stopped while MAME is still starting closes that MAME once it is up, and stays ended', async () => {
  const zx = await buildZxFixture();
  const manager = new SessionManager({ connectors: CONNECTORS });
  try {
    const { session } = manager.start(
      { machine: 'spectrum', emulator: 'mame', program: zx.rom, debugInfo: zx.cdb },
      { kind: 'cli', label: 'quick stopper' },
    );
    await session.stop('stopped at once');
    await manager.startsSettled(); // the launch that was under way has returned, and what followed it
    const st = await session.status();
    assert.deepEqual([st.phase, st.state], ['exited', 'exited'], JSON.stringify(st.progress));
    const children = spawnSync('pgrep', ['-P', String(process.pid), 'mame'], { encoding: 'utf8' }).stdout.trim();
    assert.equal(children, '', 'no MAME left running');
    assert.doesNotThrow(() =>
      manager.start({ machine: 'spectrum', emulator: 'mame', program: zx.rom }, { kind: 'cli', label: 'again' }),
    );
  } finally {
    await manager.closeAll();
  }
});
