// The .cdb parser on real SDCC 4.2 z80 output, checked against facts the
// toolchain states elsewhere: the linker's .noi symbol table and relocated
// .rst listings, the compiler's .asm, and the linked binary image.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCdbWithWarnings } from '../../src/debuginfo/sdcc-cdb.js';
import { resolveFramePointers } from '../../src/debuginfo/z80-frame.js';
import { decodeValue, sizeOf, typeName } from '../../src/debuginfo/values.js';
import type { DebugInfo, FunctionInfo, Variable } from '../../src/debuginfo/model.js';
import { asmOfFunction, buildCdbFixture, rstLineAddresses } from '../support/cdb-fixture.js';

const fx = buildCdbFixture();
const { info, warnings } = parseCdbWithWarnings(fx.cdb, { fileName: fx.cdbPath });
const moduleOf = (fn: FunctionInfo) => fn.file!.replace(/\.c$/, '');
const fnNamed = (name: string) => info.functions.find((f) => f.name === name)!;
const globalNamed = (name: string) => info.globals.find((g) => g.name === name)!;
const readImage = (address: number, length: number) => fx.image.slice(address, address + length);

test('real .cdb parses without warnings and names the three source files', () => {
  assert.deepEqual(warnings, []);
  assert.equal(info.format, 'sdcc-cdb');
  assert.equal(info.cpu, 'z80');
  assert.deepEqual([...info.files].sort(), ['helper.c', 'main.c', 'shapes.c']);
  assert.deepEqual(
    info.functions.map((f) => f.name),
    ['stack_frame', 'regs_only', 'shadowing', 'main', 'helper_add', 'helper_sum', 'twice', 'use_shapes'],
  );
});

test('global and function addresses match the linker symbol table (.noi)', () => {
  let checked = 0;
  for (const g of info.globals) {
    const noi = fx.noi.get(`_${g.name}`);
    if (noi === undefined) continue; // file statics are not in .noi
    assert.deepEqual(g.storage, { kind: 'static', address: noi }, g.name);
    checked++;
  }
  assert.ok(checked >= 20, `only ${checked} globals cross-checked`);
  for (const f of info.functions.filter((f) => f.name !== 'twice'))
    assert.equal(f.start, fx.noi.get(`_${f.name}`), f.name);
});

test('functions tile the code area: each ends where the next starts, the last at the end of _CODE', () => {
  for (let i = 0; i + 1 < info.functions.length; i++) {
    assert.equal(info.functions[i].end + 1, info.functions[i + 1].start, info.functions[i].name);
  }
  const codeEnd = fx.noi.get('s__CODE')! + fx.noi.get('l__CODE')! - 1;
  assert.equal(info.functions.at(-1)!.end, codeEnd);
});

test('every C line address is where the relocated listing (.rst) puts that line', () => {
  const rst = new Map<string, Set<number>>();
  for (const m of Object.values(fx.rst)) for (const [k, v] of rstLineAddresses(m)) rst.set(k, v);
  assert.ok(info.lines.length >= 40);
  for (const l of info.lines) {
    const addresses = rst.get(`${l.file}:${l.line}`);
    assert.ok(addresses?.has(l.address), `${l.file}:${l.line} at 0x${l.address.toString(16)} not in .rst`);
  }
});

