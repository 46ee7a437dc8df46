// Bank-aware addresses on MAME's Sprinter: a CPU address with a page reads that page's RAM (mapped or not), a
// breakpoint's page becomes a condition on its window's port, and a CPU watchpoint goes to the translated
// program-space address the Z84C15's chip selects give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bankedCondition, pagedMemory, SPRINTER_RAM_ITEM } from '../../src/connectors/mame/bank-pages.js';
import { cpuTranslation, watchSpace } from '../../src/connectors/mame/watch-space.js';

test('a CPU address with a page names that page in the :ram item; without one it is unchanged', () => {
  assert.deepEqual(pagedMemory('sprinter', { space: 'cpu', bank: 3, offset: 0xc010 }, 2), {
    space: 'share',
    bank: SPRINTER_RAM_ITEM,
    offset: 3 * 0x4000 + 0x10,
  });
  assert.deepEqual(pagedMemory('sprinter', { space: 'cpu', bank: '0x41', offset: 0x4000 }, 1).offset, 0x41 * 0x4000);
  const plain = { space: 'cpu' as const, offset: 0x8000 };
  assert.equal(pagedMemory('sprinter', plain, 4), plain);
  assert.equal(pagedMemory('spectrum', plain, 4), plain);
});

test('bad pages, reads past the page and banks on a machine without windows are clear errors', () => {
  assert.throws(() => pagedMemory('sprinter', { space: 'cpu', bank: 256, offset: 0 }, 1), /not a Sprinter RAM page/);
  assert.throws(() => pagedMemory('sprinter', { space: 'cpu', bank: 'w3', offset: 0 }, 1), /not a Sprinter RAM page/);
  assert.throws(() => pagedMemory('sprinter', { space: 'cpu', bank: 1, offset: 0x7fff }, 2), /past the end of page 1/);
  assert.throws(() => pagedMemory('sprinter', { space: 'cpu', bank: 1, offset: 0x10000 }, 1), /16-bit Z80 address/);
  assert.throws(() => pagedMemory('spectrum', { space: 'cpu', bank: 1, offset: 0 }, 1), /no memory windows/);
});

test("a breakpoint's page is a condition on the page port of its address's window", () => {
  assert.equal(bankedCondition('sprinter', 0xc000, '4'), '(ib@e2 == 4) && (1)');
  assert.equal(bankedCondition('sprinter', 0x8100, 2, 'a == 1'), '(ib@c2 == 2) && (a == 1)');
  assert.equal(bankedCondition('spectrum', 0x8100, undefined, 'x'), 'x');
  assert.throws(() => bankedCondition('spectrum', 0x8100, 1), /no memory windows/);
});

test('a CPU watchpoint on the Sprinter goes to the chip-select translation; elsewhere and in program space as given', async () => {
  const regs = async () => [
    { name: 'MCR', value: 3, bits: 8 },
    { name: 'CSBR', value: 0xfe, bits: 8 },
  ];
  const t = await cpuTranslation('sprinter', regs);
  assert.deepEqual(watchSpace({ space: 'cpu', offset: 0x8100 }, t), { space: 'program', address: 0x18100 });
  // CSBR 0xFE: the top 4 KiB is behind /CS1
  assert.deepEqual(watchSpace({ space: 'cpu', offset: 0xf800 }, t), { space: 'program', address: 0x2f800 });
  assert.deepEqual(watchSpace({ space: 'program', offset: 0x8100 }, t), { space: 'program', address: 0x8100 });
  // a MAME without the Z84C15's state entries: its reset values
  const old = await cpuTranslation('sprinter', async () => []);
  assert.equal(watchSpace({ space: 'cpu', offset: 0x8100 }, old).address, 0x18100);
  assert.equal(await cpuTranslation('spectrum', regs), undefined);
  assert.deepEqual(watchSpace({ space: 'cpu', offset: 0x8100 }), { space: 'program', address: 0x8100 });
  assert.throws(() => watchSpace({ space: 'vram', offset: 0 }), /Watchpoints are set on/);
  assert.throws(() => watchSpace({ space: 'cpu', offset: 0x10000 }), /outside the 16-bit CPU space/);
});
