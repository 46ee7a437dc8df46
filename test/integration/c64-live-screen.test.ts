// Live frames over MCP on the built-in C64 running a cc65 program: watch_screen returns changed frames with
// growing numbers while the machine runs (never stopping it), screenshot while running is a fresh frame, and a
// stop sends the frame once more, flagged stale.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildCc65Program } from '../support/c64-fixture.js';
import { call, callRaw, connectHttpClient, startHttpServerOn, waitUntilReady } from '../mcp/mcp-helpers.js';

let manager: SessionManager;
let http: HttpMcpServer;
let agent: Client;
let sessionId: string;

before(async () => {
  const dir = await buildCc65Program(join(__dirname, '..', 'fixtures', 'c64', 'live-screen'), ['live.c']);
  manager = new SessionManager({ connectors: CONNECTORS });
  http = await startHttpServerOn(manager, { outputDir: mkdtempSync(join(tmpdir(), 'live-')), profile: 'full' });
  agent = await connectHttpClient(http, 'watcher');
  const started = await call(agent, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: join(dir, 'program.prg'),
    cwd: dir,
  });
  sessionId = started.session_id;
  await waitUntilReady(agent, sessionId);
});

after(async () => {
  await agent?.close().catch(() => undefined);
  await http?.close();
  await manager?.closeAll();
});

test('watch_screen: changed frames with growing numbers while running, as PNG images, and the machine runs on', async () => {
  const status = await call(agent, 'session_status', { session_id: sessionId });
  if (status.state === 'stopped') await call(agent, 'resume', { session_id: sessionId });
  const first = await call(agent, 'watch_screen', { session_id: sessionId, since_frame: 0, max_frames: 4 });
  assert.equal(first.source.mode, 'push');
  assert.equal(first.frames.length, 4);
  const numbers = first.frames.map((f: { frame: number }) => f.frame);
  assert.ok(
    numbers.every((n: number, i: number) => i === 0 || n > numbers[i - 1]),
    `growing: ${numbers}`,
  );
  assert.deepEqual([first.frames[0].width, first.frames[0].maybe_stale], [384, false]);
  const raw = await callRaw(agent, 'watch_screen', {
    session_id: sessionId,
    since_frame: first.last_frame,
    max_frames: 3,
  });
  const images = raw.content.flatMap((c) => (c.type === 'image' ? [c] : []));
  assert.equal(images.length, 3, 'one PNG a frame');
  assert.equal(Buffer.from(images[0].data, 'base64').subarray(1, 4).toString(), 'PNG');
  const next = raw.structuredContent as { frames: { frame: number }[] };
  assert.ok(next.frames[0].frame > first.last_frame, 'only frames after since_frame');
  assert.equal((await call(agent, 'session_status', { session_id: sessionId })).state, 'running');
  const shot = await call(agent, 'screenshot', { session_id: sessionId });
  assert.deepEqual([shot.width, shot.height, shot.maybe_stale], [384, 272, false]);
});

test('a stop sends one more frame, flagged stale; stopped, nothing changes, so a watch waits out its time', async () => {
  await call(agent, 'claim_control', { session_id: sessionId });
  // the newest kept frame, read 8 at a time
  let since = 0;
  for (let page = 0; page < 10; page++) {
    const got = await call(agent, 'watch_screen', {
      session_id: sessionId,
      since_frame: since,
      max_frames: 8,
      wait_ms: 0,
    });
    if (!got.frames.length) break;
    since = got.last_frame;
  }
  const watch = (sinceFrame: number) =>
    call(agent, 'watch_screen', { session_id: sessionId, since_frame: sinceFrame, max_frames: 8, wait_ms: 1500 });
  // A watch under way when the machine stops gets the stop's frame; on a slow machine 8 running frames may fill it
  // before the pause lands, so the frames after it are read on until the stop's frame (never longer than a watch).
  const watching = watch(since);
  await call(agent, 'pause', { session_id: sessionId });
  const first = await watching;
  const frames: { frame: number; maybe_stale: boolean }[] = [...first.frames];
  let last: number = first.last_frame;
  while (!frames.some((f) => f.maybe_stale)) {
    const more = await watch(last);
    if (!more.frames.length) break;
    frames.push(...more.frames);
    last = more.last_frame;
  }
  assert.ok(frames.length >= 1, 'running frames and the stop');
  assert.equal(frames.at(-1)!.maybe_stale, true, 'the last is the one sent at the stop');
  assert.equal(frames.filter((f) => f.maybe_stale).length, 1);
  const t0 = Date.now();
  const idle = await call(agent, 'watch_screen', { session_id: sessionId, since_frame: last, wait_ms: 300 });
  assert.equal(idle.frames.length, 0);
  assert.ok(Date.now() - t0 >= 250, 'it waited for frames that did not come');
  await call(agent, 'resume', { session_id: sessionId });
});
