import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BreakpointTable, MAX_BREAKPOINTS } from '../../src/session/breakpoints.js';
import type { Address, TargetBreakpoints } from '../../src/core/target.js';
import type { RetroError } from '../../src/core/errors.js';

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
