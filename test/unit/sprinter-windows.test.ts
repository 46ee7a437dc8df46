import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isGraphicsPage,
  logicalFor,
  pageCondition,
  pagedAddress,
  readWindowPages,
  translateZ84,
  windowOf,
} from '../../src/machines/sprinter/windows.js';
import { RetroError } from '../../src/core/errors.js';

const pages = { W0: 0x41, W1: 0x12, W2: 0x45, W3: 0xff };

test('a logical address falls in window addr>>14 and maps to page × 16 KiB + offset in :ram', () => {
  assert.deepEqual([0x0000, 0x3fff, 0x4000, 0x8100, 0xbfff, 0xc000, 0xffff].map(windowOf), [0, 0, 1, 2, 2, 3, 3]);
  assert.deepEqual(pagedAddress(0x8100, pages), {
    window: 2,
    page: 0x45,
    offset: 0x0100,
    ramOffset: 0x45 * 0x4000 + 0x100,
  });
  assert.deepEqual(pagedAddress(0xc000, pages), { window: 3, page: 0xff, offset: 0, ramOffset: 0xff * 0x4000 });
  assert.throws(
    () => windowOf(0x10000),
    (e) => e instanceof RetroError && e.code === 'bad_address',
  );
});

test('a page byte has a logical address only while its page is mapped', () => {
  assert.equal(logicalFor(0x45, 0x0100, pages), 0x8100);
  assert.equal(logicalFor(0x12, 0x3fff, pages), 0x7fff);
  assert.equal(logicalFor(0x99, 0, pages), undefined);
});

test('Z84C15 translation: at reset every logical address is at 0x10000 + A; /CS1 and no select as configured', () => {
  assert.equal(translateZ84(0x8100), 0x18100);
  assert.equal(translateZ84(0x0000), 0x10000);
  // /CS0 up to 0x3FFF, /CS1 up to 0x7FFF, the rest unselected
  assert.equal(translateZ84(0x2000, 0x03, 0x73), 0x12000);
  assert.equal(translateZ84(0x5000, 0x03, 0x73), 0x25000);
  assert.equal(translateZ84(0x9000, 0x03, 0x73), 0x09000);
  assert.equal(translateZ84(0x9000, 0x00, 0xff), 0x09000);
});

test("page conditions read the window's page port; graphics pages are 0x50-0x5F", () => {
  assert.equal(pageCondition(0x8100, 0x45), 'ib@c2 == 45');
  assert.equal(pageCondition(0x0100, 0x41), 'ib@82 == 41');
  assert.equal(pageCondition(0xc123, 0x07), 'ib@e2 == 7');
  assert.deepEqual([0x4f, 0x50, 0x5f, 0x60].map(isGraphicsPage), [false, true, true, false]);
});

test('readWindowPages asks for the four page ports and keeps the low byte', async () => {
  const asked: string[] = [];
  const values: Record<string, number> = { 'ib@82': 0x141, 'ib@a2': 0x12, 'ib@c2': 0x45, 'ib@e2': 0xff };
  const got = await readWindowPages(async (e) => {
    asked.push(e);
    return values[e];
  });
  assert.deepEqual(asked, ['ib@82', 'ib@a2', 'ib@c2', 'ib@e2']);
  assert.deepEqual(got, pages);
});
