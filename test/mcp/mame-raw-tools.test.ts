// The 30 raw MAME capabilities through the real MCP SDK client, on real MAME
// running the SDCC-built fixture ROM (which reads keys, draws and has globals
// to watch). Each test checks what came back, not only that nothing failed;
// after input and watchpoints it checks that nothing is left held or set.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import {
  call,
  callExpectingError,
  callRaw,
  connectHttpClient,
  startHttpServerOn,
  waitUntilReady,
  type Structured,
} from './mcp-helpers.js';
import {
  findKeyBuffer,
  rowAtoG as rowAtoGOf,
  sleep,
  typedText as typedTextOf,
  waitFor,
  type KeyBuffer,
} from './mame-helpers.js';

let fx: ZxFixture;
let manager: SessionManager;
let server: HttpMcpServer;
let agent: Client;
let sessionId: string;
const outputDir = mkdtempSync(join(tmpdir(), 'mame-raw-out-'));

async function global(name: string): Promise<Structured> {
  return (await call(agent, 'evaluate', { expression: name })).result;
}

let keyBuffer: KeyBuffer;
const typedText = () => typedTextOf(agent, keyBuffer);
const rowAtoG = () => rowAtoGOf(agent);

async function running(): Promise<void> {
  const st = await call(agent, 'session_status');
  if (st.state !== 'running') await call(agent, 'resume', { wait: false });
}

async function stopped(): Promise<Structured> {
  return call(agent, 'pause', { wait: true, timeout_ms: 10_000 });
}

before(async () => {
  fx = await buildZxFixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { outputDir });
  agent = await connectHttpClient(server, 'raw-agent');
});

after(async () => {
  await agent?.close().catch(() => undefined);
  await server?.close();
  await manager?.closeAll();
});

test('start_session returns at once with a phase; the session reaches main; a second start is refused', async () => {
  const t0 = Date.now();
  const started = await call(agent, 'start_session', {
    machine: 'spectrum',
    program: fx.rom,
    debugInfo: fx.cdb,
    cwd: fx.dir,
  });
  assert.ok(Date.now() - t0 < 3000, 'start_session does not wait for the boot');
  assert.ok(['starting_emulator', 'booting'].includes(started.phase));
  sessionId = started.session_id;
  const ready = await waitUntilReady(agent, sessionId);
  assert.equal(ready.location.function, 'main');
  await callExpectingError(
    agent,
    'start_session',
    { machine: 'spectrum', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir },
    'session_exists',
  );
});

test('status and read_registers agree on the PC', async () => {
  const st = await call(agent, 'session_status');
  const regs = await call(agent, 'read_registers');
  assert.equal(regs.registers.find((r: Structured) => r.name === 'PC').value, st.pc);
  assert.equal(st.stop.reason, 'entry');
});

test('read_memory (logical), read_program_memory (raw) and read_share of the ROM region agree with the ROM file', async () => {
  const rom = readFileSync(fx.rom).subarray(0, 64).toString('hex').toUpperCase();
  const logical = await call(agent, 'read_memory', { address: 0, length: 64 });
  const raw = await call(agent, 'read_program_memory', { space: 'program', offset: 0, length: 64 });
  const region = await call(agent, 'read_share', { tag: ':maincpu', offset: 0, length: 64 });
  assert.deepEqual([logical.hex, raw.hex, region.hex], [rom, rom, rom]);
  assert.equal(raw.space, 'program');
  assert.equal(raw.pages, undefined, 'the 48K spectrum has no banks to report');
  await callExpectingError(agent, 'read_program_memory', { offset: 0xfff0, length: 32 }, 'bad_address');
});

test('list_shares names the video RAM and the ROM region with sizes and the CPU spaces', async () => {
  const res = await call(agent, 'list_shares');
  const vram = res.shares.find((s: Structured) => s.tag === ':video_ram');
  assert.deepEqual([vram.kind, vram.size], ['share', 6912]);
  assert.equal(res.shares.find((s: Structured) => s.tag === ':maincpu').size, 65536);
  assert.deepEqual(
    res.spaces.find((s: Structured) => s.name === 'program'),
    { name: 'program', address_mask: 0xffff, data_width: 8 },
  );
});

