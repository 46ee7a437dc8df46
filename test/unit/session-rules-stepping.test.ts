/**
 * Session rules on the fake machine: boot to main, C-line steps made of
 * emulator legs that clients never see, breakpoints winning over a step,
 * watchpoint stops, and nextStop armed before the command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootFake, COUNTER, LINES, nextEvent, TOTAL } from '../support/fake-target.js';

test('boot runs to main and reports it as the entry stop', async () => {
  const { session, target } = await bootFake();
  const st = await session.status();
  assert.equal(st.phase, 'ready');
  assert.equal(st.state, 'stopped');
  assert.equal(st.last_stop?.reason, 'entry');
  assert.equal(st.location?.line, LINES.main);
  assert.deepEqual(target.commands, ['resume'], 'one leg: run with a temporary breakpoint at main');
  assert.deepEqual(target.armed(), [], 'the temporary breakpoint is gone');
  await session.stop();
});

test('a line step over a call is one stepRange leg and one stop for clients', async () => {
  const { session, target, starter } = await bootFake();
  await starter.nextStop(2_000, () => starter.stepOver()); // line 10 -> 12
  const stops: number[] = [];
  session.onEvent((q) => {
    if (q.event.type === 'stopped') stops.push(q.event.location?.line ?? -1);
  });
  target.commands.length = 0;
  const st = await starter.nextStop(2_000, () => starter.stepOver()); // line 12 (calls add) -> 13
  assert.equal(st.location?.line, LINES.store);
  assert.deepEqual(target.commands, ['stepRange over']);
  assert.deepEqual(stops, [LINES.store], 'clients see the final stop only');
  assert.equal(target.ram[TOTAL], 7, 'the call ran');
  await session.stop();
});

test('step into lands on the first body line: a second leg runs over the prologue, hidden', async () => {
  const { session, target, starter } = await bootFake();
  await starter.nextStop(2_000, () => starter.stepOver()); // at line 12
  target.commands.length = 0;
  const stops: number[] = [];
  session.onEvent((q) => {
    if (q.event.type === 'stopped') stops.push(q.event.location?.line ?? -1);
  });
  const st = await starter.nextStop(2_000, () => starter.stepInto());
  assert.equal(st.location?.line, LINES.addBody);
  assert.equal(st.location?.function, 'add');
  assert.deepEqual(target.commands, ['stepRange into', 'stepRange over']);
  assert.deepEqual(stops, [LINES.addBody]);
  const out = await starter.nextStop(2_000, () => starter.stepOut());
  assert.equal(out.location?.line, LINES.store, 'step out returns to the caller at the next line');
  await session.stop();
});

test('a breakpoint inside the stepped-over call wins over the step', async () => {
  const { session, starter } = await bootFake();
  await starter.nextStop(2_000, () => starter.stepOver()); // at line 12
  const bp = await starter.setLineBreakpoint('main.c', LINES.addBody);
  assert.equal(bp.verified, true);
  const st = await starter.nextStop(2_000, () => starter.stepOver());
  assert.equal(st.last_stop?.reason, 'breakpoint');
  assert.equal(st.location?.line, LINES.addBody);
  assert.deepEqual(st.last_stop?.breakpoint_ids, [bp.id]);
  await session.stop();
});

test('a watchpoint stop names the session watchpoint and the accessing instruction', async () => {
  const { session, starter } = await bootFake();
  const wp = await starter.setWatchpoint({ address: { space: 'cpu', offset: COUNTER }, length: 1, kind: 'write' });
  const st = await starter.nextStop(2_000, () => starter.resume());
  assert.equal(st.last_stop?.reason, 'watchpoint');
  assert.deepEqual(st.last_stop?.watchpoint_ids, [wp.id]);
  assert.equal(session.listWatchpoints()[0].last_hit?.access_pc, 0x1004);
  await session.stop();
});

test('pause stops a running machine; nextStop times out while it keeps running', async () => {
  const { session, starter } = await bootFake();
  await starter.resume();
  await assert.rejects(starter.nextStop(30), (e: Error & { code?: string }) => e.code === 'timeout');
  const paused = nextEvent(session, 'stopped');
  await starter.pause();
  assert.equal((await paused).stop.reason, 'pause');
  await session.stop();
});
