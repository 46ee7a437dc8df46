/**
 * The screen refresh rate through the VICE connector: over VICE's binary monitor as the built-in C64 serves it
 * (byte-faithful; the connector cannot tell it from x64sc, so every frame while running is a stop) and on a real
 * x64sc when X64SC names one. The launch's screenRefreshFps bounds the frames a viewer asking 30 a second gets, the
 * panel's choice changes it (off: no capture while running, a frame at the stop), a second screenshot within the
 * period is the first given again, the cost is the measured one; the built-in's own push source has no such rate.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { ScreenFrame, Target } from '../../src/core/target.js';
import { SessionManager } from '../../src/session/manager.js';
import type { ClientSession } from '../../src/session/types.js';
import { ScreenController } from '../../src/ui/screen-controller.js';
import type { HostMessage } from '../../src/ui/screen-messages.js';
import { buildCc65Program } from '../support/c64-fixture.js';
import { call, callRaw, connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';

const X64SC = process.env.X64SC;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
before(async () => {
  dir = await buildCc65Program(join(__dirname, '..', 'fixtures', 'c64', 'live-screen'), ['live.c']);
});

/** Counts the target's captures (each one a stop of a running VICE). */
function countCaptures(client: ClientSession): { count: () => number } {
  const screen = (client.session as unknown as { target: Target }).target.screen!;
  const capture = screen.capture.bind(screen);
  let n = 0;
  screen.capture = (opts) => {
    n++;
    return capture(opts);
  };
  return { count: () => n };
}

