import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BreakpointTable, MAX_BREAKPOINTS } from '../../src/session/breakpoints.js';
import type { Address, TargetBreakpoints } from '../../src/core/target.js';
import type { RetroError } from '../../src/core/errors.js';
import type { BreakpointChange } from '../../src/session/types.js';

/** Records what the table asks of the emulator; only the two breakpoint calls are used. */
function recordingTarget() {
  const armed = new Map<number, number>();
  let next = 1;
  const target = {
    async set(a: Address) {
      armed.set(next, a.offset);
      return next++;
    },
    async clear(id: number) {
      armed.delete(id);
    },
  } satisfies TargetBreakpoints;
  return { target, armed };
}

const owner = (id: string) => ({ id, kind: 'mcp' as const, label: id });

test('two owners at one address share one emulator breakpoint until both are gone', async () => {
  const { target, armed } = recordingTarget();
  const table = new BreakpointTable(() => target);
  const address = { space: 'cpu' as const, offset: 0x130 };
  const a = await table.add(owner('a'), { kind: 'address', address, verified: true });
  const b = await table.add(owner('b'), { kind: 'address', address, verified: true });
  assert.equal(armed.size, 1);
  assert.deepEqual(table.hit(1, 0x130).sort(), [a.id, b.id].sort());
  await table.remove('a', a.id);
  assert.equal(armed.size, 1, 'b still needs it');
  await table.remove('b', b.id);
  assert.equal(armed.size, 0);
});

test("others' breakpoints are read-only and an owner's leave with it", async () => {
  const { target, armed } = recordingTarget();
  const table = new BreakpointTable(() => target);
  const mine = await table.add(owner('a'), {
    kind: 'address',
    address: { space: 'cpu', offset: 0x100 },
    verified: true,
  });
  await table.add(owner('a'), { kind: 'address', address: { space: 'cpu', offset: 0x104 }, verified: true });
  await assert.rejects(table.remove('b', mine.id), (e: RetroError) => e.code === 'not_owner');
  assert.deepEqual(await table.removeOwnedBy('a'), [1, 2]);
  assert.equal(armed.size, 0);
  assert.equal(table.list().length, 0);
});

test('unverified breakpoints are listed but never armed', async () => {
  const { target, armed } = recordingTarget();
  const table = new BreakpointTable(() => target);
  const bp = await table.add(owner('a'), {
    kind: 'line',
    file: 'main.c',
    line: 999,
    verified: false,
    message: 'no code',
  });
  assert.equal(armed.size, 0);
  assert.equal(table.get(bp.id).verified, false);
});

test('a session holds at most MAX_BREAKPOINTS: the next is refused with too_large, a cleared one makes room', async () => {
  const { target } = recordingTarget();
  const table = new BreakpointTable(() => target);
  const at = (offset: number) => ({
    kind: 'address' as const,
    address: { space: 'cpu' as const, offset },
    verified: true,
  });
  for (let i = 0; i < MAX_BREAKPOINTS; i++) await table.add(owner(i % 2 ? 'a' : 'b'), at(0x100 + i));
  await assert.rejects(table.add(owner('c'), at(0x8000)), (e: RetroError) => {
    assert.equal(e.code, 'too_large');
    assert.match(e.message, new RegExp(`at most ${MAX_BREAKPOINTS} breakpoints`));
    return true;
  });
  assert.equal(table.list().length, MAX_BREAKPOINTS);
  await table.remove('b', table.list()[0].id);
  await table.add(owner('c'), at(0x8000));
});

test('changes are announced as deltas: one entry per change whatever the list holds, with the owner', async () => {
  const { target } = recordingTarget();
  const told: BreakpointChange[][] = [];
  const table = new BreakpointTable(
    () => target,
    (changes) => told.push(changes),
  );
  const at = (offset: number) => ({
    kind: 'address' as const,
    address: { space: 'cpu' as const, offset },
    verified: true,
  });
  for (let i = 0; i < 100; i++) await table.add(owner('a'), at(0x100 + i));
  assert.equal(told.length, 100);
  assert.ok(told.every((batch) => batch.length === 1 && batch[0].change === 'added' && batch[0].owner.id === 'a'));
  assert.deepEqual(told[99][0].breakpoint?.address, { space: 'cpu', offset: 0x163 });
  const b = await table.add(owner('b'), at(0x8000));
  assert.deepEqual(
    told.at(-1)!.map((c) => [c.change, c.id, c.owner.id]),
    [['added', b.id, 'b']],
  );
  await table.remove('b', b.id);
  assert.deepEqual(told.at(-1), [{ change: 'removed', id: b.id, owner: owner('b') }], 'a removal carries no copy');
  told.length = 0;
  await table.removeOwnedBy('a');
  assert.equal(told.length, 1, "an owner's leaving is one announcement");
  assert.equal(told[0].length, 100);
  assert.ok(told[0].every((c) => c.change === 'removed' && c.breakpoint === undefined));
});

test("another owner's condition the emulator refuses jointly: the first breakpoint is announced changed, then back", async () => {
  const told: BreakpointChange[][] = [];
  let next = 1;
  // an emulator that takes a condition of at most 20 characters
  const target: TargetBreakpoints = {
    async set(_a: Address, condition?: string) {
      if (condition && condition.length > 20) throw new Error('too long');
      return next++;
    },
    async clear() {},
  };
  const table = new BreakpointTable(
    () => target,
    (changes) => told.push(changes),
  );
  const address = { space: 'cpu' as const, offset: 0x200 };
  const fields = (native: string) => ({ kind: 'address' as const, address, verified: true, native_condition: native });
  const a = await table.add(owner('a'), fields('A == $1'));
  const b = await table.add(owner('b'), fields('X == $2'));
  assert.deepEqual(
    told.at(-1)!.map((c) => [c.change, c.id]),
    [
      ['changed', a.id],
      ['added', b.id],
    ],
  );
  assert.match(told.at(-1)![0].breakpoint!.condition_host ?? '', /refused the compiled condition \(too long\)/);
  assert.match(told.at(-1)![0].breakpoint!.message ?? '', /^The debugger evaluates the condition at each hit: /);
  await table.remove('b', b.id);
  assert.deepEqual(
    told.at(-1)!.map((c) => [c.change, c.id, c.breakpoint?.condition_host]),
    [
      ['removed', b.id, undefined],
      ['changed', a.id, undefined],
    ],
  );
  assert.equal(table.get(a.id).message, undefined, 'its message is gone with the fallback');
});
