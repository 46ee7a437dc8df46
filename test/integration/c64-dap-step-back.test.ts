// Reverse debugging over the DAP wire on the built-in C64 (a cc65 game loop): the adapter offers Step Back once the
// target records; Step Back goes to the C line run before this one (the stop says it is the past), an instruction
// back in the Disassembly view moves one instruction, Reverse Continue returns to the previous breakpoint hit with
// the variables as they were, and continuing from the past runs on (the future is dropped) to the next hit; each
// move prints the machine's time-travel granularity in the Debug Console.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { REPO_ROOT, buildCc65Program, findMarkers } from '../support/c64-fixture.js';
import { RecordingClient } from '../dap/dap-client.js';

let dc: RecordingClient;
let markers: Awaited<ReturnType<typeof findMarkers>>;
let source: string;

before(async () => {
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, stdio: 'ignore' });
  const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'history'), ['game.c']);
  source = join(dir, 'game.c');
  markers = await findMarkers([source]);
  dc = new RecordingClient();
  await dc.start();
  await dc.initialize();
  await dc.launchAndConfigure(
    { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), cwd: dir, stopOnEntry: true },
    async () => {
      await dc.setBreakpointsRequest({ source: { path: source }, breakpoints: [{ line: markers.trail.line }] });
    },
  );
  await dc.next('stopped', 60_000);
});

after(async () => {
  await dc?.stop();
});

async function stopAfter(action: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  dc.drain('stopped');
  await action();
  return dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
}

/** The Debug Console line each time-travel move prints: the built-in C64's past is exact to the cycle. */
const GRANULARITY = /^Time travel granularity here: exact to the cycle: .*snapshot every \d+ frames/;

/** Runs a time-travel move; its stop, and the granularity line printed for it. */
async function travelled(move: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
  dc.drain('output');
  const stop = await stopAfter(move);
  await dc.next<DebugProtocol.OutputEvent>('output', 10_000, (e) => GRANULARITY.test(e.body.output));
  return stop;
}

async function frames(): Promise<number> {
  const frame = await dc.topFrame();
  const r = await dc.evaluateRequest({ expression: 'frames', frameId: frame.id, context: 'watch' });
  return parseInt(r.body.result, 10);
}

test('Step Back, an instruction back, Reverse Continue, and continuing from the past', async () => {
  const caps = await dc.next<DebugProtocol.CapabilitiesEvent>('capabilities', 10_000);
  assert.equal(caps.body.capabilities.supportsStepBack, true);
  await stopAfter(() => dc.continueRequest({ threadId: 1 }));
  await stopAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal((await dc.topFrame()).line, markers.trail.line);
  const present = await frames();

  const back = await travelled(() => dc.send('stepBack', { threadId: 1 }));
  assert.match(back.body.description ?? '', /time travel/);
  assert.equal((await dc.topFrame()).line, markers.keys.line, 'the line run before the breakpoint line');
  assert.equal(await frames(), present);

  const before = (await dc.topFrame()).instructionPointerReference;
  await travelled(() => dc.send('stepBack', { threadId: 1, granularity: 'instruction' }));
  assert.notEqual((await dc.topFrame()).instructionPointerReference, before);

  await travelled(() => dc.send('reverseContinue', { threadId: 1 }));
  assert.equal((await dc.topFrame()).line, markers.trail.line);
  assert.equal(await frames(), present - 1, 'the previous hit, with the globals as they were');

  const resumed = await stopAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.doesNotMatch(resumed.body.description ?? '', /time travel/);
  assert.equal(await frames(), present, 'running on from the past reaches the next hit');
});

