/**
 * MCP over Streamable HTTP with the official SDK client against real MAME
 * running the ZX fixture ROM: the security checks, the session tools, C-level
 * debugging, raw memory, the screen, and bad input that must leave the
 * session intact.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PNG } from 'pngjs';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, findTool } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { catalogTools } from '../../src/mcp/tools/catalog.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import {
  INITIALIZE_BODY,
  JSON_HEADERS,
  call,
  callExpectingError,
  callRaw,
  connectHttpClient,
  rawRequest,
  startHttpServerOn,
  waitUntilReady,
  type Structured,
} from './mcp-helpers.js';

let fx: ZxFixture;
let manager: SessionManager;
let server: HttpMcpServer;
let outDir: string;
let a: Client; // the agent that starts the session and holds the lease
let b: Client; // a second agent without the lease
let sessionId: string;
let bpId: number;
const line = (name: string) => fx.markers[name].line;
const fileOf = (loc: Structured | undefined) => loc && basename(loc.path ?? loc.file);

before(async () => {
  fx = await buildZxFixture();
  outDir = mkdtempSync(join(tmpdir(), 'mcp-http-out-'));
  manager = new SessionManager({ connectors: CONNECTORS, workDir: mkdtempSync(join(tmpdir(), 'mcp-http-work-')) });
  server = await startHttpServerOn(manager, { outputDir: outDir });
});

after(async () => {
  await a?.close().catch(() => undefined);
  await b?.close().catch(() => undefined);
  await server?.close();
  await manager?.closeAll();
  rmSync(outDir, { recursive: true, force: true });
});

test('HTTP guard: 401 without or with a wrong token, 403 for a foreign Host or Origin, 404 for an unknown session', async () => {
  const url = server.url;
  const auth = { Authorization: `Bearer ${server.token}` };
  const noToken = await rawRequest(url, { headers: JSON_HEADERS, body: INITIALIZE_BODY });
  assert.equal(noToken.status, 401);
  assert.match(String(noToken.headers['www-authenticate']), /Bearer/);
  assert.equal(noToken.headers['access-control-allow-origin'], undefined, 'no CORS headers');
  assert.equal(
    (
      await rawRequest(url, {
        headers: { ...JSON_HEADERS, Authorization: `Bearer ${server.token.slice(1)}x` },
        body: INITIALIZE_BODY,
      })
    ).status,
    401,
  );
  assert.equal(
    (await rawRequest(url, { headers: { ...JSON_HEADERS, ...auth, Host: 'evil.example:80' }, body: INITIALIZE_BODY }))
      .status,
    403,
  );
  assert.equal(
    (
      await rawRequest(url, {
        headers: { ...JSON_HEADERS, ...auth, Origin: 'https://evil.example' },
        body: INITIALIZE_BODY,
      })
    ).status,
    403,
  );
  const unknown = await rawRequest(url, {
    headers: { ...JSON_HEADERS, ...auth, 'Mcp-Session-Id': 'no-such-session' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  assert.equal(unknown.status, 404);
  const good = await rawRequest(url, {
    headers: { ...JSON_HEADERS, ...auth, Origin: 'http://127.0.0.1:1234' },
    body: INITIALIZE_BODY,
  });
  assert.equal(good.status, 200, 'a good token and loopback origin initialize fine');
  assert.ok(good.headers['mcp-session-id'], 'stateful: a session id is issued');
  assert.equal(server.port, Number(new URL(url).port));
  assert.equal(new URL(url).hostname, '127.0.0.1');
});

test('tools are listed with input and output schemas and annotations that say what they do', async () => {
  a = await connectHttpClient(server, 'agent-a');
  const { tools } = await a.listTools();
  const names = tools.map((t) => t.name);
  for (const n of [
    'start_session',
    'session_status',
    'stop_session',
    'claim_control',
    'wait_for_stop',
    'set_breakpoint',
    'clear_breakpoint',
    'list_breakpoints',
    'resume',
    'pause',
    'step',
    'backtrace',
    'list_variables',
    'evaluate',
    'read_registers',
    'read_memory',
    'write_memory',
    'screenshot',
    'list_tool_groups',
  ]) {
    assert.ok(names.includes(n), `missing tool ${n}`);
  }
  for (const t of tools) {
    assert.equal(t.outputSchema?.type, 'object', `${t.name} output schema`);
    // hints equal to the MCP defaults are left out (schema-compact.ts): read with the defaults, they say what the tool declares
    const an = t.annotations ?? {};
    const def = findTool(t.name) ?? catalogTools.find((c) => c.name === t.name);
    assert.ok(def, `${t.name} is a known tool`);
    assert.equal(an.readOnlyHint ?? false, def.annotations.readOnly, `${t.name}.readOnlyHint`);
    if (!def.annotations.readOnly) {
      assert.equal(an.destructiveHint ?? true, def.annotations.destructive, `${t.name}.destructiveHint`);
      assert.equal(an.idempotentHint ?? false, def.annotations.idempotent, `${t.name}.idempotentHint`);
    }
    assert.equal(an.openWorldHint ?? true, def.annotations.openWorld, `${t.name}.openWorldHint`);
    assert.ok(!('title' in an), `${t.name}: the title is sent once`);
  }
  assert.equal(tools.find((t) => t.name === 'read_memory')!.annotations!.readOnlyHint, true);
  assert.equal(tools.find((t) => t.name === 'write_memory')!.annotations!.readOnlyHint ?? false, false);
  assert.equal(
    tools.find((t) => t.name === 'screenshot')!.annotations!.readOnlyHint,
    true,
    'a screenshot changes nothing',
  );
  const groups = await call(a, 'list_tool_groups');
  assert.deepEqual(groups.groups.map((g: Structured) => g.name).slice(0, 5), [
    'session',
    'c',
    'history',
    'state',
    'memory',
  ]); // later issues append groups
  assert.equal(groups.session_id, null, 'no session yet');
});

test('start_session returns at once; session_status shows boot progress until stopped at main', async () => {
  const t0 = Date.now();
  const started = await call(a, 'start_session', {
    machine: 'spectrum',
    emulator: 'mame',
    program: fx.rom,
    debugInfo: fx.cdb,
    cwd: fx.dir,
    stopOnEntry: true,
  });
  assert.ok(Date.now() - t0 < 5000, 'start_session does not wait for the boot');
  sessionId = started.session_id;
  assert.match(sessionId, /\S/);
  assert.notEqual(started.phase, 'ready');
  const st = await waitUntilReady(a, sessionId);
  assert.equal(st.location.function, 'main');
  assert.equal(fileOf(st.location), 'main.c');
  assert.ok(st.progress.length >= 2, 'boot progress is reported');
  assert.equal(st.lease.held_by_you, true, 'the starter holds the lease');
  assert.match(st.build_id, /\S/);
  assert.equal(typeof st.generation, 'number');
  await callExpectingError(a, 'start_session', { program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir }, 'session_exists');
});

test('a second client reads freely but cannot mutate without the lease', async () => {
  b = await connectHttpClient(server, 'agent-b');
  const st = await call(b, 'session_status');
  assert.equal(st.session_id, sessionId);
  assert.equal(st.lease.held_by_you, false);
  assert.match(st.lease.holder.label, /agent-a/);
  const w = await callExpectingError(b, 'write_memory', { address: 0xc000, hex: '00' }, 'lease_held');
  assert.match(w.message, /agent-a/, 'the refusal names the holder');
  await callExpectingError(b, 'resume', {}, 'lease_held');
  const held = await callExpectingError(b, 'claim_control', {}, 'lease_held');
  assert.match(held.message, /agent-a/, 'the refusal names the holder');
  await callExpectingError(b, 'stop_session', {}, 'not_owner');
  assert.equal((await call(b, 'session_status')).state, 'stopped', 'session intact');
});

test('set_breakpoint by marker line; resume + wait hits it with the right file:line', async () => {
  const set = await call(a, 'set_breakpoint', { file: fx.markers.loop_body.file, line: line('loop_body') });
  assert.equal(set.breakpoint.verified, true);
  assert.equal(set.breakpoint.line, line('loop_body'));
  assert.equal(set.moved, false);
  bpId = set.breakpoint.id;
  const hit = await call(a, 'resume', { wait: true, timeout_ms: 30_000 });
  assert.equal(hit.state, 'stopped');
  assert.equal(hit.timed_out, false);
  assert.equal(hit.stop.reason, 'breakpoint');
  assert.equal(hit.location.line, line('loop_body'));
  assert.equal(fileOf(hit.location), 'main.c');
  assert.equal(hit.location.function, 'main');
  const again = await call(a, 'wait_for_stop', { timeout_ms: 1000 });
  assert.equal(again.timed_out, false, 'already stopped: wait_for_stop answers at once');
  assert.equal(again.location.line, line('loop_body'));
});

test('list_breakpoints shows owners; others see them read-only and cannot clear them', async () => {
  const mine = await call(a, 'list_breakpoints');
  const theirs = await call(b, 'list_breakpoints');
  assert.equal(mine.breakpoints.find((x: Structured) => x.id === bpId).read_only, false);
  const seenByB = theirs.breakpoints.find((x: Structured) => x.id === bpId);
  assert.equal(seenByB.read_only, true);
  assert.match(seenByB.owner.label, /agent-a/);
  await call(b, 'claim_control', { take_over: true });
  await callExpectingError(b, 'clear_breakpoint', { id: bpId }, 'not_owner');
  await call(b, 'claim_control', { release: true });
  const back = await call(a, 'claim_control');
  assert.equal(back.lease.held_by_you, true);
  assert.ok(
    (await call(a, 'list_breakpoints')).breakpoints.some((x: Structured) => x.id === bpId),
    'still there',
  );
});

test('globals are typed and the counter increments on the next loop pass', async () => {
  const globals = await call(a, 'list_variables', { scope: 'globals' });
  const counter = globals.variables.find((v: Structured) => v.name === 'counter');
  assert.match(counter.type, /unsigned char/);
  const origin = globals.variables.find((v: Structured) => v.name === 'origin');
  assert.match(origin.value, /3/);
  assert.ok(
    origin.children.some((c: Structured) => c.name === 'y' && c.numeric === -4),
    'struct members are typed values',
  );
  const before = counter.numeric as number;
  const hit = await call(a, 'resume', { wait: true, timeout_ms: 30_000 });
  assert.equal(hit.location.line, line('loop_body'));
  const after = await call(a, 'evaluate', { expression: 'counter' });
  assert.equal(after.result.numeric, (before + 1) & 0xff);
});

test('step_over, step_into, backtrace, locals and step_out move through the source as expected', async () => {
  const over = await call(a, 'step', { kind: 'over' });
  assert.equal(over.state, 'stopped');
  assert.equal(over.location.line, line('call_draw'));
  let into = await call(a, 'step', { kind: 'into' });
  assert.equal(into.location.function, 'draw');
  assert.equal(fileOf(into.location), 'util.c');
  if (into.location.line !== line('draw_call_plot')) {
    // the stepper may stop on the function's opening line (its prologue) first
    assert.ok(
      into.location.line < line('draw_call_plot') && into.location.line >= line('draw_call_plot') - 3,
      `landed on ${into.location.line}`,
    );
    into = await call(a, 'step', { kind: 'over' });
  }
  assert.equal(into.location.line, line('draw_call_plot'));
  const bt = await call(a, 'backtrace');
  assert.equal(bt.frames[0].function, 'draw');
  assert.equal(bt.frames[0].location.line, line('draw_call_plot'));
  assert.equal(bt.frames[1].function, 'main');
  assert.equal(bt.frames[1].location.line, line('call_draw'));
  assert.equal(fileOf(bt.frames[1].location), 'main.c');
  const counter = (await call(a, 'evaluate', { expression: 'counter', frame: 1 })).result.numeric;
  const locals = await call(a, 'list_variables', { scope: 'locals', frame: 0 });
  const row = locals.variables.find((v: Structured) => v.name === 'row');
  const col = locals.variables.find((v: Structured) => v.name === 'col');
  assert.equal(row.numeric, 10);
  assert.equal(col.numeric, counter & 31);
  assert.match(row.type, /unsigned char/);
  const regs = await call(a, 'list_variables', { scope: 'registers' });
  assert.ok(regs.variables.length > 5, 'register scope lists registers');
  const out = await call(a, 'step', { kind: 'out' });
  assert.equal(out.location.function, 'main');
  assert.equal(out.location.line, line('call_draw'));
  const instr = await call(a, 'step', { kind: 'into', granularity: 'instruction' });
  assert.notEqual(instr.stop.pc, out.stop.pc, 'an instruction step moves the PC');
});

test('read_registers, read_memory of the ROM, write_memory + read back in RAM', async () => {
  const st = await call(a, 'session_status');
  const regs = await call(a, 'read_registers');
  const pc = regs.registers.find((r: Structured) => /^pc$/i.test(r.name));
  assert.equal(pc.value, st.pc);
  assert.ok(regs.registers.some((r: Structured) => /^sp$/i.test(r.name)));
  const rom = readFileSync(fx.rom);
  for (const address of [0, '0x0000', { space: 'cpu', offset: 0 }]) {
    const mem = await call(a, 'read_memory', { address, length: 32 });
    assert.equal(mem.hex, rom.subarray(0, 32).toString('hex').toUpperCase());
    assert.equal(mem.length, 32);
    assert.equal(mem.ascii.length, 32);
  }
  const written = await call(a, 'write_memory', { address: 0xc000, hex: 'DEADBEEF' });
  assert.equal(written.verified, true);
  assert.equal(written.read_back, 'DEADBEEF');
  assert.equal(
    (await call(b, 'read_memory', { address: '0xC000', length: 4 })).hex,
    'DEADBEEF',
    'another client sees the write',
  );
  const msg = await call(a, 'read_memory', { address: 0x8000, length: 64 });
  assert.ok(msg.ascii.includes('RETRO'), 'the ASCII preview shows the initialised string');
});

test('screenshot returns a PNG of the machine screen; output_path writes once and refuses to overwrite', async () => {
  const result = await callRaw(a, 'screenshot');
  assert.ok(!result.isError);
  const sc = result.structuredContent as Structured;
  const image = result.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
  assert.equal(image.mimeType, 'image/png');
  const png = PNG.sync.read(Buffer.from(image.data, 'base64'));
  assert.equal(png.width, sc.width);
  assert.equal(png.height, sc.height);
  assert.ok(
    png.width >= 256 && png.height >= 192,
    `Spectrum screen is at least 256x192 (got ${png.width}x${png.height})`,
  );
  const colours = new Set<number>();
  for (let i = 0; i < png.data.length; i += 4) colours.add(png.data.readUInt32BE(i));
  assert.ok(colours.size >= 2, 'the fixture painted something');
  assert.equal(sc.maybe_stale, true, 'stopped CPU: the frame may be stale');
  const saved = await call(a, 'screenshot', { output_path: 'shots/screen.png' });
  assert.equal(saved.path, join(outDir, 'shots', 'screen.png'));
  assert.ok(existsSync(saved.path));
  assert.equal(PNG.sync.read(readFileSync(saved.path)).width, sc.width);
  await callExpectingError(a, 'screenshot', { output_path: 'shots/screen.png' }, 'file_exists');
  await callExpectingError(a, 'screenshot', { output_path: '../escape.png' }, 'bad_request');
  await call(a, 'screenshot', { output_path: 'shots/screen.png', overwrite: true });
});

test('bad input is refused with a code and leaves the session intact', async () => {
  await call(a, 'claim_control', { release: true });
  await callExpectingError(a, 'write_memory', { address: 0xc000, hex: '00' }, 'no_lease');
  await callExpectingError(a, 'step', { kind: 'over' }, 'no_lease');
  assert.equal(
    (await call(a, 'read_memory', { address: 0xc000, length: 1 })).hex,
    'DE',
    'refused write changed nothing',
  );
  await call(a, 'claim_control');
  await callExpectingError(a, 'read_memory', { address: 0, length: 70_000 }, 'too_large');
  // a 64 KiB read carries its bytes once: hex in structuredContent, no preview, the text block points there
  const big = await callRaw(a, 'read_memory', { address: 0, length: 65536 });
  const bigSc = big.structuredContent as Structured;
  assert.equal(bigSc.hex.length, 2 * 65536);
  assert.equal(bigSc.ascii, undefined, 'no preview for a big read');
  assert.match((big.content[0] as { text: string }).text, /"hex":"\(131072 characters in structuredContent\.hex\)"/);
  assert.ok(JSON.stringify(big).length < 2 * 65536 + 2048, `one copy: ${JSON.stringify(big).length} bytes`);
  assert.ok((await call(a, 'read_memory', { address: 0, length: 16 })).ascii.length === 16, 'short reads keep it');
  await callExpectingError(a, 'read_memory', { address: { space: 'cpu', offset: 0x10000 }, length: 4 }, 'bad_address');
  await callExpectingError(a, 'read_memory', { address: 'nowhere', length: 4 }, 'bad_address');
  await callExpectingError(a, 'write_memory', { address: 0xc000, hex: 'XYZ' }, 'bad_request');
  await callExpectingError(a, 'set_breakpoint', { line: 3 }, 'bad_request');
  await callExpectingError(a, 'clear_breakpoint', { id: 99_999 }, 'not_found');
  const gen = (await call(a, 'session_status')).generation;
  await callExpectingError(a, 'step', { kind: 'over', generation: gen - 1 }, 'stale_generation');
  const invalid = await callRaw(a, 'wait_for_stop', { timeout_ms: 600_000 });
  assert.equal(invalid.isError, true, 'schema bounds are enforced');
  const st = await call(a, 'session_status');
  assert.equal(st.state, 'stopped');
  assert.equal(st.phase, 'ready');
});

test('step while running is not_stopped; wait_for_stop times out as a result; pause stops', async () => {
  await call(a, 'clear_breakpoint', { id: bpId });
  const running = await call(a, 'resume');
  assert.equal(running.state, 'running');
  await callExpectingError(a, 'step', { kind: 'over' }, 'not_stopped');
  const waited = await call(a, 'wait_for_stop', { timeout_ms: 300 });
  assert.equal(waited.timed_out, true);
  assert.equal(waited.state, 'running');
  const paused = await call(a, 'pause');
  assert.equal(paused.state, 'stopped');
  assert.equal(paused.stop.reason, 'pause');
  assert.ok(paused.location, 'paused inside the program with a source location');
});

test('closing an MCP session detaches its client: its breakpoints go away, the session stays', async () => {
  await call(b, 'claim_control', { take_over: true });
  const bBp = await call(b, 'set_breakpoint', { function: 'plot' });
  assert.equal(bBp.breakpoint.verified, true);
  assert.ok((await call(a, 'list_breakpoints')).breakpoints.some((x: Structured) => x.id === bBp.breakpoint.id));
  const count = server.sessionCount();
  await (b.transport as StreamableHTTPClientTransport).terminateSession();
  await b.close();
  for (let i = 0; i < 50 && server.sessionCount() >= count; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(server.sessionCount(), count - 1);
  const left = await call(a, 'list_breakpoints');
  assert.ok(!left.breakpoints.some((x: Structured) => x.id === bBp.breakpoint.id), "B's breakpoint was removed");
  const st = await call(a, 'session_status');
  assert.equal(st.phase, 'ready');
  assert.equal(st.lease, undefined, "B's lease ended with it");
});

test('stop_session by the starter ends the session', async () => {
  await call(a, 'claim_control');
  const stopped = await call(a, 'stop_session');
  assert.equal(stopped.stopped, true);
  assert.equal(stopped.state, 'exited');
  const st = await call(a, 'session_status', { session_id: sessionId });
  assert.equal(st.phase, 'exited');
});