test('a breakpoint by address with a condition stops there; list and clear it', async () => {
  const loop = fx.markers.loop_body;
  const line = await call(agent, 'set_breakpoint', { file: 'main.c', line: loop.line });
  const address = line.breakpoint.address.offset;
  await call(agent, 'clear_breakpoint', { id: line.breakpoint.id });
  const bp = await call(agent, 'set_breakpoint', { address, condition: '$a == $a' });
  const hit = await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
  assert.equal(hit.stop.reason, 'breakpoint');
  assert.equal(hit.stop.pc, address);
  assert.deepEqual(hit.stop.breakpoint_ids, [bp.breakpoint.id]);
  const listed = (await call(agent, 'list_breakpoints')).breakpoints;
  assert.deepEqual(
    listed.map((b: Structured) => [b.id, b.condition, b.read_only]),
    [[bp.breakpoint.id, '$a == $a', false]],
  );
  await call(agent, 'clear_breakpoint', { id: bp.breakpoint.id });
  assert.deepEqual((await call(agent, 'list_breakpoints')).breakpoints, []);
});

test('read_vram and read_share show the fill pattern after fill_screen ran', async () => {
  const vram = await call(agent, 'read_vram', { offset: 0, length: 8 });
  assert.equal(vram.hex, '5555555555555555');
  const attrs = await call(agent, 'read_share', { tag: ':video_ram', offset: 6144, length: 4 });
  assert.equal(attrs.hex, '38383838');
  await callExpectingError(agent, 'read_share', { tag: ':nope', length: 1 }, 'bad_address');
});

test('write_memory writes RAM under the lease with read-back; a write into code bumps the generation', async () => {
  const before = (await call(agent, 'session_status')).generation;
  const w = await call(agent, 'write_memory', { address: 0x9000, hex: 'DEADBEEF' });
  assert.deepEqual([w.verified, w.read_back], [true, 'DEADBEEF']);
  assert.equal(w.generation, before, 'a RAM write keeps the generation');
  const main = (await call(agent, 'disassemble', { count: 1 })).instructions[0];
  const rom = (await call(agent, 'read_memory', { address: main.address, length: 1 })).hex;
  const err = await callExpectingError(
    agent,
    'write_memory',
    { address: main.address, hex: rom === '00' ? '01' : '00' },
    'bad_address',
  );
  assert.match(err.message, /ROM/);
  assert.ok((await call(agent, 'session_status')).generation > before, 'a write aimed at code names a new generation');
});

test('disassemble names C functions and lines, with bytes equal to memory', async () => {
  const st = await call(agent, 'session_status');
  const res = await call(agent, 'disassemble', { address: st.pc, count: 8 });
  assert.equal(res.instructions.length, 8);
  const first = res.instructions[0];
  assert.equal(first.address, st.pc);
  assert.equal(first.function, 'main');
  assert.equal(first.line, fx.markers.loop_body.line);
  const mem = await call(agent, 'read_memory', { address: st.pc, length: first.bytes.length / 2 });
  assert.equal(first.bytes, mem.hex);
  assert.ok(
    res.instructions.every((i: Structured, k: number) => k === 0 || i.address > res.instructions[k - 1].address),
  );
  assert.match(first.text, /^[a-z]+/);
});

