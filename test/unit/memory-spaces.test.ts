/** The hex view's space picker: the choices a target's spaces and banks give, and which one a reference is in. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choiceOf, spaceChoices } from '../../src/core/memory-spaces.js';
import { C64_BANKS } from '../../src/connectors/vice/protocol.js';
import { memoryReference, parseMemoryReference } from '../../src/core/memory-reference.js';

test("the C64's banks as the monitor names them: the CPU's view once, then ram, rom, io, cart", () => {
  const choices = spaceChoices(
    ['cpu'],
    C64_BANKS.map((b) => ({ space: 'cpu', bank: b.name })),
  );
  assert.deepEqual(
    choices.map((c) => c.prefix),
    ['', 'cpu@ram:', 'cpu@rom:', 'cpu@io:', 'cpu@cart:'],
  );
  assert.equal(choices[0].label, 'cpu (what the CPU sees)');
});

test('a DOS guest: the CPU view and the VGA buffer; MAME: spaces, then shares by tag only', () => {
  assert.deepEqual(
    spaceChoices(['cpu', 'vram']).map((c) => c.prefix),
    ['', 'vram:'],
  );
  const mame = spaceChoices(
    ['cpu', 'program', 'io', 'vram', 'share'],
    [
      { space: 'share', bank: ':maincpu', note: 'region, 16384 bytes' },
      { space: 'share', bank: ':ram', note: 'share, 49152 bytes' },
      { space: 'data', bank: 1 }, // a space the target does not have: left out
    ],
  );
  assert.deepEqual(
    mame.map((c) => c.prefix),
    ['', 'program:', 'io:', 'vram:', 'share@:maincpu:', 'share@:ram:'],
  );
  assert.equal(mame[4].label, 'share@:maincpu (region, 16384 bytes)');
});

test('each prefix and an offset is a memory reference that parses back to its space and bank', () => {
  const choices = spaceChoices(
    ['cpu', 'vram', 'share'],
    [
      { space: 'cpu', bank: 'ram' },
      { space: 'share', bank: ':maincpu' },
    ],
  );
  const parsed = choices.map((c) => parseMemoryReference(`${c.prefix}0xa000`));
  assert.deepEqual(parsed, [
    { space: 'cpu', offset: 0xa000 },
    { space: 'vram', offset: 0xa000 },
    { space: 'cpu', bank: 'ram', offset: 0xa000 },
    { space: 'share', bank: ':maincpu', offset: 0xa000 },
  ]);
  // and the picker finds the choice a shown reference is in
  for (const [i, address] of parsed.entries()) assert.equal(choiceOf(choices, memoryReference(address)), choices[i]);
  assert.equal(choiceOf(choices, 'io:0x10'), undefined);
});
