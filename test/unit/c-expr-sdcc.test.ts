// The C expression engine on a real SDCC .cdb (test/fixtures/cdb, compiled at
// test time) over the linked image with its initializers copied as crt0 does:
// every operator, C's conversions at 16-bit int, locals in the IX frame and in
// registers, and every error with its column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCdb } from '../../src/debuginfo/sdcc-cdb.js';
import { DebugIndex } from '../../src/debuginfo/index.js';
import type { Variable } from '../../src/debuginfo/model.js';
import { compileExpression, evaluateExpression, locateLvalue, scopeAt } from '../../src/debuginfo/expr/index.js';
import type { ExprMachine } from '../../src/debuginfo/expr/index.js';
import { typeName, sizeOf } from '../../src/debuginfo/values.js';
import type { RetroError } from '../../src/core/errors.js';
import { buildCdbFixture } from '../support/cdb-fixture.js';

const fx = buildCdbFixture();
const info = parseCdb(fx.cdb, { fileName: fx.cdbPath });
const index = new DebugIndex(info);
const memory = Uint8Array.from(fx.image);
for (const g of info.globals) {
  const init = info.symbols.find((s) => s.name === `__xinit_${g.name}`);
  if (init && g.storage.kind === 'static')
    memory.set(fx.image.subarray(init.address, init.address + sizeOf(g.type)), g.storage.address);
}
const IX = 0xf000;
const REGS: Record<string, number> = { PC: 0, SP: 0xefe0, A: 0x42, HL: 0x1234, L: 0x34, H: 0x12, IX, F: 0x41 };
let reads = 0;
const machine: ExprMachine = {
  read: async (address, length) => {
    reads++;
    return memory.slice(address, address + length);
  },
  register: async (name) => REGS[name.toUpperCase()],
  locate: async (v: Variable) => {
    const s = v.storage;
    if (s.kind === 'static') return { kind: 'memory', address: s.address };
    if (s.kind === 'frame') return { kind: 'memory', address: (IX + s.offset) & 0xffff };
    if (s.kind === 'register') return { kind: 'value', bytes: Uint8Array.from(s.registers.map((r) => REGS[r])) };
    return { kind: 'unavailable', reason: s.kind };
  },
};
const registers = Object.keys(REGS).map((name) => ({ name, bits: name.length === 2 ? 16 : 8 }));
const fnAt = (name: string) => index.bodyStart(index.functionByName(name)!);
const scope = (fn?: string) => scopeAt(index, fn ? fnAt(fn) : undefined, { registers });
const noi = (name: string) => fx.noi.get(name)!;

async function ev(text: string, fn?: string) {
  const r = await evaluateExpression(text, scope(fn), machine);
  return { value: r.value, type: typeName(r.type), address: r.address, bytes: r.bytes };
}
async function val(text: string, fn?: string) {
  const v = (await ev(text, fn)).value;
  return typeof v === 'bigint' ? Number(v) : v;
}
async function fails(text: string, column: number, reason: RegExp, fn?: string) {
  await assert.rejects(evaluateExpression(text, scope(fn), machine), (e: RetroError) => {
    assert.equal(e.details.column, column, `${text}: ${e.message}`);
    assert.match(e.message, reason, text);
    return true;
  });
}

test('literals: decimal, hex, octal, suffixes, characters, strings; their C types at 16-bit int', async () => {
  assert.deepEqual(await ev('0x5800'), {
    value: 0x5800n,
    type: 'int',
    address: undefined,
    bytes: Uint8Array.of(0, 0x58),
  });
  assert.equal(await val('010'), 8);
  assert.equal((await ev('32767')).type, 'int');
  assert.equal((await ev('32768')).type, 'long'); // a decimal that does not fit int is long
  assert.equal((await ev('0x8000')).type, 'unsigned int'); // a hex one is unsigned int first
  assert.equal((await ev('40000u')).type, 'unsigned int');
  assert.equal((await ev('1L')).type, 'long');
  assert.equal((await ev('5000000000')).type, 'long long');
  assert.equal((await ev("'A'")).type, 'int');
  assert.equal(await val("'\\n'"), 10);
  assert.equal(await val("'\\x41'"), 65);
  assert.equal(await val("'\\101'"), 65);
  assert.deepEqual((await ev('"hi"')).bytes, Uint8Array.of(0x68, 0x69, 0));
  assert.equal(await val('1.5 * 2'), 3);
});

