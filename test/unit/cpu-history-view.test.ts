// The recent-instructions view over a target's CPU_HISTORY_FEATURE: each instruction decoded from its bytes and
// given its C line, nothing moved; a target without the feature is `unsupported` with its emulator's reason
// (MAME: no history through its bridge; DOS: no CPU debugger).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CPU_HISTORY_FEATURE, type ExecutedInstruction } from '../../src/core/cpu-history.js';
import { RetroError } from '../../src/core/errors.js';
import { noHistory, recentInstructions } from '../../src/session/cpu-history.js';
import { LINES, bootFake } from '../support/fake-target.js';

const regs = { a: 1, x: 2, y: 3, sp: 0xf0, flags: 0x20 };
const RAN: ExecutedInstruction[] = [
  { cycle: 100, pc: 0x1001, ...regs, bytes: [0x20, 0x00, 0x20] }, // JSR $2000 on the call line
  { cycle: 106, pc: 0x2001, ...regs, bytes: [0xa9, 0x05, 0x00] }, // LDA #$05 in add()
  { cycle: 108, pc: 0x0100, ...regs, bytes: [0x60, 0x00, 0x00] }, // RTS, no C line
];

test('recentInstructions decodes each instruction and names its C line', async () => {
  const { session, target } = await bootFake();
  const asked: number[] = [];
  target.features.provide(CPU_HISTORY_FEATURE, {
    source: 'a test ring',
    recent: async (count) => (asked.push(count), RAN.slice(-count)),
  });
  const before = await session.status();
  const got = await recentInstructions(session, 3);
  assert.deepEqual(asked, [3]);
  assert.equal(got.source, 'a test ring');
  assert.deepEqual(
    got.instructions.map((i) => [i.text, i.location?.line, i.location?.function]),
    [
      ['JSR $2000', LINES.call, 'main'],
      ['LDA #$05', LINES.addBody, 'add'],
      ['RTS', undefined, undefined],
    ],
  );
  assert.equal((await session.status()).pc, before.pc, 'nothing moved');
  await session.stop();
});

test('without the feature: unsupported, with the reason of its emulator', async () => {
  const { session } = await bootFake();
  const err = await recentInstructions(session, 3).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof RetroError && err.code === 'unsupported', String(err));
  assert.match(err.message, /VICE's CPU history \(VICE 3\.10 or later\).*emulator \(fake\) keeps no CPU history/);
  assert.match(noHistory('mame', 'spectrum', true), /MAME's Lua bridge gives no instruction history/);
  assert.match(noHistory('dosbox', 'dos', false), /DOS guests .* without a CPU debugger/);
  await session.stop();
});