for (const where of ['builtin-monitor', ...(X64SC ? ['x64sc' as const] : [])] as const) {
  describe(`VICE connector on ${where === 'x64sc' ? `a real x64sc (${X64SC})` : "the built-in's VICE monitor"}`, () => {
    let manager: SessionManager;
    let server: BuiltinMonitorServer | undefined;
    let client: ClientSession;
    let captures: { count: () => number };

    before(async () => {
      manager = new SessionManager({ connectors: CONNECTORS });
      const program = join(dir, 'program.prg');
      let attach: Record<string, unknown> = { vicePath: X64SC };
      if (where === 'builtin-monitor') {
        server = new BuiltinMonitorServer();
        attach = { viceMonitor: `127.0.0.1:${await server.listen()}` };
      }
      client = manager.start(
        { machine: 'c64', emulator: 'vice', program, cwd: dir, screenRefreshFps: 2, ...attach },
        { kind: 'cli', label: 'refresh test' },
      );
      await client.whenReady(60_000);
      if ((await client.session.status()).state === 'stopped') await client.resume();
      captures = countCaptures(client);
    });

    after(async () => {
      await manager?.closeAll();
      await server?.close();
    });

    test('the launch rate (2) bounds a viewer asking 30; each frame is a measured stop', async (t) => {
      const source = client.session.frameSource();
      assert.deepEqual([source.mode, source.rates, source.refreshFps], ['stop', [0, 1, 2, 5], 2]);
      const frames: ScreenFrame[] = [];
      const off = client.session.watchScreen({ fps: 30 }, (f) => frames.push(f));
      const start = captures.count();
      await sleep(2000);
      off();
      const taken = captures.count() - start;
      assert.ok(taken >= 2 && taken <= 6, `2 a second for 2 s (and the first), got ${taken}`);
      assert.ok(frames.length >= 2, `the picture moves (the program's tick): ${frames.length} frames`);
      assert.ok(frames.every((f) => !f.maybeStale));
      const measured = client.session.frameSource().measured!;
      assert.ok(measured.samples >= 2 && measured.stopMs > 0, JSON.stringify(measured));
      t.diagnostic(`${where}: ${client.session.frameSource().cost} (${measured.samples} stops measured)`);
      assert.match(client.session.frameSource().cost, /^refresh 2 frames\/s; each frame stops the C64 ~\d+\.\d ms; /);
      assert.equal((await client.session.status()).state, 'running', 'hidden stops: the clients see it running');
    });

    test('a second screenshot within the period is the first one again; after it, a new stop', async () => {
      await sleep(600);
      const start = captures.count();
      const first = await client.session.screenshot();
      const again = await client.session.screenshot();
      assert.equal(captures.count() - start, 1, 'one stop for two screenshots within 0.5 s');
      assert.equal(first.ageMs, undefined);
      assert.ok(again.ageMs !== undefined && again.ageMs < 500, `given again, ${again.ageMs} ms old`);
      assert.deepEqual([again.width, again.height], [384, 272]);
      await sleep(550);
      assert.equal((await client.session.screenshot()).ageMs, undefined, 'a new one after the period');
      assert.equal(captures.count() - start, 2);
    });

    test('MCP: watch_screen keeps within the rate and says it; a screenshot given again says so', async () => {
      const http = await startHttpServerOn(manager, { profile: 'full' });
      const agent = await connectHttpClient(http, 'refresh agent');
      try {
        const start = captures.count();
        const got = await call(agent, 'watch_screen', { max_frames: 8, wait_ms: 1500 });
        assert.equal(got.source.refresh_fps, 2);
        assert.match(got.source.cost, /^refresh 2 frames\/s; each frame stops the C64/);
        const taken = captures.count() - start;
        assert.ok(taken <= 5, `2 a second for 1.5 s, not the 25 watch_screen asks: ${taken}`);
        await sleep(600);
        await call(agent, 'screenshot', {});
        const again = await callRaw(agent, 'screenshot', {});
        const text = again.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join(' ');
        assert.match(text, /taken \d+ ms ago: within the refresh period/);
      } finally {
        await agent.close();
        await http.close();
      }
    });

    test('the panel offers the choice; off: nothing taken while running, one frame at the pause; 3 refused', async () => {
      const posted: HostMessage[] = [];
      const panel = new ScreenController({ sessions: manager, post: (m) => posted.push(m) });
      await panel.handleMessage({ type: 'ready' });
      const source = posted.find((m) => m.type === 'source');
      assert.ok(source && source.type === 'source');
      assert.deepEqual([source.rates, source.fps], [[0, 1, 2, 5], 2]);
      await panel.handleMessage({ type: 'refresh-rate', fps: 0 });
      const now = posted.filter((m) => m.type === 'source').at(-1);
      assert.ok(now?.type === 'source' && now.fps === 0 && /^refresh off/.test(now.cost));
      await sleep(600); // a capture under way ends
      const start = captures.count();
      const rawBefore = posted.filter((m) => m.type === 'raw').length;
      await sleep(1500);
      assert.equal(captures.count(), start, 'off: no stop for frames while running');
      client.claimControl();
      await client.pause();
      await client.session.waitForStop(10_000);
      for (let i = 0; i < 100 && posted.filter((m) => m.type === 'raw').length === rawBefore; i++) await sleep(20);
      const raw = posted.filter((m) => m.type === 'raw').at(-1);
      assert.ok(raw?.type === 'raw' && raw.maybeStale, 'a frame at the stop, flagged stale');
      await panel.handleMessage({ type: 'refresh-rate', fps: 3 });
      const refusal = posted.filter((m) => m.type === 'status').at(-1);
      assert.ok(refusal?.type === 'status' && /one of 0, 1, 2, 5/.test(refusal.message), JSON.stringify(refusal));
      panel.dispose();
    });
  });
}

test("the built-in's push source has no refresh rate: the launch option is not its, the choice unsupported", async () => {
  const manager = new SessionManager({ connectors: CONNECTORS });
  try {
    const client = manager.start(
      { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), cwd: dir },
      { kind: 'cli', label: 'push test' },
    );
    await client.whenReady(60_000);
    const source = client.session.frameSource();
    assert.deepEqual([source.mode, source.rates, source.refreshFps], ['push', undefined, undefined]);
    assert.throws(
      () => client.session.setScreenRefresh(1),
      (e: { code: string; message: string }) => e.code === 'unsupported' && /no stop/.test(e.message),
    );
  } finally {
    await manager.closeAll();
  }
});