test('frame offsets are IX offsets the compiler really uses', () => {
  const framed = info.functions
    .flatMap((f) => [...f.params, ...f.locals].map((v) => ({ f, v })))
    .filter(({ v }) => v.storage.kind === 'frame');
  assert.ok(framed.length >= 5, 'expected several IX-relative variables');
  for (const { f, v } of framed) {
    const body = asmOfFunction(fx.asm[moduleOf(f)], f.name);
    const offset = (v.storage as { offset: number }).offset;
    // Either used as `off (ix)`, or addressed from SP, which the prologue set to IX - locals.
    const locals = Number(/ld\tiy, #-(\d+)\n\tadd\tiy, sp\n\tld\tsp, iy/.exec(body)?.[1] ?? NaN);
    const direct = new RegExp(`[\\s,]${offset} \\(ix\\)`).test(body);
    const viaSp = body.includes(`ld\thl, #${offset + locals}\n\tadd\thl, sp`);
    // shadowing's outer x is stored by `push hl` once SP = IX - 2 (push af ×2, inc sp ×2).
    const viaPush =
      f.name === 'shadowing' &&
      offset === -4 &&
      /push\taf\n\tpush\taf\n[^]*?inc\tsp\n\tinc\tsp\n[^]*?push\thl/.test(body);
    assert.ok(direct || viaSp || viaPush, `${f.name}.${v.name} at ${offset}(ix)`);
  }
  const sf = fnNamed('stack_frame');
  assert.deepEqual(
    sf.params.map((p) => [p.name, p.storage]),
    [
      ['a', { kind: 'register', registers: ['L', 'H'] }],
      ['b', { kind: 'frame', register: 'IX', offset: 4 }],
      ['c', { kind: 'frame', register: 'IX', offset: 5 }],
    ],
  );
  // `add a, 4 (ix)` is line 30's `i + b`: b is IX+4.
  assert.match(asmOfFunction(fx.asm.main, 'stack_frame'), /;main\.c:30:[^\n]*\n(?:[^\n]*\n){0,6}?\tadd\ta, 4 \(ix\)/);
});

test('hasFramePointer agrees with the .asm prologue, after probing the undecided ones in the image', async () => {
  const undecided = info.functions.filter((f) => f.hasFramePointer === undefined).map((f) => f.name);
  assert.deepEqual(undecided, ['helper_sum']);
  const n = fnNamed('helper_sum').params.find((p) => p.name === 'n')!;
  assert.deepEqual(n.storage, { kind: 'stack', offset: 2 });
  // helper_sum reads n through IY = SP + 2, without a frame.
  assert.match(asmOfFunction(fx.asm.helper, 'helper_sum'), /ld\tiy, #2\n\tadd\tiy, sp\n\tld\tb, 0 \(iy\)/);

  const resolved: DebugInfo = await resolveFramePointers(info, readImage);
  for (const f of resolved.functions) {
    const hasIx = /\tpush\tix\n\tld\tix,#0\n\tadd\tix,sp/.test(asmOfFunction(fx.asm[moduleOf(f)], f.name));
    assert.equal(f.hasFramePointer, hasIx, f.name);
  }
  assert.equal(resolved.functions.find((f) => f.name === 'helper_sum')!.params[1].storage.kind, 'stack');
});

test('register-only function: no frame, every variable in a register', () => {
  const f = fnNamed('regs_only');
  assert.equal(f.hasFramePointer, false);
  assert.doesNotMatch(asmOfFunction(fx.asm.main, 'regs_only'), /\(ix\)/);
  assert.deepEqual(
    [...f.params, ...f.locals].map((v) => v.storage.kind),
    ['register', 'register'],
  );
  assert.equal(typeName(f.returnType!), 'unsigned char');
});

test('shadowed names keep their levels and blocks', () => {
  const xs = fnNamed('shadowing').locals.filter((v) => v.name === 'x');
  assert.deepEqual(
    xs.map((v) => [v.level, v.storage]),
    [
      [1, { kind: 'frame', register: 'IX', offset: -4 }],
      [2, { kind: 'frame', register: 'IX', offset: -2 }],
    ],
  );
  assert.ok(xs[1].block! > xs[0].block!);
});

test('global types are spelled as in the C source', () => {
  const expected: Record<string, string> = {
    g_char: 'unsigned char',
    g_schar: 'signed char',
    g_uchar: 'unsigned char',
    g_short: 'int',
    g_ushort: 'unsigned int',
    g_int: 'int',
    g_uint: 'unsigned int',
    g_long: 'long',
    g_ulong: 'unsigned long',
    g_float: 'float',
    g_bool: '_Bool',
    g_point: 'struct point',
    g_array: 'unsigned char[16]',
    g_ptr: 'unsigned char *',
    s_file_static: 'int',
    helper_counter: 'int',
    g_llong: 'long long',
    g_ullong: 'unsigned long long',
    g_flags: 'struct flags',
    g_word: 'union word',
    g_node: 'struct node',
    g_grid: 'int[3][4]',
    g_fn: 'unsigned char (*)()',
    g_color: 'unsigned char',
    g_text: 'unsigned char[8]',
  };
  assert.deepEqual(Object.fromEntries(info.globals.map((g) => [g.name, typeName(g.type)])), expected);
});

/** A global's initial value, decoded from the `__xinit_` copy the linker put in the image. */
function initial(name: string) {
  const g: Variable = globalNamed(name);
  const init = info.symbols.find((s) => s.name === `__xinit_${name}`);
  assert.ok(init, `no initializer symbol for ${name}`);
  return decodeValue(name, g.type, readImage(init.address, sizeOf(g.type)));
}

test('initial values decode to the C initializers', () => {
  const scalars: Record<string, string> = {
    g_char: "65 'A'",
    g_schar: '-5',
    g_uchar: '200',
    g_short: '-1234',
    g_ushort: '54321',
    g_int: '-30000',
    g_uint: '65535',
    g_long: '-100000',
    g_ulong: '4000000000',
    g_float: '1.5',
    g_bool: 'true',
    s_file_static: '3',
    g_llong: '-5000000000',
    g_ullong: '18000000000000000000',
    g_color: '2',
    g_text: '"hi\\n"',
  };
  for (const [name, value] of Object.entries(scalars)) assert.equal(initial(name).value, value, name);
  assert.equal(initial('g_ptr').numeric, fx.noi.get('_g_array'));

  const point = initial('g_point');
  assert.deepEqual(
    point.children!.map((c) => [c.name, c.value]),
    [
      ['x', '10'],
      ['y', '-20'],
      ['tag', '7'],
      ['name', '"abc"'],
    ],
  );
  const flags = initial('g_flags');
  assert.deepEqual(
    flags.children!.map((c) => [c.name, c.numeric]),
    [
      ['lo', 5],
      ['hi', 17],
      ['after', -2],
    ],
  );
  const word = initial('g_word');
  assert.equal(globalNamed('g_word').type.kind, 'union');
  assert.equal(sizeOf(globalNamed('g_word').type), 4);
  assert.deepEqual(
    word.children!.map((c) => c.name),
    ['i', 'b', 'l'],
  );
  assert.equal(word.children![0].numeric, 0x1234);
  const node = initial('g_node');
  assert.equal(node.children![2].numeric, fx.noi.get('_g_node'), 'next points at g_node itself');
  assert.equal(node.children![0].children![1].numeric, 2);
  const grid = initial('g_grid');
  assert.equal(grid.children![2].children![3].value, '12');
});
