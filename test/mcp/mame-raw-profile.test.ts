// The 'raw' tool profile on MAME machines with no C program: a spectrum booted
// from a ROM in a rompath (no debug info), and a mac128k with zero-filled ROMs
// (its CPU crashes, but its inputs work) to prove mouse move and click reach
// the machine's ports.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildZxFixture } from '../support/zx-fixture.js';
import {
  call,
  callExpectingError,
  connectHttpClient,
  startHttpServerOn,
  waitUntilReady,
  REPO_ROOT,
} from './mcp-helpers.js';

let manager: SessionManager;
let server: HttpMcpServer;
let agent: Client;
const roms = mkdtempSync(join(tmpdir(), 'raw-profile-roms-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

before(async () => {
  const fx = await buildZxFixture();
  mkdirSync(join(roms, 'spectrum'));
  copyFileSync(fx.rom, join(roms, 'spectrum', 'spectrum.rom'));
  // mac128k with zero-filled ROMs of the right names and sizes (MAME warns about checksums and runs)
  for (const [set, file, size] of [
    ['mac128k', '342-0220-a.u6d', 32768],
    ['mac128k', '342-0221-a.u8d', 32768],
    ['mac128k', 'ip8021h_2173.bin', 1024],
    ['mackbd_m0110', 'ip8021h_2173.bin', 1024],
    ['mackbd_m0120', 'ip8021h_2173.bin', 1024],
  ] as const) {
    mkdirSync(join(roms, set), { recursive: true });
    writeFileSync(join(roms, set, file), Buffer.alloc(size));
  }
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'raw', roots: () => [REPO_ROOT, roms] });
  agent = await connectHttpClient(server, 'raw-profile-agent');
});

after(async () => {
  await agent?.close().catch(() => undefined);
  await server?.close();
  await manager?.closeAll();
});

test('the raw profile offers the raw MAME tools from the start', async () => {
  const names = (await agent.listTools()).tools.map((t) => t.name);
  for (const name of [
    'read_program_memory',
    'read_vram',
    'list_shares',
    'disassemble',
    'debugger_command',
    'set_watchpoint',
    'list_ports',
    'press_key',
    'type_string',
    'type_text',
    'move_mouse',
    'click_mouse',
    'press_input',
    'set_input',
    'read_screen_pixels',
    'step_instruction',
  ]) {
    assert.ok(names.includes(name), `${name} is offered`);
  }
});

test('a spectrum with no C program: ready at power-on; registers, disassembly, console and stepping work', async () => {
  const started = await call(agent, 'start_session', { machine: 'spectrum', rompath: roms });
  const ready = await waitUntilReady(agent, started.session_id);
  assert.equal(ready.pc, 0);
  assert.match(ready.progress.join('\n'), /power-on/);
  const dis = await call(agent, 'disassemble', { address: 0, count: 2 });
  assert.deepEqual(
    dis.instructions.map((i: { text: string }) => i.text.replace(/\s+/g, ' ')),
    ['di', 'ld sp,$FF00'],
  );
  assert.equal(dis.instructions[0].function, undefined, 'no debug info, no function names');
  const stepped = await call(agent, 'step_instruction', { count: 2 });
  assert.equal(stepped.stop.pc, 4, 'di (1 byte) then ld sp,nn (3 bytes)');
  assert.equal(parseInt((await call(agent, 'debugger_command', { command: 'print sp' })).lines.at(-1), 16), 0xff00);
  await call(agent, 'stop_session', { session_id: started.session_id });
});

test('mac128k: move_mouse and click_mouse reach the mouse ports', async () => {
  const started = await call(agent, 'start_session', { machine: 'mac128k', rompath: roms });
  await waitUntilReady(agent, started.session_id);
  const ports = (await call(agent, 'list_ports', { session_id: started.session_id })).ports;
  assert.ok(ports.some((p: { tag: string }) => p.tag === ':MOUSE1'));
  await call(agent, 'resume', { session_id: started.session_id, wait: false });
  const idleButton = (await call(agent, 'read_port', { session_id: started.session_id, port: ':MOUSE0' })).value;
  const moved = call(agent, 'move_mouse', { session_id: started.session_id, x: 50, y: 20, frames: 30 });
  let x = 0;
  for (let i = 0; i < 50 && x !== 50; i++) {
    x = (await call(agent, 'read_port', { session_id: started.session_id, port: ':MOUSE1' })).value;
    await sleep(20);
  }
  assert.equal(x, 50, 'Mouse X reads what move_mouse set');
  assert.equal((await moved).outcome, 'done');
  assert.deepEqual(
    (await moved).pressed.map((f: { field: string }) => f.field),
    ['Mouse X', 'Mouse Y'],
  );
  const click = call(agent, 'click_mouse', { session_id: started.session_id, button: 1, frames: 30 });
  let button = idleButton;
  for (let i = 0; i < 50 && button === idleButton; i++) {
    button = (await call(agent, 'read_port', { session_id: started.session_id, port: ':MOUSE0' })).value;
    await sleep(20);
  }
  assert.notEqual(button, idleButton, 'the button shows pressed while clicked');
  assert.equal((await click).outcome, 'done');
  await callExpectingError(agent, 'click_mouse', { session_id: started.session_id, button: 5 }, 'not_found');
  await call(agent, 'stop_session', { session_id: started.session_id });
});
