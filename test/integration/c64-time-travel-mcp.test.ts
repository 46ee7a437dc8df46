// Time travel over MCP on the built-in C64 (a cc65 game loop with a stray write): last_write finds the C line that
// corrupted `lives` and moves the session there (in_past: true, the variables as they were), history shows the span,
// go_to returns to the present; every reply names the granularity and a stop in the past says so (to another agent
// too); bad input (no address, outside the span, two targets) is refused and the session stays where it was.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { openC64Mcp, type C64Mcp } from '../support/c64-mcp.js';
import { REPO_ROOT, buildCc65Program, findMarkers } from '../support/c64-fixture.js';
import { call, callExpectingError, callRaw, connectHttpClient, waitUntilReady } from '../mcp/mcp-helpers.js';

let mcp: C64Mcp | undefined;
let agent: Client;
/** a second agent on the session: told of the first one's moves as stops it did not cause */
let watcher: Client;
const watcherTold: string[] = [];
let markers: Awaited<ReturnType<typeof findMarkers>>;

before(async () => {
  const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'history'), ['game.c']);
  markers = await findMarkers([join(dir, 'game.c')]);
  mcp = await openC64Mcp(mkdtempSync(join(tmpdir(), 'c64-time-')), 'time-agent');
  agent = mcp.agent;
  const started = await call(agent, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: join(dir, 'program.prg'),
    cwd: dir,
  });
  await waitUntilReady(agent, started.session_id, 60_000);
  watcher = await connectHttpClient(mcp.http, 'time-watcher');
  watcher.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void watcherTold.push(String(n.params.data)));
  await call(watcher, 'session_status', { session_id: started.session_id });
  await call(agent, 'set_breakpoint', { file: 'game.c', line: markers.trail.line, condition: 'frames == 70' });
  const stop = await call(agent, 'resume', { wait: true, timeout_ms: 45_000 });
  assert.equal(stop.location.line, markers.trail.line);
});

after(async () => {
  await watcher?.close().catch(() => undefined);
  await mcp?.close();
});

const value = async (expression: string) =>
  parseInt((await call(agent, 'evaluate', { expression })).result.value as string, 10);

test('last_write names the corrupting C line and moves there; go_to returns to the present', async () => {
  assert.equal(await value('lives'), 64, 'corrupted at frame 64 (the frame count), not written since');
  const found = await call(agent, 'last_write', { expression: 'lives' });
  assert.equal(found.writer.line, markers.corrupt.line);
  assert.equal(found.writer.function, 'corrupt');
  assert.deepEqual([found.old, found.value], [3, 64]);
  assert.equal(found.in_past, true);
  assert.equal(found.stop.in_past, true);
  assert.equal(await value('frames'), 64, 'the globals as they were at the write');

  const span = await call(agent, 'history', {});
  assert.equal(span.in_past, true);
  assert.ok(span.start.frame <= span.now.frame && span.now.frame < span.end.frame, JSON.stringify(span));
  assert.ok(span.bytes <= span.budget.max_bytes);
  const hit = span.stops.find((s: { reason: string; frame: number }) => s.reason === 'breakpoint' && s.frame === 70);
  assert.ok(hit, `the breakpoint hit at frame 70 is listed: ${JSON.stringify(span.stops)}`);

  const back = await call(agent, 'go_to', { present: true });
  assert.equal(back.in_past, false);
  assert.equal(back.location.line, markers.trail.line);
  assert.equal(await value('frames'), 70);
  assert.equal((await call(agent, 'history', {})).in_past, false);
});

test('last_write on a struct field and an array element; go_to a frame', async () => {
  const x = await call(agent, 'last_write', { expression: 'hero.x' });
  assert.equal(x.writer.function, 'main');
  assert.equal(x.value, 20);
  await call(agent, 'go_to', { present: true });
  const trail = await call(agent, 'last_write', { expression: 'trail[5]' });
  assert.equal(trail.writer.line, markers.trail.line);
  assert.equal((await value('frames')) & 7, 5);
  const present = (await call(agent, 'history', {})).end.frame;
  const moved = await call(agent, 'go_to', { frame: present - 20 });
  assert.equal(moved.in_past, true);
  assert.equal((await call(agent, 'history', {})).now.frame, present - 20);
  await call(agent, 'go_to', { present: true });
});

async function until(probe: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !probe(); await new Promise((r) => setTimeout(r, 20)))
    assert.ok(Date.now() < end, `not within ${ms} ms: ${JSON.stringify(watcherTold)}`);
}

/** A tool's reply: the text an agent reads (summary, then the JSON) and the structured data. */
async function reply(name: string, args: Record<string, unknown> = {}) {
  const r = await callRaw(agent, name, args);
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
  const [first] = r.content;
  return { text: first.type === 'text' ? first.text : '', data: r.structuredContent as Record<string, unknown> };
}

test('every time-travel reply names the granularity; a stop in the past says so in every summary', async () => {
  const sentence =
    /Time travel granularity here: exact to the cycle: the built-in C64 keeps a snapshot every \d+ frames/;
  const past = /\(in the past: read-only\)/;
  for (const [name, args] of [
    ['history', {}],
    ['last_write', { expression: 'lives' }],
    ['go_to', { present: true }],
  ] as const) {
    const r = await reply(name, args);
    assert.match(r.text.split('\n')[0], sentence, `${name}'s summary`);
    assert.match(String(r.data.granularity), /^exact to the cycle: /, `${name}'s granularity`);
    if (name === 'last_write') {
      assert.equal(r.data.in_past, true);
      await until(() =>
        watcherTold.some((t) => /stopped in .*\(goto, in the past\), not by a call of this client/.test(t)),
      );
      assert.match((await reply('session_status')).text, past);
      assert.match((await reply('wait_for_stop', { timeout_ms: 1000 })).text, past);
    }
  }
  assert.doesNotMatch((await reply('session_status')).text, past, 'back in the present');
  assert.doesNotMatch((await reply('wait_for_stop', { timeout_ms: 1000 })).text, past);
});

test('bad input is refused and the session stays where it was', async () => {
  const here = (await call(agent, 'session_status', {})).stop.pc;
  await callExpectingError(agent, 'last_write', { expression: '1 + 2' }, 'bad_request');
  await callExpectingError(agent, 'last_write', {}, 'bad_request');
  const outside = await callExpectingError(agent, 'go_to', { cycle: 1 }, 'bad_request');
  assert.match(outside.message, /outside the recorded history/);
  await callExpectingError(agent, 'go_to', { frame: 1, present: true }, 'bad_request');
  const status = await call(agent, 'session_status', {});
  assert.equal(status.stop.pc, here);
  assert.equal((await call(agent, 'history', {})).in_past, false);
});
