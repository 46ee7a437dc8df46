// The C-level session on the built-in C64 (no emulator installed): a cc65
// program built at test time boots to main, breaks at C lines, steps by
// lines, shows the call stack and variables, takes typed keys, and its
// output is checked on the screen.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { SessionApi, SessionStatus } from '../../src/session/types.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { VICE_FEATURE } from '../../src/connectors/vice/vice-target.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { screenText } from '../support/c64-screen.js';

let fx: C64Fixture;
let manager: SessionManager;
let session: SessionApi;
let dap: ClientSession;

async function stoppedAt(expect?: { file: string; line: number }): Promise<SessionStatus> {
  const status = await session.waitForStop(30_000);
  assert.equal(status.state, 'stopped');
  if (expect) {
    assert.equal(
      status.location?.line,
      expect.line,
      `expected ${basename(expect.file)}:${expect.line}, got ${JSON.stringify(status.location)}`,
    );
    assert.equal(basename(status.location?.file ?? ''), basename(expect.file));
  }
  return status;
}

before(async () => {
  fx = await buildC64Fixture();
  manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 5000 });
  dap = manager.start(
    { machine: 'c64', emulator: 'builtin', program: fx.prg, cwd: fx.dir },
    { kind: 'dap', label: 'test' },
  );
  session = dap.session;
  setInterval(() => dap.beat(), 500).unref();
});

after(async () => {
  await manager?.closeAll();
});

test('boots the built-in C64 and stops at main, with the .dbg found beside the PRG', async () => {
  const status = await stoppedAt();
  assert.equal(status.phase, 'ready', JSON.stringify(status.error));
  assert.equal(status.location?.function, 'main');
  assert.equal(basename(status.location?.file ?? ''), 'main.c');
  const screen = await screenText(session);
  assert.ok(
    screen.some((r) => r.toUpperCase() === 'RUN'),
    `the autostart typed RUN: ${screen.join('|')}`,
  );
});

test('a line breakpoint in another file is hit; the call stack has both functions', async () => {
  const bp = await dap.setLineBreakpoint('util.c', fx.markers.scaled.line);
  assert.equal(bp.verified, true);
  await dap.resume();
  const status = await stoppedAt(fx.markers.scaled);
  assert.equal(status.last_stop?.reason, 'breakpoint');
  assert.deepEqual(status.last_stop?.breakpoint_ids, [bp.id]);
  const frames = await session.backtrace();
  assert.deepEqual(
    frames.slice(0, 2).map((f) => f.function),
    ['add_scaled', 'main'],
  );
  assert.equal(frames[1].location?.line, fx.markers.loop_call.line);
  const params = await session.variables('locals', 0);
  const byName = Object.fromEntries(params.map((v) => [v.name, v]));
  assert.equal(byName.sum?.value, '0');
  assert.equal(byName.value?.value, '1');
  assert.equal(byName.value?.type, 'int');
  await dap.clearBreakpoint(bp.id);
});

test('step over runs one C line; locals and a global read back typed', async () => {
  await dap.stepOver();
  await stoppedAt(fx.markers.add_return);
  const scaled = await session.readVariable('scaled');
  assert.equal(scaled.value, '10');
  const counter = await session.readVariable('counter');
  assert.equal(counter.type, 'int');
  assert.equal(counter.value, '1');
  const letters = await session.readVariable('letters');
  assert.equal(letters.type, 'unsigned char[4]');
  assert.equal(letters.children?.[0]?.numeric, 0xc1, "cc65 stores 'A' as PETSCII $C1");
});

test('step out returns to the caller; step over a call line stays in main', async () => {
  await dap.stepOut();
  const back = await stoppedAt();
  assert.equal(back.location?.function, 'main');
  // finish the line that called (assignment to total), then the printf line
  if (back.location?.line === fx.markers.loop_call.line) {
    await dap.stepOver();
    await stoppedAt(fx.markers.after_call);
  }
  const total = await session.readVariable('total');
  assert.equal(total.value, '10');
  await dap.stepOver();
  const next = await stoppedAt();
  assert.equal(next.location?.function, 'main');
  const screen = await screenText(session);
  assert.ok(screen.includes('STEP 1 TOTAL 10'), screen.join('|'));
});

test('step into enters add_scaled at its first body line', async () => {
  const bp = await dap.setLineBreakpoint('main.c', fx.markers.loop_call.line);
  await dap.resume();
  await stoppedAt(fx.markers.loop_call);
  await dap.clearBreakpoint(bp.id);
  await dap.stepInto();
  await stoppedAt(fx.markers.scaled);
});

test('a typed key reaches cgetc and the output appears on the screen', async () => {
  const bp = await dap.setLineBreakpoint('main.c', fx.markers.got_key.line);
  await dap.resume();
  // the program waits in cgetc; type while it runs
  await new Promise((r) => setTimeout(r, 300));
  await dap.control(VICE_FEATURE, { needs: 'running' }, (vice) => vice.keyboardFeed(Buffer.from('Q')));
  await stoppedAt(fx.markers.got_key);
  const key = await session.readVariable('key');
  assert.equal(key.numeric, 0x51, 'the PETSCII code of the Q key');
  await dap.clearBreakpoint(bp.id);
  await dap.resume();
  await new Promise((r) => setTimeout(r, 300));
  await dap.pause();
  await stoppedAt();
  const screen = await screenText(session);
  for (const line of ['RETRO C64 TEST', 'STEP 2 TOTAL 30', 'STEP 3 TOTAL 60', 'PRESS A KEY', 'KEY q DONE']) {
    assert.ok(screen.includes(line), `"${line}" on screen: ${screen.join('|')}`);
  }
  // main returned to the READY prompt (in the lower-case character set cc65 switched to)
  assert.ok(screen.includes('ready.'), screen.join('|'));
  const letters = await session.readVariable('letters');
  assert.equal(letters.children?.[0]?.numeric, 0xda, "cc65 stores 'Z' as PETSCII $DA");
});
