// Data breakpoints over the DAP wire on the built-in C64 (VICE's protocol:
// store checkpoints) with a cc65 program: Break on Value Change from a
// Variables row and from typed C lvalues (a global, an array element, a
// local's slot), the stop with the old and new value and the writing PC's C
// line, and what is refused (registers, conditions).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { lineOf, RecordingClient } from '../dap/dap-client.js';
import { freshBundle } from '../support/bundle.js';

let fx: C64Fixture;
let dc: RecordingClient;

before(async () => {
  freshBundle();
  fx = await buildC64Fixture();
  dc = new RecordingClient();
  await dc.start();
  await dc.initialize();
  await dc.launchAndConfigure({ machine: 'c64', emulator: 'builtin', program: fx.prg, cwd: fx.dir, stopOnEntry: true });
  await dc.next('stopped', 60_000);
});

after(async () => {
  await dc?.stop();
});

type Info = DebugProtocol.DataBreakpointInfoResponse['body'];

async function info(args: DebugProtocol.DataBreakpointInfoArguments): Promise<Info> {
  return ((await dc.send('dataBreakpointInfo', args)) as DebugProtocol.DataBreakpointInfoResponse).body;
}

async function setData(breakpoints: DebugProtocol.DataBreakpoint[]): Promise<DebugProtocol.Breakpoint[]> {
  return ((await dc.send('setDataBreakpoints', { breakpoints })) as DebugProtocol.SetDataBreakpointsResponse).body
    .breakpoints;
}

async function scopeRef(name: string): Promise<number> {
  const frame = await dc.topFrame();
  return (await dc.scopesRequest({ frameId: frame.id })).body.scopes.find((s) => s.name === name)!.variablesReference;
}

/** The 4 hex digits of the address a dataBreakpointInfo description names. */
const at = (i: Info) => /at 0x([0-9A-F]{4})\)$/.exec(i.description)![1];

/** Continues to the next stop; returns it and the Debug Console lines that came with it. */
async function continueToStop(): Promise<{ stop: DebugProtocol.StoppedEvent; said: () => Promise<string> }> {
  dc.drain('stopped');
  dc.drain('output');
  await dc.continueRequest({ threadId: 1 });
  const stop = await dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
  const said = async () =>
    (await dc.next<DebugProtocol.OutputEvent>('output', 10_000, (e) => e.body.output.startsWith('Data breakpoint')))
      .body.output;
  return { stop, said };
}

test('dataBreakpointInfo: a Globals row, typed lvalues sized by their C type, a local slot; registers refused', async () => {
  const globals = await scopeRef('Globals');
  const counter = await info({ variablesReference: globals, name: 'counter' });
  assert.ok(counter.dataId, counter.description);
  assert.match(counter.description, /^counter \(int, 2 bytes at 0x[0-9A-F]{4}\)$/);
  assert.deepEqual(counter.accessTypes, ['write', 'read', 'readWrite']);

  const element = await info({ name: 'letters[0]' });
  assert.match(element.description, /^letters\[0\] \(unsigned char, 1 byte at 0x[0-9A-F]{4}\)$/);
  const letters = await info({ name: 'letters' });
  assert.match(letters.description, /unsigned char\[4\], 4 bytes/);

  const frame = await dc.topFrame();
  const local = await info({ name: 'total', frameId: frame.id });
  assert.match(local.description, /^total \(int, 2 bytes at 0x[0-9A-F]{4}\)$/, 'a local slot on the C stack');

  const registers = await scopeRef('Registers');
  const pc = await info({ variablesReference: registers, name: 'PC' });
  assert.equal(pc.dataId, null);
  assert.match(pc.description, /Registers are not memory/);
  const notLvalue = await info({ name: 'counter + 1' });
  assert.equal(notLvalue.dataId, null);
  assert.match(notLvalue.description, /not an object in memory/);
});

test('a write watch on a global: the stop names it, old and new value, the writing PC and its C line', async () => {
  const counter = await info({ name: 'counter' });
  const [bp] = await setData([{ dataId: counter.dataId!, accessType: 'write' }]);
  assert.equal(bp.verified, true, bp.message);
  const { stop, said } = await continueToStop();
  assert.equal(stop.body.reason, 'data breakpoint');
  const forLine = lineOf(fx.sources[0], 'for (counter = 1');
  assert.match(
    await said(),
    new RegExp(
      `^Data breakpoint counter: 0 → 1 by ST[AX] \\$${at(counter)} at 0x[0-9A-F]{4} \\(main, main\\.c:${forLine}\\)\\n$`,
    ),
  );
  assert.equal((await dc.evaluateRequest({ expression: 'counter', context: 'watch' })).body.result, '1');
  await setData([]);
});

test('a write watch on an array element fires only at its own store', async () => {
  const element = await info({ name: 'letters[0]' });
  const [bp] = await setData([{ dataId: element.dataId!, accessType: 'write' }]);
  assert.equal(bp.verified, true, bp.message);
  const { stop, said } = await continueToStop();
  assert.equal(stop.body.reason, 'data breakpoint');
  // PETSCII: cc65 stores 'A' as 193 and 'Z' as 218
  const line = lineOf(fx.sources[0], "letters[0] = 'Z'");
  assert.match(
    await said(),
    new RegExp(
      `^Data breakpoint letters\\[0\\]: 193 → 218 by ST[AXY] \\$${at(element)} at 0x[0-9A-F]{4} \\(main, main\\.c:${line}\\)\\n$`,
    ),
  );
  assert.equal(
    (await dc.evaluateRequest({ expression: 'counter', context: 'watch' })).body.result,
    '4',
    'after the loop',
  );
  await setData([]);
});

test('conditions and foreign dataIds are refused per breakpoint, with the reason', async () => {
  const counter = await info({ name: 'counter' });
  const [withCondition, foreign] = await setData([
    { dataId: counter.dataId!, accessType: 'write', condition: 'counter == 2' },
    { dataId: 'something else' },
  ]);
  assert.equal(withCondition.verified, false);
  assert.match(withCondition.message!, /not supported/);
  assert.equal(foreign.verified, false);
  assert.match(foreign.message!, /not a data breakpoint this debugger gave out/);
});