test('globals of every scalar type read from memory, with their addresses', async () => {
  assert.deepEqual(await ev('g_int'), {
    value: -30000n,
    type: 'int',
    address: noi('_g_int'),
    bytes: memory.slice(noi('_g_int'), noi('_g_int') + 2),
  });
  assert.equal(await val('g_char'), 65);
  assert.equal(await val('g_schar'), -5);
  assert.equal(await val('g_ushort'), 54321);
  assert.equal(await val('g_long'), -100000);
  assert.equal(await val('g_ulong'), 4000000000);
  assert.equal(await val('g_float'), 1.5);
  assert.equal(await val('g_bool'), 1);
  assert.equal(await val('g_llong'), -5000000000);
  assert.equal((await ev('g_ullong')).value, 18000000000000000000n);
  assert.equal(await val('s_file_static'), 3);
});

test('arithmetic wraps at the C type: 16-bit int, promotions, usual arithmetic conversions', async () => {
  assert.equal(await val('g_uint + 1'), 0); // unsigned int 65535 + 1
  assert.equal(await val('g_int - 10000'), 25536); // int wraps at 16 bits (the target's int)
  assert.equal(await val('g_uchar * 2'), 400); // unsigned char promotes to int
  assert.equal(await val('~g_uchar'), -201);
  assert.equal(await val('-g_short'), 1234);
  assert.equal(await val('+g_schar'), -5);
  assert.equal(await val('g_uint > -1'), 0); // -1 converts to unsigned int 65535
  assert.equal(await val('g_ulong > -1'), 0);
  assert.equal(await val('g_long < 0u'), 1); // long holds every unsigned int: signed compare
  assert.equal(await val('g_long / 7'), -14285); // truncates toward zero
  assert.equal(await val('g_long % 7'), -5);
  assert.equal(await val('g_int / 7 * 7 + g_int % 7 == g_int'), 1);
  assert.equal(await val('g_uint >> 4'), 4095);
  assert.equal(await val('g_schar >> 1'), -3); // arithmetic shift of a signed value
  assert.equal(await val('1 << 15'), -32768);
  assert.equal(await val('0x0F & g_uchar | 0x100 ^ 1'), (200 & 0x0f) | (0x100 ^ 1));
  assert.equal(await val('g_float * 2 + 1'), 4);
  assert.equal(await val('g_float > 1'), 1);
  assert.equal(await val('(int)(g_float * 3)'), 4);
  assert.equal(await val('(unsigned char)g_int'), -30000 & 0xff);
  assert.equal(await val('(signed char)g_uchar'), 200 - 256);
  assert.equal(await val('(_Bool)g_uchar'), 1);
  assert.equal(await val('(long)g_int * 3'), -90000);
  assert.equal(await val('g_int * 3'), (-90000 << 16) >> 16);
});

test('comparison, logical operators with short-circuit, conditional', async () => {
  for (const [e, v] of [
    ['g_char == 65', 1],
    ['g_char != 65', 0],
    ['g_int < g_short', 1],
    ['g_int > g_short', 0],
    ['g_uchar <= 200', 1],
    ['g_uchar >= 201', 0],
    ['!g_bool', 0],
    ['!0', 1],
    ['g_int < 0 && g_uchar == 200', 1],
    ['g_int > 0 || g_uchar == 1', 0],
    ['g_int < 0 ? 1 : 2', 1],
  ] as const)
    assert.equal(await val(e), v, e);
  // the operands C does not evaluate are not evaluated: no division by zero, no reads
  assert.equal(await val('0 && 1 / 0'), 0);
  assert.equal(await val('1 || 1 / 0'), 1);
  assert.equal(await val('1 ? 5 : 1 / 0'), 5);
  reads = 0;
  assert.equal(await val('0 && g_int'), 0);
  assert.equal(reads, 0);
  assert.equal((await ev('1 ? g_uchar : g_long')).type, 'long');
});

