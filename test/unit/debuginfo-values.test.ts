// C values: sizes, spellings, decoding little-endian bytes and encoding literals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeValue, encodeValue, MAX_CHILDREN, sizeOf, typeName } from '../../src/debuginfo/values.js';
import type { CType } from '../../src/debuginfo/model.js';
import { RetroError } from '../../src/core/errors.js';

const int = (size: 1 | 2 | 4 | 8, signed: boolean): CType => ({
  kind: 'int',
  size,
  signed,
  name: `${signed ? '' : 'unsigned '}${{ 1: 'char', 2: 'int', 4: 'long', 8: 'long long' }[size]}`,
});
const uchar: CType = { kind: 'char', signed: false, name: 'unsigned char' };
const schar: CType = { kind: 'char', signed: true, name: 'signed char' };
const bool: CType = { kind: 'bool', name: '_Bool' };
const float: CType = { kind: 'float', size: 4, name: 'float' };
const ptr = (to: CType): CType => ({ kind: 'pointer', size: 2, to, name: '' });
const arr = (of: CType, length: number): CType => ({ kind: 'array', of, length, name: '' });
const bytes = (...b: number[]) => Uint8Array.from(b);
const isBadRequest = (e: unknown) => e instanceof RetroError && e.code === 'bad_request';

test('sizes and C spellings', () => {
  const point: CType = {
    kind: 'struct',
    size: 4,
    name: 'struct point',
    fields: [
      { name: 'x', offset: 0, type: int(2, true) },
      { name: 'y', offset: 2, type: int(2, true) },
    ],
  };
  const fn: CType = { kind: 'function', returns: int(2, true), name: '' };
  const cases: [CType, number, string][] = [
    [uchar, 1, 'unsigned char'],
    [int(2, true), 2, 'int'],
    [int(4, false), 4, 'unsigned long'],
    [int(8, true), 8, 'long long'],
    [float, 4, 'float'],
    [bool, 1, '_Bool'],
    [ptr(int(2, true)), 2, 'int *'],
    [ptr(ptr(uchar)), 2, 'unsigned char **'],
    [arr(uchar, 16), 16, 'unsigned char[16]'],
    [arr(arr(int(2, true), 4), 3), 24, 'int[3][4]'],
    [point, 4, 'struct point'],
    [arr(point, 3), 12, 'struct point[3]'],
    [ptr(fn), 2, 'int (*)()'],
    [ptr(arr(uchar, 4)), 2, 'unsigned char (*)[4]'],
    [arr(ptr(uchar), 2), 4, 'unsigned char *[2]'],
    [{ kind: 'void', name: 'void' }, 0, 'void'],
  ];
  for (const [t, size, name] of cases) {
    assert.equal(sizeOf(t), size, name);
    assert.equal(typeName(t), name);
  }
});

test('scalars decode little-endian with the right sign', () => {
  const v = (t: CType, ...b: number[]) => decodeValue('v', t, bytes(...b));
  assert.deepEqual(v(uchar, 0x41), { name: 'v', type: 'unsigned char', value: "65 'A'", numeric: 65, bytes: '41' });
  assert.equal(v(schar, 0x80).value, '-128');
  assert.equal(v(uchar, 0x80).value, '128');
  assert.equal(v(uchar, 0x0a).value, "10 '\\n'");
  assert.equal(v(uchar, 0x00).value, "0 '\\0'");
  assert.equal(v(uchar, 0xff).value, '255');
  assert.equal(v(int(2, true), 0xff, 0xff).numeric, -1);
  assert.equal(v(int(2, false), 0xff, 0xff).numeric, 0xffff);
  assert.equal(v(int(2, true), 0x00, 0x80).numeric, -32768);
  assert.equal(v(int(2, true), 0x34, 0x12).numeric, 0x1234);
  assert.equal(v(int(4, true), 0x60, 0x79, 0xfe, 0xff).value, '-100000');
  assert.equal(v(int(4, false), 0x00, 0x28, 0x6b, 0xee).value, '4000000000');
  assert.equal(v(int(8, false), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff).value, '18446744073709551615');
  assert.equal(v(int(8, true), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff).value, '-1');
  assert.equal(v(float, 0x00, 0x00, 0xc0, 0x3f).value, '1.5');
  assert.equal(v(float, 0xcd, 0xcc, 0xcc, 0x3d).value, '0.1');
  assert.equal(v(float, 0x00, 0x00, 0x80, 0x7f).value, 'Infinity');
  assert.equal(v(bool, 1).value, 'true');
  assert.equal(v(bool, 0).value, 'false');
  assert.equal(v(ptr(uchar), 0x00, 0x80).value, '0x8000');
  assert.equal(v(ptr(uchar), 0x00, 0x80).numeric, 0x8000);
  const at = decodeValue('g', int(2, true), bytes(1, 0, 99), { space: 'cpu', offset: 0x8000 });
  assert.deepEqual(at.address, { space: 'cpu', offset: 0x8000 });
  assert.equal(at.bytes, '01 00', 'only the type size is used');
  assert.throws(() => decodeValue('v', int(4, true), bytes(1, 2)), isBadRequest);
});