test('debugger_command: read-only commands run; others are refused by name and not run; the raw lease runs them and bumps the generation', async () => {
  const st = await call(agent, 'session_status');
  const printed = await call(agent, 'debugger_command', { command: 'print pc' });
  assert.equal(parseInt(printed.lines.at(-1), 16), st.pc);
  assert.equal(printed.read_only, true);
  const hl = (await call(agent, 'read_registers')).registers.find((r: Structured) => r.name === 'HL').value;
  const refused = await callExpectingError(agent, 'debugger_command', { command: 'hl = 1234' }, 'no_lease');
  assert.match(refused.message, /"hl"/);
  await callExpectingError(agent, 'debugger_command', { command: 'print hl=5' }, 'no_lease');
  await callExpectingError(agent, 'debugger_command', { command: 'go' }, 'no_lease');
  assert.equal(
    (await call(agent, 'read_registers')).registers.find((r: Structured) => r.name === 'HL').value,
    hl,
    'nothing ran',
  );
  await call(agent, 'claim_raw_lease');
  const gen = (await call(agent, 'session_status')).generation;
  const ran = await call(agent, 'debugger_command', { command: 'hl = 1234' });
  assert.equal(ran.read_only, false);
  assert.equal(ran.generation, gen + 1, 'the session moved to a new generation');
  assert.equal((await call(agent, 'read_registers')).registers.find((r: Structured) => r.name === 'HL').value, 0x1234);
  await call(agent, 'release_raw_lease');
  await callExpectingError(agent, 'debugger_command', { command: 'hl = 1' }, 'no_lease');
});

test("a write watchpoint on a C variable stops with the writer's PC; our own writes never fire it", async () => {
  const wp = await call(agent, 'set_watchpoint', { variable: 'counter', kind: 'write' });
  const counter = await global('counter');
  assert.deepEqual([wp.watchpoint.address.offset, wp.watchpoint.length], [counter.address.offset, 1]);
  const stopBefore = (await call(agent, 'session_status')).stop;
  await call(agent, 'write_memory', { address: counter.address.offset, hex: '42' });
  const still = await call(agent, 'session_status');
  assert.deepEqual(
    [still.state, still.stop.pc, still.stop.reason],
    ['stopped', stopBefore.pc, stopBefore.reason],
    'the debugger write did not fire it',
  );
  const hit = await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
  assert.equal(hit.stop.reason, 'watchpoint');
  assert.deepEqual((await manager.get(sessionId).status()).last_stop?.watchpoint_ids, [wp.watchpoint.id]);
  const listed = (await call(agent, 'list_watchpoints')).watchpoints;
  assert.equal(listed[0].hit_count, 1);
  const last = listed[0].last_hit;
  assert.deepEqual(
    [last.access, last.address, last.value],
    ['writing', counter.address.offset, 0x43],
    'counter++ wrote 0x43',
  );
  assert.equal(last.pc, hit.stop.pc);
  assert.equal(hit.location.line, fx.markers.loop_body.line, 'stopped in the line that wrote');
  assert.ok(
    last.access_pc < hit.stop.pc && hit.stop.pc - last.access_pc <= 4,
    'access_pc is the writing instruction, pc the next one',
  );
  await call(agent, 'clear_watchpoint', { id: wp.watchpoint.id });
  assert.deepEqual((await call(agent, 'list_watchpoints')).watchpoints, []);
  assert.match((await call(agent, 'debugger_command', { command: 'wplist' })).lines.join('\n'), /No watchpoints/);
});

test('set_watchpoint on C lvalues: sized by the C type; a value that is no object is refused', async () => {
  const origin = await global('origin');
  const field = await call(agent, 'set_watchpoint', { variable: 'origin.y', kind: 'write' });
  assert.deepEqual([field.watchpoint.address.offset, field.watchpoint.length], [origin.address.offset + 2, 2]);
  await call(agent, 'clear_watchpoint', { id: field.watchpoint.id });
  const message = await global('message');
  const element = await call(agent, 'set_watchpoint', { variable: 'message[2]', kind: 'readwrite' });
  assert.deepEqual([element.watchpoint.address.offset, element.watchpoint.length], [message.address.offset + 2, 1]);
  await call(agent, 'clear_watchpoint', { id: element.watchpoint.id });
  const refused = await callExpectingError(agent, 'set_watchpoint', { variable: 'counter + 1' }, 'bad_request');
  assert.match(JSON.stringify(refused), /not an object in memory/);
});

