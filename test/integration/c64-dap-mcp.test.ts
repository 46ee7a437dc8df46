// End to end on a cc65 program and the built-in C64 (no emulator installed):
// the DAP adapter bundle over its wire protocol, then MCP over HTTP with the
// official SDK client — break at a C line, step, read a local and a global,
// type a key, capture the screen — and bad input that must fail clearly.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openC64Mcp, type C64Mcp } from '../support/c64-mcp.js';
import { buildC64Fixture, REPO_ROOT, type C64Fixture } from '../support/c64-fixture.js';
import { RecordingClient } from '../dap/dap-client.js';
import { call, callExpectingError, callRaw, waitUntilReady } from '../mcp/mcp-helpers.js';

let fx: C64Fixture;
let mcp: C64Mcp | undefined;
let agent: Client;
const outDir = mkdtempSync(join(tmpdir(), 'c64-e2e-'));

before(async () => {
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, stdio: 'ignore' });
  fx = await buildC64Fixture();
  mcp = await openC64Mcp(outDir, 'c64-agent');
  agent = mcp.agent;
});

after(() => mcp?.close());

test('DAP: launch on the built-in C64, break in util.c, see the stack and typed locals, step a line, read a global', async () => {
  const dc = new RecordingClient();
  await dc.start();
  try {
    await dc.initialize();
    const utilC = fx.sources[1];
    await dc.launchAndConfigure(
      { machine: 'c64', emulator: 'builtin', program: fx.prg, cwd: fx.dir, stopOnEntry: true },
      async () => {
        const bps = await dc.setBreakpointsRequest({
          source: { path: utilC },
          breakpoints: [{ line: fx.markers.scaled.line }],
        });
        assert.equal(bps.body.breakpoints[0].verified, true, bps.body.breakpoints[0].message);
      },
    );
    const entry = await dc.next<DebugProtocol.StoppedEvent>('stopped', 60_000);
    assert.equal(entry.body.reason, 'entry');
    assert.equal((await dc.topFrame()).name, 'main');
    dc.drain('stopped');
    await dc.continueRequest({ threadId: 1 });
    const hit = await dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
    assert.equal(hit.body.reason, 'breakpoint');
    const { body } = await dc.stackTraceRequest({ threadId: 1 });
    assert.deepEqual(
      body.stackFrames.slice(0, 2).map((f) => [f.name, f.line]),
      [
        ['add_scaled', fx.markers.scaled.line],
        ['main', fx.markers.loop_call.line],
      ],
    );
    assert.equal(body.stackFrames[0].source?.path, utilC);
    const scopes = (await dc.scopesRequest({ frameId: body.stackFrames[0].id })).body.scopes;
    const locals = (
      await dc.variablesRequest({ variablesReference: scopes.find((s) => s.name === 'Locals')!.variablesReference })
    ).body.variables;
    assert.deepEqual(
      locals.filter((v) => v.name === 'value').map((v) => [v.value, v.type]),
      [['1', 'int']],
    );
    dc.drain('stopped');
    await dc.nextRequest({ threadId: 1 });
    await dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
    assert.equal((await dc.topFrame()).line, fx.markers.add_return.line);
    const scaled = await dc.evaluateRequest({
      expression: 'scaled',
      frameId: (await dc.topFrame()).id,
      context: 'watch',
    });
    assert.equal(scaled.body.result, '10');
    const counter = await dc.evaluateRequest({ expression: 'counter', context: 'watch' });
    assert.equal(counter.body.result, '1');
  } finally {
    await dc.stop();
  }
});