test('each scalar type round-trips through encodeValue and decodeValue', () => {
  const cases: [CType, string, string][] = [
    [uchar, '65', "65 'A'"],
    [uchar, "'A'", "65 'A'"],
    [uchar, "'\\n'", "10 '\\n'"],
    [uchar, '0xff', '255'],
    [schar, '-128', '-128'],
    [schar, '127', '127'],
    [schar, '0x80', '-128'],
    [int(2, true), '-32768', '-32768'],
    [int(2, true), '0xFFFF', '-1'],
    [int(2, false), '65535', '65535'],
    [int(4, true), '-100000', '-100000'],
    [int(4, false), '0xFFFFFFFF', '4294967295'],
    [int(8, true), '-9223372036854775808', '-9223372036854775808'],
    [int(8, false), '18446744073709551615', '18446744073709551615'],
    [float, '1.5', '1.5'],
    [float, '-0.25', '-0.25'],
    [float, '1e10', '10000000000'],
    [bool, 'true', 'true'],
    [bool, '0', 'false'],
    [ptr(uchar), '0x8000', '0x8000'],
    [ptr(uchar), '49152', '0xC000'],
  ];
  for (const [t, text, shown] of cases) {
    const b = encodeValue(t, text);
    assert.equal(b.length, sizeOf(t), `${typeName(t)} ${text}`);
    assert.equal(decodeValue('v', t, b).value, shown, `${typeName(t)} ${text}`);
  }
  assert.deepEqual(encodeValue(int(2, true), '0x1234'), bytes(0x34, 0x12));
});

test('out-of-range and malformed literals are bad_request', () => {
  const bad: [CType, string][] = [
    [uchar, '256'],
    [uchar, '-1'],
    [schar, '128'],
    [schar, '-129'],
    [schar, '0x100'],
    [int(2, true), '32768'],
    [int(2, false), '65536'],
    [int(2, false), '-1'],
    [int(4, true), '2147483648'],
    [bool, '2'],
    [float, '1e39'],
    [float, 'abc'],
    [uchar, "'AB'"],
    [uchar, '12abc'],
    [uchar, ''],
    [ptr(uchar), '0x10000'],
    [arr(uchar, 4), '1'],
    [{ kind: 'struct', size: 2, name: 'struct s', fields: [] }, '0'],
  ];
  for (const [t, text] of bad) assert.throws(() => encodeValue(t, text), isBadRequest, `${typeName(t)} "${text}"`);
});

test('structs and arrays get children; char arrays show the string', () => {
  const point: CType = {
    kind: 'struct',
    size: 9,
    name: 'struct point',
    fields: [
      { name: 'x', offset: 0, type: int(2, true) },
      { name: 'y', offset: 2, type: int(2, true) },
      { name: 'tag', offset: 4, type: uchar },
      { name: 'name', offset: 5, type: arr(uchar, 4) },
    ],
  };
  const v = decodeValue('p', point, bytes(10, 0, 0xec, 0xff, 7, 0x61, 0x62, 0x63, 0), { space: 'cpu', offset: 0x802a });
  assert.equal(v.type, 'struct point');
  assert.equal(v.value, '{x=10, y=-20, tag=7, name="abc"}');
  assert.deepEqual(
    v.children!.map((c) => [c.name, c.value, c.address?.offset]),
    [
      ['x', '10', 0x802a],
      ['y', '-20', 0x802c],
      ['tag', '7', 0x802e],
      ['name', '"abc"', 0x802f],
    ],
  );
  assert.deepEqual(
    v.children![3].children!.map((c) => c.numeric),
    [0x61, 0x62, 0x63, 0],
  );

  const grid = decodeValue('g', arr(arr(int(2, true), 2), 2), bytes(1, 0, 2, 0, 3, 0, 0xfc, 0xff));
  assert.equal(grid.value, '{{1, 2}, {3, -4}}');
  assert.equal(grid.children![1].children![1].name, '[1]');

  const flags: CType = {
    kind: 'struct',
    size: 3,
    name: 'struct flags',
    fields: [
      { name: 'lo', offset: 0, type: int(1, false), bitOffset: 0, bitWidth: 3 },
      { name: 's', offset: 0, type: int(1, true), bitOffset: 3, bitWidth: 5 },
      { name: 'w', offset: 1, type: int(2, true) },
    ],
  };
  const f = decodeValue('f', flags, bytes((0x1e << 3) | 5, 0xfe, 0xff));
  assert.deepEqual(
    f.children!.map((c) => [c.name, c.numeric, c.type]),
    [
      ['lo', 5, 'unsigned char : 3'],
      ['s', -2, 'char : 5'],
      ['w', -2, 'int'],
    ],
  );
  const u: CType = {
    kind: 'union',
    size: 2,
    name: 'union u',
    fields: [
      { name: 'i', offset: 0, type: int(2, false) },
      { name: 'b', offset: 0, type: arr(uchar, 2) },
    ],
  };
  assert.equal(decodeValue('u', u, bytes(0x41, 0x42)).value, '{i=16961, b="AB"}');
});

test('children are bounded and the value says so', () => {
  const big = decodeValue('big', arr(int(2, false), 100), new Uint8Array(200).fill(1));
  assert.equal(big.children!.length, MAX_CHILDREN);
  assert.match(big.value, /\(first 64 of 100 elements shown\)$/);
  assert.ok(big.value.length < 300);
  const text = new Uint8Array(1000).fill(0x41);
  const s = decodeValue('s', arr(uchar, 1000), text);
  assert.match(s.value, /^"A{256}"… \(first 64 of 1000 elements shown\)$/);
  assert.ok(s.bytes!.endsWith('…'));
  const nested = decodeValue('n', arr(arr(uchar, 64), 64), new Uint8Array(64 * 64));
  const total = nested.children!.reduce((n, c) => n + 1 + (c.children?.length ?? 0), 1);
  assert.ok(total <= 2048 + 1, `${total} nodes decoded`);
});