test('structs, unions, bit-fields, arrays, pointers: . -> [] * & and pointer arithmetic', async () => {
  assert.equal(await val('g_point.x'), 10);
  assert.equal(await val('g_point.y'), -20);
  assert.equal(await val('g_point.name[1]'), 98);
  assert.equal((await ev('g_point.name')).address, noi('_g_point') + 5);
  assert.equal(await val('&g_point'), noi('_g_point'));
  assert.equal((await ev('&g_point')).type, 'struct point *');
  assert.equal(await val('(&g_point)->y'), -20);
  assert.equal(await val('(*&g_point).tag'), 7);
  assert.equal(await val('g_flags.lo'), 5);
  assert.equal(await val('g_flags.hi'), 17);
  assert.equal(await val('g_flags.after'), -2);
  assert.equal(await val('g_word.i'), 0x1234);
  assert.equal(await val('g_word.b[0]'), 0x34);
  assert.equal(await val('g_node.next->next->f.hi'), 2);
  assert.equal(await val('g_node.next == &g_node'), 1);
  assert.equal(await val('g_grid[2][3]'), 12);
  assert.equal(await val('*(g_grid[1] + 2)'), 7);
  assert.equal(await val('2[g_grid[0]]'), 3);
  assert.equal(await val('&g_grid[1][0] - &g_grid[0][0]'), 4);
  assert.equal(await val('g_ptr == g_array'), 1);
  assert.equal(await val('g_ptr + 3 - g_array'), 3);
  assert.equal(await val('&g_array[5]'), noi('_g_array') + 5);
  assert.equal(await val('*g_text'), 104);
  assert.equal(await val('g_text[2]'), 10);
  assert.equal(await val('*(unsigned char *)0x100'), fx.image[0x100]);
  assert.equal(await val('(unsigned int)main'), noi('_main')); // a function name is its code's address
  assert.equal(await val('*(unsigned char *)&twice'), fx.image[info.functions.find((f) => f.name === 'twice')!.start]);
  assert.equal(await val('*(unsigned int *)&g_point'), 10);
  assert.equal(await val('((struct point *)&g_point)->tag'), 7);
  const node = await ev('g_node');
  assert.equal(node.type, 'struct node');
  assert.equal(node.address, noi('_g_node'));
  assert.equal(node.bytes.length, sizeOf(info.globals.find((g) => g.name === 'g_node')!.type));
});

test('sizeof of types and expressions, without evaluating its operand', async () => {
  assert.equal(await val('sizeof(g_point)'), 9);
  assert.equal(await val('sizeof g_grid'), 24);
  assert.equal(await val('sizeof g_grid[0]'), 8);
  assert.equal(await val('sizeof(int)'), 2);
  assert.equal(await val('sizeof(long)'), 4);
  assert.equal(await val('sizeof(char *)'), 2);
  assert.equal(await val('sizeof(struct point)'), 9);
  assert.equal(await val('sizeof(union word)'), 4);
  assert.equal(await val('sizeof(32768)'), 4);
  assert.equal((await ev('sizeof(int)')).type, 'unsigned int');
  reads = 0;
  assert.equal(await val('sizeof(*g_ptr)'), 1);
  assert.equal(reads, 0);
});

test('registers, locals in the IX frame and register-allocated parameters', async () => {
  assert.equal(await val('$pc'), 0);
  assert.equal(await val('$hl'), 0x1234);
  assert.equal(await val('$HL + 1'), 0x1235);
  assert.equal(await val('$a'), 0x42);
  // stack_frame(int a /* L:H */, char b /* IX+4 */, long c /* IX+5 */)
  memory[IX + 4] = 7;
  memory.set([0x10, 0x20, 0x30, 0x00], IX + 5);
  assert.equal(await val('a', 'stack_frame'), 0x1234);
  assert.equal(await val('b', 'stack_frame'), 7);
  assert.equal(await val('c', 'stack_frame'), 0x302010);
  assert.equal(await val('b + c', 'stack_frame'), 0x302017);
  assert.equal(await val('&b', 'stack_frame'), IX + 4);
  assert.equal((await ev('buf', 'stack_frame')).type, 'unsigned char[6]');
  assert.equal(await val('sizeof buf', 'stack_frame'), 6);
  await fails('&a', 2, /`a` lives in registers L:H and has no address/, 'stack_frame');
  // outside the function its locals are not visible
  await fails('b + 1', 1, /no variable `b` is visible here/);
});