test('MCP: start, break at a C line, step, read a local and a global, type a key, capture the screen', async () => {
  const started = await call(agent, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: fx.prg,
    cwd: fx.dir,
  });
  const ready = await waitUntilReady(agent, started.session_id, 60_000);
  assert.equal(ready.location.function, 'main');
  const bp = await call(agent, 'set_breakpoint', { file: 'util.c', line: fx.markers.scaled.line });
  const hit = await call(agent, 'resume', { wait: true, timeout_ms: 30_000 });
  assert.equal(hit.location.line, fx.markers.scaled.line);
  const stepped = await call(agent, 'step', { kind: 'over', wait: true, timeout_ms: 30_000 });
  assert.equal(stepped.location.line, fx.markers.add_return.line);
  assert.equal((await call(agent, 'evaluate', { expression: 'scaled' })).result.value, '10');
  assert.equal((await call(agent, 'evaluate', { expression: 'counter' })).result.value, '1');
  await call(agent, 'clear_breakpoint', { id: bp.breakpoint.id });

  const bound = await call(agent, 'vice_connect', {});
  assert.equal(bound.connector, 'builtin');
  assert.deepEqual(
    bound.banks.map((b: { name: string }) => b.name),
    ['default', 'cpu', 'ram', 'rom', 'io', 'cart'],
  );
  const keyBp = await call(agent, 'set_breakpoint', { file: 'main.c', line: fx.markers.got_key.line });
  await call(agent, 'resume', { wait: false });
  const typed = await call(agent, 'vice_type_keys', { text: 'q' });
  assert.equal(typed.petscii_hex, '51');
  const atKey = await call(agent, 'wait_for_stop', { timeout_ms: 30_000 });
  assert.equal(atKey.location.line, fx.markers.got_key.line);
  assert.equal((await call(agent, 'evaluate', { expression: 'key' })).result.value.includes('81'), true);
  await call(agent, 'clear_breakpoint', { id: keyBp.breakpoint.id });
  await call(agent, 'step', { kind: 'over', wait: true, timeout_ms: 30_000 });

  const status = await call(agent, 'vice_status', {});
  assert.equal(status.vice_state, 'stopped');
  const shot = await call(agent, 'vice_capture_screen', { output_path: 'screen.png' });
  assert.deepEqual([shot.width, shot.height, shot.cropped], [320, 200, true]);
  assert.deepEqual(
    shot.inner,
    { x: 136, y: 50, width: 320, height: 200 },
    'found in the buffer, one row above the report',
  );
  assert.deepEqual([shot.reported_inner_y, shot.geometry_from, shot.maybe_stale], [51, 'buffer', true]);
  assert.equal(shot.palette_size, 16);
  assert.deepEqual(shot.used_indices, [6, 14], 'blue background, light blue text');
  assert.equal(shot.distinct_index_count, 2);
  const png = readFileSync(shot.output_path);
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.equal(png[25], 3, 'colour type 3: indexed');
  const full = await call(agent, 'vice_capture_screen', { crop: false });
  assert.deepEqual([full.width, full.height, full.output_path], [504, 312, null]);
  assert.ok(full.used_indices.includes(0), 'outside the visible area the debug buffer is 0');
  await callExpectingError(agent, 'vice_capture_screen', { output_path: 'screen.png' }, 'file_exists');
  assert.deepEqual(readFileSync(shot.output_path), png, 'the existing file is untouched');

  const read = await call(agent, 'vice_read_memory', { start: 0x0400, length: 40, bank_id: 1 });
  assert.match(read.hex, /^524554524F/, '"RETRO" in screen codes at the top of the screen');
  await callExpectingError(agent, 'vice_read_memory', { start: 0xfff0, length: 32, bank_id: 1 }, 'bad_address');
  await callExpectingError(agent, 'vice_read_memory', { start: 0, length: 4, bank_id: 9 }, 'bad_address');
  const missingBank = await callRaw(agent, 'vice_read_memory', { start: 0, length: 4 });
  assert.equal(missingBank.isError, true, 'bank_id is mandatory');
  await call(agent, 'vice_execute', { action: 'resume' });
  await callExpectingError(agent, 'vice_capture_screen', {}, 'not_stopped');
  await call(agent, 'vice_execute', { action: 'interrupt' });
  const stop = await call(agent, 'vice_wait_for_stop', { timeout_ms: 5000 });
  assert.equal(stop.reason, 'pause');
  await call(agent, 'vice_disconnect', {});
  // unbound, the vice_* tools use the connection's default session (the one C64 here)
  assert.equal((await call(agent, 'vice_status', {})).session_id, started.session_id);
  await call(agent, 'stop_session', { session_id: started.session_id });
  // the default session is now one that has ended: said as such
  assert.match((await callExpectingError(agent, 'vice_status', {}, 'target_lost')).message, /exited/);
});

test('bad input: a PRG too large and a broken .dbg fail the session with clear errors, and no hang', async () => {
  const dir = mkdtempSync(join(outDir, 'c64-bad-'));
  const big = join(dir, 'big.prg');
  writeFileSync(big, Buffer.concat([Buffer.from([0x01, 0x08]), Buffer.alloc(0xf800)]));
  const tooLarge = await call(agent, 'start_session', { machine: 'c64', emulator: 'builtin', program: big });
  const failed = await waitFailed(tooLarge.session_id);
  assert.equal(failed.failure.code, 'too_large');
  assert.match(failed.failure.message, /past \$FFFF/);

  copyFileSync(fx.prg, join(dir, 'prog.prg'));
  writeFileSync(join(dir, 'prog.dbg'), 'version\tmajor=2,minor=0\nline\tid=0,file=7,line=3,type=1,span=0\n');
  const broken = await call(agent, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: join(dir, 'prog.prg'),
  });
  const bad = await waitFailed(broken.session_id);
  assert.equal(bad.failure.code, 'bad_debug_info');
  assert.match(bad.failure.message, /file 7, which is not in the file/);
});

async function waitFailed(sessionId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const st = await call(agent, 'session_status', { session_id: sessionId });
    if (st.phase === 'failed') return st;
    assert.ok(Date.now() < deadline, `session ${sessionId} did not fail: ${JSON.stringify(st)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