test("read and I/O watchpoints fire on the program's own accesses", async () => {
  const total = await global('total');
  const rd = await call(agent, 'set_watchpoint', { address: total.address.offset, length: 2, kind: 'read' });
  const hit = await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
  assert.equal(hit.stop.reason, 'watchpoint');
  assert.equal(hit.location.line, fx.markers.call_draw.line, 'total is read by "total += draw(...)"');
  await call(agent, 'clear_watchpoint', { id: rd.watchpoint.id });
  const io = await call(agent, 'set_watchpoint', { address: { space: 'io', offset: 0xfdfe }, kind: 'read' });
  const ioHit = await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
  assert.equal(ioHit.stop.reason, 'watchpoint');
  assert.equal(ioHit.location.function, 'read_row');
  const ioLast = (await call(agent, 'list_watchpoints')).watchpoints[0].last_hit;
  assert.deepEqual([ioLast.access, ioLast.address], ['reading', 0xfdfe]);
  await call(agent, 'clear_watchpoint', { id: io.watchpoint.id });
});

test('screenshot and read_screen_pixels: size, frame, stale flag and the fill pattern', async () => {
  const shot = await call(agent, 'screenshot', { output_path: 'shot.png' });
  assert.deepEqual([shot.width, shot.height, shot.maybe_stale], [352, 296, true]);
  assert.equal(readFileSync(shot.path).subarray(1, 4).toString(), 'PNG');
  await callExpectingError(agent, 'screenshot', { output_path: 'shot.png' }, 'file_exists');
  const px = await call(agent, 'read_screen_pixels', { x: 48, y: 48, width: 2, height: 1 });
  assert.deepEqual([px.format, px.screen_width, px.screen_height, px.maybe_stale], ['rgba8', 352, 296, true]);
  assert.equal(
    Buffer.from(px.pixels, 'base64').toString('hex'),
    'bfbfbfff000000ff',
    'paper then ink of the 0x55 pattern',
  );
  assert.equal(typeof px.frame, 'number');
  const full = await call(agent, 'read_screen_pixels', {});
  assert.equal(Buffer.from(full.pixels, 'base64').length, 352 * 296 * 4);
  await callExpectingError(agent, 'read_screen_pixels', { x: 350, width: 10 }, 'bad_request');
});

test('list_ports lists the keyboard matrix fields by name', async () => {
  const res = await call(agent, 'list_ports', { type_class: 'keyboard' });
  const line1 = res.ports.find((p: Structured) => p.tag === ':LINE1');
  assert.ok(line1.fields.some((f: Structured) => f.name.startsWith('a ') && f.mask === 1 && f.type === 'KEYBOARD'));
  assert.ok(res.ports.every((p: Structured) => p.fields.every((f: Structured) => f.type_class === 'keyboard')));
});

test('press_key needs a running machine, then the program sees the key; nothing stays held', async () => {
  keyBuffer = await findKeyBuffer(agent);
  await callExpectingError(agent, 'press_key', { key: 'a' }, 'not_running');
  await running();
  const pressed = await call(agent, 'press_key', { key: 'a', frames: 3 });
  assert.equal(pressed.outcome, 'done');
  assert.match(pressed.pressed[0].field, /^a\s/);
  await waitFor('the program to see "a"', async () => (await typedText()).includes('a'));
  assert.equal((await call(agent, 'list_held_inputs')).held.length, 0);
  assert.equal(await rowAtoG(), 0x1f, 'no key of row A-G is down');
});

test('type_string types frame-paced with shift; an untypeable character refuses the whole string', async () => {
  const before = await typedText();
  const bad = await callExpectingError(agent, 'type_string', { text: 'ok€' }, 'bad_request');
  assert.deepEqual(bad.details.missing, ['€']);
  await sleep(200);
  assert.equal(await typedText(), before, 'nothing of the refused string was typed');
  const typed = await call(agent, 'type_string', { text: 'Hi 42' });
  assert.deepEqual([typed.outcome, typed.characters], ['done', 5]);
  let seen = '';
  await waitFor('"Hi 42"', async () => (seen = await typedText()) === before + 'Hi 42').catch(() =>
    assert.fail(`typed ${JSON.stringify(seen)}, expected ${JSON.stringify(before + 'Hi 42')}`),
  );
});