test('lvalues locate their object for data breakpoints and set value', async () => {
  const at = async (text: string) => locateLvalue(compileExpression(text, scope()), machine, scope());
  assert.deepEqual(await at('g_point.y'), {
    type: (await at('g_point.y')).type,
    size: 2,
    address: noi('_g_point') + 2,
  });
  assert.equal((await at('g_array[3]')).address, noi('_g_array') + 3);
  assert.equal((await at('*g_ptr')).address, noi('_g_array'));
  assert.deepEqual((await at('g_flags.hi')).bits, { offset: 3, width: 5 });
  await assert.rejects(at('g_int + 1'), /is a value, not an object in memory/);
});

test('every error names its column and its reason', async () => {
  await fails('g_point.z', 9, /no member `z` in struct point \(members: x, y, tag, name\)/);
  await fails('g_int->x', 1, /`g_int` is not a pointer \(it is int\)/);
  await fails('(&g_point).x', 1, /is not a struct or union \(it is struct point \*\); use `->`/);
  await fails('*g_int', 2, /`g_int` is not a pointer/);
  await fails('nosuch + 1', 1, /no variable `nosuch` is visible here/);
  await fails('g_int +', 8, /ends too early/);
  await fails('', 1, /empty/);
  await fails('1 / (g_int - g_int)', 3, /division by zero/);
  await fails('g_int % 0', 7, /division by zero/);
  await fails('g_int = 3', 7, /assignment is not evaluated/);
  await fails('g_int++', 6, /changes memory/);
  await fails('twice(1)', 6, /function calls are not evaluated/);
  await fails('g_int, 1', 6, /comma operator/);
  await fails('g_point + 1', 9, /`\+` needs arithmetic operands, not struct point and int/);
  await fails('g_ptr * 2', 7, /`\*` needs arithmetic operands/);
  await fails('(struct nosuch *)0', 2, /struct nosuch is not a type of this program/);
  await fails("'ab'", 1, /exactly one character/);
  await fails('1 << 16', 3, /shift count 16 is out of range for int \(0 to 15\)/);
  await fails('0x1FFFFFFFFFFFFFFFFF', 1, /too large/);
  await fails('&g_flags.hi', 2, /bit-field and has no address/);
  await fails('&1', 2, /has no address/);
  await fails('sizeof(void)', 1, /sizeof is not defined for void/);
  await fails('*(void *)0', 1, /void pointer/);
  await fails('g_array[g_point]', 9, /index must be an integer, not struct point/);
  await fails('g_int[1]', 1, /`g_int` is not an array or a pointer/);
  await fails('$zz', 1, /no register `zz`/);
  await fails('g_int @ 2', 7, /unexpected character "@"/);
  await fails('(g_int', 7, /expected `\)`/);
  await fails('g_int 2', 7, /expected the end of the expression but found a constant/);
  await fails('08', 1, /not an octal number/);
  await fails('1.5 % 2', 5, /`%` needs integer operands/);
  await fails('~g_float', 2, /`~` needs an integer operand, not float/);
  await fails('(unsigned signed)1', 2, /`signed` and `unsigned` together is not a C type/);
  await fails('int', 1, /a type name \(`int`\) cannot stand here/);
  await fails('g_ptr - g_node.next', 7, /pointers to the same type/);
  await fails('"abc" + 1', 1, /string literal has no address/);
  await fails('(struct point)g_int', 2, /cannot cast to struct point/);
  await fails('$', 1, /register name/);
  await fails('"abc', 1, /missing closing "/);
  await fails('1 ? g_point : 2', 5, /incompatible types struct point and int/);
  await fails('g_point ? 1 : 2', 1, /not a value that can be true or false/);
});
