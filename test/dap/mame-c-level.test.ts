// The C level over the DAP wire on real MAME with SDCC programs: `evaluate` of each expression kind, a `>= 3`
// hit condition, every Variables row's evaluateName (and the evaluate of it giving the row's value), pointers and
// arrays with a memoryReference, setExpression; on the bundled demo, step into `colour_of` lands on its `return`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { buildDemo } from '../../src/cli/build-demo.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { RecordingClient } from './dap-client.js';
import { freshBundle } from '../support/bundle.js';

let fx: ZxFixture;
let dc: RecordingClient;

async function launch(args: Record<string, unknown>): Promise<RecordingClient> {
  const client = new RecordingClient();
  await client.start();
  await client.initialize();
  await client.launchAndConfigure({ machine: 'spectrum', emulator: 'mame', stopOnEntry: true, ...args });
  await client.next('stopped', 120_000);
  return client;
}

before(async () => {
  freshBundle();
  fx = await buildZxFixture();
  dc = await launch({ program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir });
});

after(async () => {
  await dc?.stop();
});

async function stoppedAfter(action: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  dc.drain('stopped');
  await action();
  return dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
}

async function evaluate(expression: string, frameId?: number): Promise<DebugProtocol.EvaluateResponse['body']> {
  return (await dc.evaluateRequest({ expression, frameId, context: 'watch' })).body;
}

test('a ">= 3" hit condition stops at the third hit and at every one after it', async () => {
  const m = fx.markers.plot_body;
  const { body } = await dc.setBreakpointsRequest({
    source: { path: m.file },
    breakpoints: [{ line: m.line, hitCondition: '>= 3' }],
  });
  assert.equal(body.breakpoints[0].verified, true, body.breakpoints[0].message);
  const start = Number((await evaluate('counter')).result.split(' ')[0]);
  await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  // counter++ runs before draw → plot on each pass: the third hit is on the third pass
  const third = Number((await evaluate('counter')).result.split(' ')[0]);
  assert.equal((third - start) & 0xff, 3);
  await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal(Number((await evaluate('counter')).result.split(' ')[0]), (third + 1) & 0xff);
});

test("evaluate: each C expression kind in plot's frame, and in draw's", async () => {
  const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  assert.deepEqual(
    frames.slice(0, 3).map((f) => f.name),
    ['plot', 'draw', 'main'],
  );
  const top = frames[0].id;
  const value = async (e: string, frameId = top) => (await evaluate(e, frameId)).result;
  const cases: [string, RegExp][] = [
    ['col', /^\d+/], // a parameter in a register
    ['row', /^10\b/],
    ['value', /^255\b/], // a parameter on the stack
    ['row * 32 + col', /^\d+$/],
    ['0x5800', /^22528$/],
    ['010 + 1', /^9$/],
    ["'A'", /^65\b/],
    ['"hi"', /"hi"/],
    ['origin.x', /^3$/],
    ['origin.y', /^-4$/],
    ['(&origin)->y', /^-4$/],
    ['message[1]', /^69 'E'/],
    ['*message', /^82 'R'/],
    ['sizeof(origin)', /^4$/],
    ['sizeof(struct point)', /^4$/],
    ['(unsigned char)300', /^44\b/],
    ['-origin.y', /^4$/],
    ['~0', /^-1$/],
    ['!col', /^[01]$/],
    ['origin.x > 2 && origin.y < 0', /^1$/],
    ['origin.x == 0 || 0', /^0$/],
    ['origin.x ? 7 : 8', /^7$/],
    ['1 << 4 | 1', /^17$/],
    ['$pc', /^\d+/],
    ['$sp', /^\d+/],
    ['*(unsigned char *)0x5800', /^\d+/],
    ['(int)counter', /^\d+$/],
  ];
  for (const [e, want] of cases) assert.match(await value(e), want, e);
  assert.match((await evaluate('&origin', top)).result, /^0x8/i);
  // draw's frame: its locals resolve there; plot's `value` does not exist in it
  await assert.rejects(evaluate('value', frames[1].id), /no variable `value` is visible here/);
  await assert.rejects(evaluate('origin.z'), /no member `z` in struct point/);
  await assert.rejects(evaluate('col->x'), /is not a pointer/);
});

test('every Variables row has an evaluateName that evaluates to the row; pointers and arrays a memoryReference', async () => {
  const frame = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
  const scopes = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
  let rows = 0;
  let withMemory = 0;
  const visit = async (ref: number, depth: number): Promise<void> => {
    const vars = (await dc.variablesRequest({ variablesReference: ref })).body.variables;
    for (const v of vars) {
      rows++;
      assert.ok(v.evaluateName, `${v.name} has an evaluateName`);
      const gone = /^<(not available here.*)>$/.exec(v.value);
      if (gone) {
        // a register local whose register holds something else here: evaluating it says the same, with no value
        await assert.rejects(evaluate(v.evaluateName, frame.id), (e: Error) => e.message.includes(gone[1]));
        continue;
      }
      const again = await evaluate(v.evaluateName, frame.id);
      // registers are shown in hex, their evaluation in decimal: the same number
      const same = /^0x[0-9a-f]+$/i.test(v.value) ? String(parseInt(v.value, 16)) : v.value;
      assert.equal(again.result, same, `${v.evaluateName} evaluates to the row's value`);
      if (/\*|\[\d+\]/.test(v.type ?? '')) {
        assert.match(v.memoryReference ?? '', /^0x[0-9a-f]+$/i, `${v.name} (${v.type}) has a memoryReference`);
        withMemory++;
      }
      if (v.variablesReference && depth < 2) await visit(v.variablesReference, depth + 1);
    }
  };
  for (const s of scopes) await visit(s.variablesReference, 0);
  assert.ok(rows > 20 && withMemory >= 1, `${rows} rows, ${withMemory} with memory`);
});

test('setExpression over DAP: encoded by the C type, read back; out of range refused', async () => {
  const frame = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
  const set = await dc.customRequest('setExpression', { expression: 'origin.x', value: '-9', frameId: frame.id });
  assert.equal(set.body.value, '-9');
  assert.equal((await evaluate('origin.x', frame.id)).result, '-9');
  await assert.rejects(
    dc.customRequest('setExpression', { expression: 'origin.x', value: '40000', frameId: frame.id }),
    /out of range for int/,
  );
  await dc.customRequest('setExpression', { expression: 'origin.x', value: '3', frameId: frame.id });
});

test('the bundled demo: step into colour_of lands on its return, not on the closing brace', async () => {
  await dc.stop();
  const demo = await buildDemo(join(mkdtempSync(join(tmpdir(), 'retro-demo-')), 'demo'), false);
  dc = await launch({ program: demo.program, debugInfo: demo.cdb, cwd: demo.dir });
  const lines = readFileSync(demo.source, 'utf8').split('\n');
  const loopLine = lines.findIndex((l) => l.includes('/* DEMO:loop */')) + 1;
  const returnLine = lines.findIndex((l) => l.includes('return ((row + first_colour) & 7) << 3;')) + 1;
  await dc.setBreakpointsRequest({ source: { path: demo.source }, breakpoints: [{ line: loopLine }] });
  await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal((await dc.topFrame()).line, loopLine);
  await dc.setBreakpointsRequest({ source: { path: demo.source }, breakpoints: [] });
  await stoppedAfter(() => dc.stepInRequest({ threadId: 1 }));
  const top = await dc.topFrame();
  assert.equal(top.name, 'colour_of');
  assert.equal(top.line, returnLine);
});
