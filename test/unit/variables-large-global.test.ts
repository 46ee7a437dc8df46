// Globals larger than one variable read (4 KiB): list_variables' globals
// list no longer fails as a whole; a big array shows its first elements and
// says how many it has, the other globals read as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { LineTable } from '../../src/debuginfo/line-table.js';
import type { CType, Variable } from '../../src/debuginfo/model.js';
import { VariableReader } from '../../src/session/variables.js';

const uchar: CType = { kind: 'int', size: 1, signed: false, name: 'unsigned char' };
const int: CType = { kind: 'int', size: 2, signed: true, name: 'int' };
const global = (name: string, type: CType, address: number): Variable => ({
  name,
  type,
  storage: { kind: 'static', address },
});

test('a 5000-byte global array is shown truncated; the globals beside it read normally', async () => {
  const memory = new Uint8Array(0x10000).map((_, i) => i & 0xff);
  const index = new DebugIndex({
    format: 'test',
    cpu: '6502',
    files: [],
    lines: LineTable.EMPTY,
    functions: [],
    symbols: [],
    globals: [
      global('Sieve', { kind: 'array', length: 5000, of: uchar, name: '' }, 0x2000),
      global('count', int, 0x1000),
      global(
        'big',
        { kind: 'array', length: 2, of: { kind: 'array', length: 5000, of: uchar, name: '' }, name: '' },
        0x4000,
      ),
    ],
  });
  const reads: number[] = [];
  const reader = new VariableReader(
    index,
    async (offset, length) => {
      reads.push(length);
      return memory.slice(offset, offset + length);
    },
    [],
  );
  const [sieve, count, big] = await reader.globals();
  assert.equal(sieve.type, 'unsigned char[5000]');
  assert.match(sieve.value, /the first 4096 of 5000 elements/);
  assert.equal(count.numeric, 0x0100, 'bytes 00 01 at $1000, little-endian');
  assert.match(big.value, /10000 bytes, more than the 4096 a variable shows/);
  assert.ok(Math.max(...reads) <= 4096, `no read above 4 KiB: ${reads}`);
});
