// MCP on the built-in C64 with a cc65 program: `evaluate` on each C
// expression kind in a frame, and vice_checkpoint_set reporting the
// condition VICE's protocol holds (a condition it cannot parse leaves no
// checkpoint behind).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn, waitUntilReady } from '../mcp/mcp-helpers.js';

let fx: C64Fixture;
let manager: SessionManager;
let http: HttpMcpServer;
let agent: Client;

before(async () => {
  fx = await buildC64Fixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  http = await startHttpServerOn(manager, { outputDir: mkdtempSync(join(tmpdir(), 'c64-mcp-c-')), profile: 'vice' });
  agent = await connectHttpClient(http, 'c-level-agent');
  const started = await call(agent, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: fx.prg,
    cwd: fx.dir,
  });
  await waitUntilReady(agent, started.session_id, 60_000);
  await call(agent, 'set_breakpoint', { file: 'util.c', line: fx.markers.scaled.line });
  await call(agent, 'resume', { wait: true, timeout_ms: 30_000 });
});

after(async () => {
  await agent?.close().catch(() => undefined);
  await http?.close();
  await manager?.closeAll();
});

const value = async (expression: string, frame = 0) =>
  (await call(agent, 'evaluate', { expression, frame })).result as { value: string; type: string };

test('evaluate evaluates names, members of the frame, literals, operators, casts, sizeof, registers, raw memory', async () => {
  const param = await value('value');
  assert.deepEqual([param.value, param.type], ['1', 'int'], 'a parameter');
  assert.equal((await value('sum + value * 100')).value, '100', 'arithmetic on parameters (sum is 0)');
  assert.equal((await value('total', 1)).value, '0', "the caller's local, frame 1");
  assert.equal((await value('counter')).value, '1');
  assert.equal((await value('letters[1]')).value, '194', "'B' in PETSCII");
  assert.equal((await value('sizeof(letters)')).value, '4');
  assert.equal((await value('&letters[2] - &letters[0]')).value, '2');
  assert.equal((await value("'A' + 1")).value, '66');
  assert.equal((await value('0x10 << 2 | 1')).value, '65');
  assert.equal((await value('(unsigned char)300')).value.split(' ')[0], '44');
  assert.equal((await value('counter == 1 && letters[0] != 0 ? -1 : 7')).value, '-1');
  assert.equal((await value('~0')).value, '-1');
  assert.equal(Number((await value('$pc')).value), (await call(agent, 'session_status', {})).stop.pc);
  assert.equal((await value('*(unsigned char *)0x0001')).type, 'unsigned char');
  assert.equal((await value('*&counter')).value, '1');
  const err = await callExpectingError(agent, 'evaluate', { expression: 'letters.x' }, 'bad_request');
  assert.match(err.message, /letters/);
});

test("set_breakpoint's reply says where its condition is evaluated: compiled for the emulator, or the debugger's and why", async () => {
  const at = { file: 'main.c', line: fx.markers.after_call.line };
  const native = (await call(agent, 'set_breakpoint', { ...at, condition: 'counter == 3' })).breakpoint;
  assert.match(native.native_condition ?? '', /== \$3$/);
  assert.equal(native.condition_host, undefined);
  const host = (await call(agent, 'set_breakpoint', { ...at, condition: 'total == 30' })).breakpoint;
  assert.equal(host.native_condition, undefined);
  assert.match(host.condition_host ?? '', /`total` lives in a stack frame/);
  const listed = (await call(agent, 'list_breakpoints', {})).breakpoints.find((b: { id: number }) => b.id === host.id);
  assert.equal(listed.condition_host, host.condition_host);
  for (const b of [native, host]) await call(agent, 'clear_breakpoint', { id: b.id });
});

test('vice_checkpoint_set with a condition reports it; one VICE cannot parse leaves nothing behind', async () => {
  // no vice_connect: the vice_* tools bind to the connection's default session (the built-in C64)
  const before = (await call(agent, 'vice_checkpoint_list', {})).checkpoints.length;
  const set = await call(agent, 'vice_checkpoint_set', { start: 0xc000, condition: 'A == $10' });
  assert.equal(set.checkpoint.has_condition, true);
  assert.equal(set.condition, 'A == $10');
  await call(agent, 'vice_checkpoint_delete', { number: set.checkpoint.number });
  const plain = await call(agent, 'vice_checkpoint_set', { start: 0xc000 });
  assert.equal(plain.checkpoint.has_condition, false);
  assert.equal(plain.condition, undefined);
  await call(agent, 'vice_checkpoint_delete', { number: plain.checkpoint.number });
  await callExpectingError(agent, 'vice_checkpoint_set', { start: 0xc000, condition: 'A == == 1' }, 'bad_request');
  assert.equal((await call(agent, 'vice_checkpoint_list', {})).checkpoints.length, before);
});
