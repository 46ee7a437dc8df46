// Which registers a calling Z80 frame saved around its call (SDCC code): the pops after the return address,
// counted only when the caller reads the register before writing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { savedRegisters } from '../../src/session/unwind/z80-saved.js';

const RET = 0x200;
const SP = 0xff00;

function memoryWith(code: number[], stack: number[]) {
  const m = new Uint8Array(0x10000);
  m.set(code, RET);
  m.set(stack, SP);
  return async (offset: number, length: number) => m.slice(offset, offset + length);
}

test('pop hl then add a,h / add a,l (SDCC shade): H and L are the saved values', async () => {
  const read = memoryWith([0xe1, 0x84, 0x85, 0xc9], [0x03, 0x05]);
  assert.deepEqual(await savedRegisters(read, RET, SP), { L: 3, H: 5 });
});

test('a dropped argument byte (inc sp) before the pops shifts where they read', async () => {
  const read = memoryWith([0x33, 0xc1, 0x79, 0x78, 0xc9], [0xee, 0x11, 0x22]);
  assert.deepEqual(await savedRegisters(read, RET, SP), { C: 0x11, B: 0x22 });
});

test('a register written before it is read was not kept for later: not saved', async () => {
  // pop de; ld e,#1; ld a,d; ret → D is used, E is overwritten first
  const read = memoryWith([0xd1, 0x1e, 0x01, 0x7a, 0xc9], [0x44, 0x55]);
  assert.deepEqual(await savedRegisters(read, RET, SP), { D: 0x55 });
  // xor a writes A without reading it; pop af's A is not saved
  const xor = memoryWith([0xf1, 0xaf, 0xc9], [0x00, 0x99]);
  assert.deepEqual(await savedRegisters(xor, RET, SP), {});
});

test('no pops, or code not followed (a jump) before the use: nothing is claimed', async () => {
  assert.deepEqual(await savedRegisters(memoryWith([0x7c, 0xc9], []), RET, SP), {});
  assert.deepEqual(await savedRegisters(memoryWith([0xe1, 0x18, 0x02, 0x7c], [1, 2]), RET, SP), {});
});