test('Who last wrote this (a Variables row), writes refused in the past, Step Back Out to the caller', async () => {
  await dc.setBreakpointsRequest({ source: { path: source }, breakpoints: [{ line: markers.corrupt.line }] });
  await stopAfter(() => dc.continueRequest({ threadId: 1 }));
  assert.equal((await dc.topFrame()).line, markers.corrupt.line);
  await dc.setBreakpointsRequest({ source: { path: source }, breakpoints: [] }); // the steps below pass it
  await travelled(() => dc.send('stepBack', { threadId: 1 }));
  const call = await dc.topFrame();
  assert.deepEqual([call.line, call.name], [markers.maybe_corrupt.line, 'main'], 'from a first body line: the call');
  await stopAfter(() => dc.stepInRequest({ threadId: 1 })); // the inverse, run on from the past
  assert.equal((await dc.topFrame()).line, markers.corrupt.line);
  await stopAfter(() => dc.nextRequest({ threadId: 1 }));
  await stopAfter(() => dc.nextRequest({ threadId: 1 })); // out of corrupt(): the write is in the past now
  const after = await dc.topFrame();
  assert.notEqual(after.name, 'corrupt');
  await travelled(() => dc.send('stepBack', { threadId: 1 }));
  assert.equal((await dc.topFrame()).line, markers.maybe_corrupt.line, 'back over a call: the calling line');
  await stopAfter(() => dc.nextRequest({ threadId: 1 }));
  assert.equal((await dc.topFrame()).line, after.line);
  const corruptedAt = await frames();

  const top = await dc.topFrame();
  const scopes = (await dc.scopesRequest({ frameId: top.id })).body.scopes;
  const globals = scopes.find((s) => /global/i.test(s.name));
  assert.ok(globals, `a globals scope: ${scopes.map((s) => s.name).join(', ')}`);
  dc.drain('stopped');
  const reply = await dc.send('retro/lastWrite', { variablesReference: globals.variablesReference, name: 'lives' });
  const moved = await dc.next<DebugProtocol.StoppedEvent>('stopped', 30_000);
  assert.equal(reply.body.writer.line, markers.corrupt.line);
  assert.equal(reply.body.writer.function, 'corrupt');
  assert.deepEqual([reply.body.old, reply.body.value], [3, corruptedAt & 0xff]);
  assert.match(reply.body.message, /in the past\. Time travel granularity here: exact to the cycle: /);
  assert.match(moved.body.description ?? '', new RegExp(`in the past, frame \\d+ of \\d+, read-only`));
  assert.equal(await frames(), corruptedAt);

  const frameId = (await dc.topFrame()).id;
  await assert.rejects(
    dc.send('setExpression', { expression: 'lives', value: '5', frameId }),
    /recorded past.*read-only/,
    'a write in the past is refused',
  );
  await assert.rejects(dc.send('retro/lastWrite', { name: '1 + 2' }), /./, 'an expression with no address');

  await travelled(() => dc.send('retro/stepBackOut', { threadId: 1 }));
  const caller = await dc.topFrame();
  assert.equal(caller.line, markers.maybe_corrupt.line, 'the call in main');
  assert.match(caller.name, /main/);
  assert.equal(await frames(), corruptedAt);
  await assert.rejects(dc.send('retro/stepBackOut', { threadId: 1 }), /no C line|no caller/, 'main has no C caller');
  assert.equal((await dc.topFrame()).line, markers.maybe_corrupt.line, 'a refused step back out stays');
});

test('Reverse Continue honours conditions (evaluated in the past) and hit counts (counted backwards)', async () => {
  const now = await frames();
  const target = now - 4;
  await dc.setBreakpointsRequest({
    source: { path: source },
    breakpoints: [{ line: markers.trail.line, condition: `frames == ${target}` }],
  });
  await stopAfter(() => dc.send('reverseContinue', { threadId: 1 }));
  assert.equal((await dc.topFrame()).line, markers.trail.line);
  assert.equal(await frames(), target, 'the one hit where the condition held');

  await dc.setBreakpointsRequest({
    source: { path: source },
    breakpoints: [{ line: markers.trail.line, condition: '(frames & 1) == 1', hitCondition: '2' }],
  });
  await stopAfter(() => dc.send('reverseContinue', { threadId: 1 }));
  const odd = target % 2 === 1 ? target - 2 : target - 1; // the latest odd frame before `target`
  assert.equal(await frames(), odd - 2, 'the second odd hit going back');
});
