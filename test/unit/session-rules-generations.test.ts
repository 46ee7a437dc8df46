/**
 * Session rules on the fake machine: generations (a reset, a write into
 * code, an exit bump them; a mutation naming an old one is refused, never
 * re-targeted), boot phases seen through whenReady, and refusals that leave
 * the session intact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RetroError } from '../../src/core/errors.js';
import type { LaunchConfig } from '../../src/core/launch.js';
import { Session } from '../../src/session/session.js';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { bootFake, COUNTER, DEBUG_INFO, FakeTarget, nextEvent, POWER_ON, PROGRAM } from '../support/fake-target.js';

const code = (e: unknown) => (e instanceof RetroError ? e.code : String(e));

test('a reset bumps the generation; a mutation naming the old one is refused', async () => {
  const { session, target, starter } = await bootFake();
  const before = session.identity().generation;
  const bumped = nextEvent(session, 'generation');
  target.reset(false);
  assert.equal((await bumped).generation, before + 1);
  await assert.rejects(starter.resume({ generation: before }), (e) => code(e) === 'stale_generation');
  await assert.rejects(
    starter.writeMemory({ space: 'cpu', offset: COUNTER }, Uint8Array.of(1), { generation: before }),
    (e) => code(e) === 'stale_generation',
  );
  assert.equal((await session.status()).state, 'stopped', 'nothing ran');
  await starter.writeMemory({ space: 'cpu', offset: COUNTER }, Uint8Array.of(1), { generation: before + 1 });
  assert.equal(target.ram[COUNTER], 1);
  await session.stop();
});

test('a write into code is a new generation; a write to ROM is refused after the fact', async () => {
  const { session, starter } = await bootFake();
  const before = session.identity().generation;
  await starter.writeMemory({ space: 'cpu', offset: 0x1001 }, Uint8Array.of(0));
  assert.equal(session.identity().generation, before + 1);
  await assert.rejects(
    starter.writeMemory({ space: 'cpu', offset: 0x0100 }, Uint8Array.of(0x55)),
    (e) => code(e) === 'bad_address',
  );
  await assert.rejects(
    starter.writeMemory({ space: 'cpu', offset: 0xffff }, Uint8Array.of(1, 2)),
    (e) => code(e) === 'bad_address',
    'outside the 16-bit space',
  );
  assert.equal((await session.status()).state, 'stopped');
  await session.stop();
});

test('reads need a stopped machine; inspection names locations', async () => {
  const { session, starter } = await bootFake();
  assert.equal((await session.readVariable('counter')).type, 'unsigned char');
  await starter.resume();
  await assert.rejects(session.backtrace(), (e) => code(e) === 'not_stopped');
  await assert.rejects(starter.stepOver(), (e) => code(e) === 'not_stopped');
  await starter.pause();
  await starter.nextStop(2_000);
  assert.equal((await session.backtrace())[0].function !== undefined, true);
  await session.stop();
});

test('whenReady waits through the boot phases; a handle on a failed boot gets its error', async () => {
  const config = { machine: 'fake', emulator: 'fake' } as unknown as LaunchConfig;
  const session = new Session(config, 30_000);
  const early = session.attach('mcp', 'MCP client claude');
  const ready = early.whenReady(2_000);
  session.setPhase('starting_emulator', 'Starting the fake machine');
  session.attachTarget({ target: new FakeTarget(PROGRAM, POWER_ON), index: new DebugIndex(DEBUG_INFO), buildId: 'b' });
  session.setPhase('booting', 'Running to main');
  const stop = await session.runTo(0x1000, 2_000);
  session.announceReady({ ...stop, reason: 'entry' }, 'Stopped at main');
  const st = await ready;
  assert.equal(st.phase, 'ready');
  assert.equal(st.state, 'stopped', 'the entry stop is published with the phase');
  await session.stop();

  const failing = new Session(config, 30_000);
  const waiter = failing.attach('mcp', 'MCP client claude');
  const pending = waiter.whenReady(2_000);
  failing.fail(new RetroError('launch_failed', 'The fake emulator would not start.'));
  await assert.rejects(pending, (e) => code(e) === 'launch_failed' && /would not start/.test(String(e)));
  await assert.rejects(waiter.whenReady(10), (e) => code(e) === 'launch_failed', 'and at once afterwards');
  await failing.stop();
});

test('whenReady is bounded: a boot that hangs is a timeout, the session keeps starting', async () => {
  const session = new Session({ machine: 'fake', emulator: 'fake' } as unknown as LaunchConfig, 30_000);
  const handle = session.attach('mcp', 'MCP client claude');
  await assert.rejects(handle.whenReady(20), (e) => code(e) === 'timeout');
  assert.equal((await session.status()).phase, 'starting_emulator');
  await session.stop();
});

test('when the emulator goes away, every mutation says so and the phase is exited', async () => {
  const { session, target, starter } = await bootFake();
  const exited = nextEvent(session, 'exited');
  await target.close();
  await exited;
  await assert.rejects(starter.resume(), (e) => code(e) === 'target_lost');
  await assert.rejects(session.readMemory({ space: 'cpu', offset: 0 }, 1), (e) => code(e) === 'target_lost');
  assert.equal((await session.status()).phase, 'exited');
  await assert.rejects(starter.whenReady(10), (e) => code(e) === 'target_lost');
});
