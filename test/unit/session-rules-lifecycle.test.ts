/**
 * Session rules of reset, reload and snapshots on the fake machine, which has no lifecycle facet (as DOSBox):
 * each is refused with `unsupported`, naming the reason, and the session goes on as it was; a stale generation is
 * refused first; a snapshot file of another machine is refused before the target is asked anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RetroError } from '../../src/core/errors.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/session/snapshot-file.js';
import { bootFake } from '../support/fake-target.js';

const code = (e: unknown) => (e instanceof RetroError ? e.code : String(e));

test('without a lifecycle facet, reset, reload and snapshots answer unsupported and change nothing', async () => {
  const { session, starter } = await bootFake();
  const before = await session.status();
  for (const kind of ['soft', 'hard', 'reload'] as const)
    await assert.rejects(
      starter.reset(kind),
      (e) => code(e) === 'unsupported' && /reset, reload or snapshots/.test((e as Error).message),
    );
  await assert.rejects(starter.saveState(), (e) => code(e) === 'unsupported');
  await assert.rejects(starter.loadState(new Uint8Array(8)), (e) => code(e) === 'unsupported');
  await assert.rejects(
    starter.reset('hard', { generation: before.generation - 1 }),
    (e) => code(e) === 'stale_generation',
  );
  const after = await session.status();
  assert.equal(after.state, 'stopped');
  assert.equal(after.generation, before.generation);
  assert.equal(after.pc, before.pc);
  await session.stop();
});

test('a snapshot file says what wrote it; another machine, emulator or format is refused, a damaged one too', () => {
  const payload = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
  const file = encodeSnapshot({ machine: 'c64', emulator: 'builtin', format: 'f/1' }, payload);
  const expect = { machine: 'c64', emulator: 'builtin', format: 'f/1' };
  assert.deepEqual(decodeSnapshot(file, expect).payload, payload);
  for (const other of [{ machine: 'spectrum' }, { emulator: 'vice' }, { format: 'f/2' }])
    assert.throws(
      () => decodeSnapshot(file, { ...expect, ...other }),
      (e) => code(e) === 'incompatible_target',
    );
  const damaged = Buffer.from(file);
  damaged[damaged.length - 1] ^= 1;
  assert.throws(
    () => decodeSnapshot(damaged, expect),
    (e) => code(e) === 'bad_request',
  );
  assert.throws(
    () => decodeSnapshot(file.subarray(0, file.length - 1), expect),
    (e) => code(e) === 'bad_request',
  );
});
