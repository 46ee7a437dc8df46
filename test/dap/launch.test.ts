/**
 * The debug adapter bundle (dist/debugAdapter.js) driven over its wire
 * protocol by the DAP test client, against real MAME running the SDCC-built
 * ZX Spectrum fixture: launch, breakpoints, stepping, stack, variables,
 * evaluate, memory, pause, disconnect.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { childProcesses, isAlive, lineOf, RecordingClient, waitUntil } from './dap-client.js';
import { freshBundle } from '../support/bundle.js';

let fx: ZxFixture;
let dc: RecordingClient;
let mainC: string;
let utilC: string;
let mamePid = 0;
const bpIds = new Map<string, number>();

before(async () => {
  freshBundle();
  fx = await buildZxFixture();
  [mainC, utilC] = fx.sources;
  dc = new RecordingClient();
  await dc.start();
});

after(async () => {
  await dc?.stop();
});

type StoppedEvent = DebugProtocol.StoppedEvent;

async function stoppedAfter(action: () => Promise<unknown>, timeoutMs = 30_000): Promise<StoppedEvent> {
  dc.drain('stopped');
  await action();
  return dc.next<StoppedEvent>('stopped', timeoutMs);
}

async function scopeVariables(frameId: number, scope: string): Promise<DebugProtocol.Variable[]> {
  const { body } = await dc.scopesRequest({ frameId });
  const ref = body.scopes.find((s) => s.name === scope)?.variablesReference;
  assert.ok(ref, `no ${scope} scope`);
  return (await dc.variablesRequest({ variablesReference: ref })).body.variables;
}

function named(vars: DebugProtocol.Variable[], name: string): DebugProtocol.Variable {
  const v = vars.find((x) => x.name === name);
  assert.ok(v, `no variable ${name} in [${vars.map((x) => x.name).join(', ')}]`);
  return v;
}

test('initialize reports the capabilities the adapter implements', async () => {
  const { body } = await dc.initialize();
  assert.equal(body?.supportsConfigurationDoneRequest, true);
  assert.equal(body?.supportsFunctionBreakpoints, true);
  assert.equal(body?.supportsReadMemoryRequest, true);
  assert.equal(body?.supportsWriteMemoryRequest, true);
  assert.equal(body?.supportsSteppingGranularity, true);
  assert.equal(body?.supportsSetVariable, false);
});

test('launch stops at main with the source path and line; breakpoints set during configuration are verified', async () => {
  const loopBody = fx.markers.loop_body.line;
  const noCodeLine = lineOf(utilC, 'unsigned int where;');
  await dc.launchAndConfigure(
    {
      machine: 'spectrum',
      emulator: 'mame',
      program: fx.rom,
      debugInfo: fx.cdb,
      cwd: fx.dir,
      stopOnEntry: true,
    },
    async () => {
      const main = await dc.setBreakpointsRequest({ source: { path: mainC }, breakpoints: [{ line: loopBody }] });
      assert.equal(main.body.breakpoints[0].verified, true);
      assert.equal(main.body.breakpoints[0].line, loopBody);
      bpIds.set('loop_body', main.body.breakpoints[0].id!);
      const util = await dc.setBreakpointsRequest({ source: { path: utilC }, breakpoints: [{ line: noCodeLine }] });
      const moved = util.body.breakpoints[0];
      assert.equal(moved.verified, true, moved.message);
      assert.equal(moved.line, fx.markers.draw_call_plot.line, 'a line without code moves to the next line with code');
      assert.equal(moved.source?.path, utilC);
      bpIds.set('draw_call_plot', moved.id!);
    },
  );
  const entry = await dc.next<StoppedEvent>('stopped', 60_000);
  assert.equal(entry.body.reason, 'entry');
  const top = await dc.topFrame();
  assert.equal(top.name, 'main');
  assert.equal(top.source?.path, mainC);
  // main's first line with code is its opening brace or the first statement.
  const firstStatement = lineOf(mainC, 'origin.x = 3;');
  assert.ok(top.line >= lineOf(mainC, 'void main(void)') && top.line <= firstStatement, `entry line ${top.line}`);

  const mame = childProcesses(dc.adapterPid()).filter((p) => /mame/i.test(p.comm));
  assert.equal(mame.length, 1, `one MAME child of the adapter, found ${JSON.stringify(mame)}`);
  mamePid = mame[0].pid;
});

test('continue stops at the line breakpoint, with the hit breakpoint id', async () => {
  const stop = await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal(stop.body.reason, 'breakpoint');
  assert.deepEqual(stop.body.hitBreakpointIds, [bpIds.get('loop_body')]);
  const top = await dc.topFrame();
  assert.equal(top.source?.path, mainC);
  assert.equal(top.line, fx.markers.loop_body.line);
});

test('scopes show typed globals, locals and registers; values change as the program runs', async () => {
  const frameId = (await dc.topFrame()).id;
  const globals = await scopeVariables(frameId, 'Globals');
  const counter = named(globals, 'counter');
  assert.match(counter.type ?? '', /unsigned char/);
  const origin = named(globals, 'origin');
  assert.match(origin.type ?? '', /struct point/);
  assert.ok(origin.variablesReference > 0, 'a struct has children');
  const fields = (await dc.variablesRequest({ variablesReference: origin.variablesReference })).body.variables;
  assert.deepEqual(
    fields.map((f) => [f.name, f.type, f.value]),
    [
      ['x', 'int', '3'],
      ['y', 'int', '-4'],
    ],
  );
  assert.match(named(globals, 'message').value, /RETRO/);

  const registers = await scopeVariables(frameId, 'Registers');
  const pc = named(registers, 'PC');
  assert.ok(Number(pc.value.match(/0x[0-9a-f]+|\d+/i)?.[0]) > 0x100, `PC value ${pc.value}`);
  assert.ok(Array.isArray(await scopeVariables(frameId, 'Locals')));

  const counterBefore = Number.parseInt(counter.value, 10);
  // Around the loop once more: counter++ has run, so the global moved on.
  await dc.setBreakpointsRequest({ source: { path: utilC }, breakpoints: [] });
  await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  const after = named(await scopeVariables((await dc.topFrame()).id, 'Globals'), 'counter');
  assert.equal(
    Number.parseInt(after.value, 10),
    (counterBefore + 1) & 0xff,
    `counter ${counter.value} → ${after.value}`,
  );
  const pcAfter = named(await scopeVariables((await dc.topFrame()).id, 'Registers'), 'PC');
  assert.equal(pcAfter.value, pc.value, 'the same breakpoint, so the same PC');
  // Restore the moved breakpoint in util.c for the stepping tests.
  const util = await dc.setBreakpointsRequest({
    source: { path: utilC },
    breakpoints: [{ line: fx.markers.draw_call_plot.line }],
  });
  bpIds.set('draw_call_plot', util.body.breakpoints[0].id!);
});

test('evaluate reads a global by name, for hover, watch and repl', async () => {
  const frameId = (await dc.topFrame()).id;
  const globals = await scopeVariables(frameId, 'Globals');
  for (const context of ['hover', 'watch', 'repl'] as const) {
    const r = await dc.evaluateRequest({ expression: 'counter', frameId, context });
    assert.equal(r.body.result, named(globals, 'counter').value);
    assert.match(r.body.type ?? '', /unsigned char/);
  }
  const origin = await dc.evaluateRequest({ expression: 'origin', frameId, context: 'watch' });
  assert.ok(origin.body.variablesReference > 0);
  await assert.rejects(
    dc.evaluateRequest({ expression: 'no_such_variable', frameId, context: 'watch' }),
    /no_such_variable/,
  );
});

test('stack, stepIn, stepOut and next move between functions and lines', async () => {
  await dc.setBreakpointsRequest({ source: { path: mainC }, breakpoints: [] });
  const stop = await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal(stop.body.reason, 'breakpoint');
  const { body } = await dc.stackTraceRequest({ threadId: 1 });
  assert.ok(body.stackFrames.length >= 2, `frames: ${JSON.stringify(body.stackFrames)}`);
  assert.deepEqual(
    body.stackFrames.slice(0, 2).map((f) => [f.name, f.source?.path, f.line]),
    [
      ['draw', utilC, fx.markers.draw_call_plot.line],
      ['main', mainC, fx.markers.call_draw.line],
    ],
  );

  const stepIn = await stoppedAfter(() => dc.stepInRequest({ threadId: 1 }));
  assert.equal(stepIn.body.reason, 'step');
  let top = await dc.topFrame();
  // The session may stop on plot's opening line (its prologue) before the first statement.
  const plotLine = lineOf(utilC, 'unsigned int plot(');
  assert.deepEqual([top.name, top.source?.path], ['plot', utilC]);
  assert.ok(top.line >= plotLine && top.line <= fx.markers.plot_body.line, `stepIn landed on line ${top.line}`);
  if (top.line !== fx.markers.plot_body.line) {
    await stoppedAfter(() => dc.nextRequest({ threadId: 1 }));
    top = await dc.topFrame();
  }
  assert.deepEqual([top.name, top.line], ['plot', fx.markers.plot_body.line]);
  const locals = await scopeVariables(top.id, 'Locals');
  assert.equal(named(locals, 'row').value.split(' ')[0], '10', 'plot(col, 10, 0xFF)');
  assert.match(named(locals, 'value').type ?? '', /unsigned char/);

  await stoppedAfter(() => dc.stepOutRequest({ threadId: 1 }));
  top = await dc.topFrame();
  assert.equal(top.name, 'draw');
  assert.equal(top.source?.path, utilC);
  assert.ok(
    [fx.markers.draw_call_plot.line, fx.markers.draw_return.line].includes(top.line),
    `after stepOut at ${top.line}`,
  );

  if (top.line === fx.markers.draw_call_plot.line) {
    await stoppedAfter(() => dc.nextRequest({ threadId: 1 }));
    top = await dc.topFrame();
  }
  assert.equal(top.line, fx.markers.draw_return.line);

  const instruction = await stoppedAfter(() => dc.nextRequest({ threadId: 1, granularity: 'instruction' }));
  assert.equal(instruction.body.reason, 'step');
  const pcs = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].instructionPointerReference;
  assert.ok(pcs, 'frames carry the PC');
});

test('readMemory at 0 returns the ROM bytes; writeMemory round-trips in RAM; out of range is refused', async () => {
  const rom = readFileSync(fx.rom);
  const r = (await dc.customRequest('readMemory', {
    memoryReference: '0x0000',
    count: 256,
  })) as DebugProtocol.ReadMemoryResponse;
  assert.deepEqual(Buffer.from(r.body!.data!, 'base64'), rom.subarray(0, 256));

  const bytes = Buffer.from([0xde, 0xad, 0xbe, 0xef]);
  const w = (await dc.customRequest('writeMemory', {
    memoryReference: '0x9000',
    data: bytes.toString('base64'),
  })) as DebugProtocol.WriteMemoryResponse;
  assert.equal(w.body?.bytesWritten, 4);
  const back = (await dc.customRequest('readMemory', {
    memoryReference: '0x9000',
    count: 4,
  })) as DebugProtocol.ReadMemoryResponse;
  assert.deepEqual(Buffer.from(back.body!.data!, 'base64'), bytes);

  await assert.rejects(
    dc.customRequest('readMemory', { memoryReference: '0xFFF0', count: 64 }),
    /address|range|outside/i,
  );
  await assert.rejects(dc.customRequest('readMemory', { memoryReference: 'banana', count: 4 }), /not a memory address/);
  await assert.rejects(dc.customRequest('readMemory', { memoryReference: '0', count: 1_000_000 }), /At most/);
  // the session is intact: the same stop, still readable
  assert.ok((await dc.topFrame()).line > 0);
  const again = (await dc.customRequest('readMemory', {
    memoryReference: '0x9000',
    count: 4,
  })) as DebugProtocol.ReadMemoryResponse;
  assert.deepEqual(Buffer.from(again.body!.data!, 'base64'), bytes);
});

test('pause stops a running program', async () => {
  await dc.setBreakpointsRequest({ source: { path: utilC }, breakpoints: [] });
  const from = dc.events.length;
  await dc.continueRequest({ threadId: 1 });
  await new Promise((r) => setTimeout(r, 500));
  const stop = await stoppedAfter(() => dc.pauseRequest({ threadId: 1 }));
  assert.equal(stop.body.reason, 'pause');
  // the continue response says the thread runs: no continued event of our own (DAP; VS Code mishandles both)
  assert.equal(dc.events.slice(from).filter((e) => e.event === 'continued').length, 0);
  const top = await dc.topFrame();
  assert.ok(top.line > 0 || top.instructionPointerReference, 'a location after pause');
});

test('disconnect ends MAME', async () => {
  assert.ok(mamePid && isAlive(mamePid), 'MAME is running before disconnect');
  await dc.disconnectRequest({});
  await waitUntil(`MAME pid ${mamePid} is gone`, () => !isAlive(mamePid), 20_000);
});
