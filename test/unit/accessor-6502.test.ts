// The 6502 instruction that made a watched access, found from the bytes before the stop's PC and the registers
// after it (VICE and the built-in stop just after the instruction without naming it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findAccessor, type AccessContext } from '../../src/cpu/6502/accessor.js';

const ctx = (before: number[], over: Partial<AccessContext> = {}): AccessContext => ({
  before: Uint8Array.from(before),
  pc: 0x0900,
  x: 0,
  y: 0,
  zpWord: async () => 0,
  from: 0x0999,
  length: 1,
  kind: 'write',
  ...over,
});

test('absolute, indexed and zero-page stores name their own start; the index comes from the registers now', async () => {
  assert.equal(await findAccessor(ctx([0x8d, 0x99, 0x09])), 0x08fd, 'STA $0999');
  assert.equal(await findAccessor(ctx([0x99, 0x91, 0x09], { y: 8 })), 0x08fd, 'STA $0991,Y with Y=8 (scores[8])');
  assert.equal(await findAccessor(ctx([0x99, 0x91, 0x09], { y: 7 })), undefined, 'scores[7] is not lives');
  assert.equal(await findAccessor(ctx([0xea, 0x85, 0x40], { from: 0x40 })), 0x08fe, 'STA $40');
  assert.equal(await findAccessor(ctx([0xee, 0x99, 0x09])), 0x08fd, 'INC $0999 (read-modify-write)');
});

test('indirect stores read their pointer; a load is no write, but is a read', async () => {
  const zpWord = async (zp: number) => (zp === 0x22 ? 0x0990 : 0);
  assert.equal(await findAccessor(ctx([0xea, 0x91, 0x22], { y: 9, zpWord })), 0x08fe, 'STA ($22),Y');
  assert.equal(await findAccessor(ctx([0xad, 0x99, 0x09])), undefined, 'LDA $0999 does not write');
  assert.equal(await findAccessor(ctx([0xad, 0x99, 0x09], { kind: 'read' })), 0x08fd, 'but reads');
  assert.equal(await findAccessor(ctx([0x8d, 0x99, 0x09], { kind: 'read' })), undefined, 'STA does not read');
});
