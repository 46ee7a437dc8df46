import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hexRows, parseHexWrite } from '../../src/ui/hex-rows.js';

test('hex rows: address, 16 hex pairs, a character column (PETSCII shifted letters on the C64)', () => {
  const data = Uint8Array.from([...Array(16).keys()].map((i) => 0x41 + i).concat([0xc1, 0x00, 0x7f]));
  const [first, second] = hexRows(0xc000, data, true);
  assert.equal(first.address, 'C000');
  assert.equal(first.bytes.join(' '), '41 42 43 44 45 46 47 48 49 4A 4B 4C 4D 4E 4F 50');
  assert.equal(first.chars, 'ABCDEFGHIJKLMNOP');
  assert.deepEqual(second, { address: 'C010', bytes: ['C1', '00', '7F'], chars: 'A..' });
  assert.equal(hexRows(0, Uint8Array.of(0xc1), false)[0].chars, '.', 'ASCII: $C1 is not a letter');
  assert.equal(hexRows(0xb8000, Uint8Array.of(0), false)[0].address, '0B8000', 'beyond 64K: six digits');
});

test('a typed write: address and hex bytes; bad input says how to write it', () => {
  assert.deepEqual(parseHexWrite('$C000: 01 02 FF'), { address: 0xc000, bytes: Uint8Array.of(1, 2, 255) });
  assert.deepEqual(parseHexWrite('0xd020 = 0x0e'), { address: 0xd020, bytes: Uint8Array.of(14) });
  assert.throws(() => parseHexWrite('C000 01'), /Write as "ADDRESS: BYTES"/);
  assert.throws(() => parseHexWrite('$C000: 100'), /does not fit in a byte/);
  assert.throws(() => parseHexWrite('zz: 01'), /"zz" is not a number/);
});