test("type_text goes through MAME's natural keyboard", async () => {
  const before = await typedText();
  const res = await call(agent, 'type_text', { text: 'xy' });
  assert.equal(res.outcome, 'posted');
  await waitFor('"xy" from the natural keyboard', async () => (await typedText()) === before + 'xy', 20_000);
});

test('press_input presses a named field; set_input holds one until the machine stops', async () => {
  const before = await typedText();
  const res = await call(agent, 'press_input', { port: ':LINE7', field: 'SPACE', frames: 2 });
  assert.equal(res.outcome, 'done');
  await waitFor('a space', async () => (await typedText()) === before + ' ');
  const gField = (await call(agent, 'list_ports', { type_class: 'keyboard' })).ports
    .find((p: Structured) => p.tag === ':LINE1')
    .fields.find((f: Structured) => f.name.startsWith('g ')).name;
  const held = await call(agent, 'set_input', { port: ':LINE1', field: gField, value: 1 });
  assert.equal(held.outcome, 'held');
  await waitFor('the held g', async () => (await typedText()).endsWith('g'));
  assert.equal(await rowAtoG(), 0x0f, 'g (bit 4) is down while held');
  assert.equal((await call(agent, 'list_held_inputs')).held.length, 1);
  await stopped();
  assert.equal((await call(agent, 'list_held_inputs')).held.length, 0, 'a stop forgets every held input');
  // MAME released the field at the stop; the port shows it from the next emulated frame on
  await running();
  await waitFor('g released', async () => (await rowAtoG()) === 0x1f, 5000);
  const after = await typedText();
  await sleep(300);
  assert.equal(await typedText(), after, 'no new key presses after the release');
  await stopped();
});

test('move_mouse and click_mouse on a machine without a mouse: unsupported, naming it', async () => {
  await running();
  const move = await callExpectingError(agent, 'move_mouse', { x: 10, y: 10 }, 'unsupported');
  assert.match(move.message, /spectrum/);
  await callExpectingError(agent, 'click_mouse', {}, 'unsupported');
  await stopped();
});

test('step, step_over, step_out, step_instruction with a count, resume and pause', async () => {
  const bp = await call(agent, 'set_breakpoint', { file: 'util.c', line: fx.markers.plot_body.line });
  await call(agent, 'resume', { wait: true, timeout_ms: 20_000 });
  await call(agent, 'clear_breakpoint', { id: bp.breakpoint.id });
  const start = (await call(agent, 'session_status')).pc;
  const three = await call(agent, 'step_instruction', { count: 3 });
  assert.equal(three.steps, 3);
  assert.notEqual(three.stop.pc, start);
  const over = await call(agent, 'step', { kind: 'over', granularity: 'instruction' });
  assert.equal(over.state, 'stopped');
  const out = await call(agent, 'step', { kind: 'out' });
  assert.equal(out.location.function, 'draw');
  const into = await call(agent, 'step', { kind: 'into' });
  assert.equal(into.state, 'stopped');
  await call(agent, 'resume', { wait: false });
  assert.equal((await call(agent, 'session_status')).state, 'running');
  const paused = await stopped();
  assert.equal(paused.stop.reason, 'pause');
});

test('after everything: no breakpoint, watchpoint or held input is left', async () => {
  assert.deepEqual((await call(agent, 'list_breakpoints')).breakpoints, []);
  assert.deepEqual((await call(agent, 'list_watchpoints')).watchpoints, []);
  assert.deepEqual((await call(agent, 'list_held_inputs')).held, []);
  const lines = (await call(agent, 'debugger_command', { command: 'bplist' })).lines.join('\n');
  assert.match(lines, /No breakpoints/);
  const raw = await callRaw(agent, 'debugger_command', { command: 'wplist' });
  assert.match(JSON.stringify(raw.structuredContent), /No watchpoints/);
});
