// C conditions compiled to the emulators' own languages, on a real SDCC .cdb: the VICE text is run by the
// built-in C64's own checkpoint-condition evaluator and must agree with the C engine on every memory content
// tried (signed and unsigned, 8 and 16 bits, masks, !, &&, ||); MAME text is checked as written (the real MAME
// runs it in test/integration/c-breakpoints-mame); what either language cannot get exactly right stays host-side
// with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCdb } from '../../src/debuginfo/sdcc-cdb.js';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { compileExpression, scopeAt, testCondition, type ExprMachine } from '../../src/debuginfo/expr/index.js';
import { compileNative } from '../../src/session/native-condition.js';
import { parseCondition } from '../../src/connectors/builtin-c64/condition.js';
import { buildCdbFixture } from '../support/cdb-fixture.js';

const fx = buildCdbFixture();
const index = new DebugIndex(parseCdb(fx.cdb, { fileName: fx.cdbPath }));
const REGS: Record<string, number> = { A: 0x42, X: 7, Y: 0, SP: 0xf0, PC: 0x1000, FL: 0x20, HL: 0x1234, IX: 0xf000 };
const registers = Object.keys(REGS).map((name) => ({ name, bits: name.length === 2 && name !== 'SP' ? 16 : 8 }));
const scope = (fn?: string) =>
  scopeAt(index, fn ? index.bodyStart(index.functionByName(fn)!) : undefined, { registers });
const address = (name: string) => fx.noi.get(`_${name}`)!;

const memory = new Uint8Array(0x10000);
const machine: ExprMachine = {
  read: async (at, length) => memory.slice(at, at + length),
  register: async (name) => REGS[name.toUpperCase()],
  locate: async (v) =>
    v.storage.kind === 'static'
      ? { kind: 'memory', address: v.storage.address }
      : { kind: 'unavailable', reason: v.storage.kind },
};

async function native(text: string, dialect: 'mame' | 'vice', fn?: string) {
  const s = scope(fn);
  return compileNative(compileExpression(text, s), dialect, s.target.pointerSize);
}

/** Fills the globals a condition reads with `values` (little-endian by size). */
function store(name: string, value: number, size: number) {
  for (let i = 0; i < size; i++) memory[address(name) + i] = (value >> (8 * i)) & 0xff;
}

const SAMPLES = [0, 1, 5, 10, 31, 32, 127, 128, 200, 255, 256, 0x7fff, 0x8000, 0xfffb, 0xffff, 0x1234];

test('VICE conditions agree with the C engine on every memory content tried', async () => {
  const conditions = [
    'g_uchar == 200',
    'g_uchar != 5',
    'g_uchar < 128',
    'g_uchar >= 31 && g_uchar <= 200',
    '!(g_uchar > 10) || g_uint == 0x8000',
    '(g_uchar & 31) == 5',
    '!g_uchar',
    'g_uchar',
    'g_schar == -5',
    'g_schar != -1',
    'g_int == -30000',
    'g_int == 1',
    'g_uint > 0x7fff',
    'g_uint == 65535',
    'g_uint > -1', // -1 converts to 65535: never true
    'g_ushort <= 256',
    'g_array[3] == 10',
    'g_point.x == 10',
    '*(unsigned char *)0xd020 == 14',
    '$a == 0x42 && $x == 7',
    '200 == g_uchar',
    'g_uchar == g_array[1]',
  ];
  for (const text of conditions) {
    const compiled = await native(text, 'vice');
    assert.ok('text' in compiled, `${text}: ${'reason' in compiled ? compiled.reason : ''}`);
    const vice = parseCondition(compiled.text);
    const c = compileExpression(text, scope());
    for (const a of SAMPLES)
      for (const b of [0, 10, 200, 0xfb, 0xffff]) {
        store('g_uchar', a, 1);
        store('g_schar', a, 1);
        store('g_int', a, 2);
        store('g_uint', b, 2);
        store('g_ushort', a, 2);
        memory[address('g_array') + 1] = b & 0xff;
        memory[address('g_array') + 3] = a & 0xff;
        store('g_point', b, 2);
        memory[0xd020] = a & 0xff;
        const want = await testCondition(c, machine, scope());
        const got = vice({ register: (r) => REGS[r], memory: (_bank, at) => memory[at] });
        assert.equal(got, want, `${text} → ${compiled.text} at a=${a} b=${b}`);
      }
  }
});

test('MAME conditions: b@/w@/d@ memory, registers, frame slots over IX, hex numbers', async () => {
  assert.deepEqual(await native('g_uchar == 200', 'mame'), { text: `b@0x${address('g_uchar').toString(16)} == 0xc8` });
  assert.deepEqual(await native('g_int == -30000', 'mame'), {
    text: `w@0x${address('g_int').toString(16)} == 0x8ad0`,
  });
  assert.deepEqual(await native('g_ulong == 4000000000', 'mame'), {
    text: `d@0x${address('g_ulong').toString(16)} == 0xee6b2800`,
  });
  const local = await native('i == 5 && local_int != 0', 'mame', 'stack_frame');
  assert.ok('text' in local, JSON.stringify(local));
  // `i` lives in register C, `local_int` in the IX frame
  assert.match(local.text, /^\(c == 0x5\) && \(w@\(\(ix-0x[0-9a-f]+\)&0xffff\) != 0x0\)$/);
  assert.deepEqual(await native('$a == 0x42 || $hl > 0x1000', 'mame'), { text: '(a == 0x42) || (hl > 0x1000)' });
  assert.deepEqual(await native('!(g_uchar & 1)', 'mame'), {
    text: `(b@0x${address('g_uchar').toString(16)} & 0x1) == 0x0`,
  });
});

test('what the emulator cannot get exactly right stays host-side, with the reason', async () => {
  const reasons: [string, 'mame' | 'vice', RegExp, string?][] = [
    ['g_schar < 0', 'mame', /is signed; the emulator orders values unsigned/],
    ['g_int > 100', 'vice', /is signed/],
    ['g_uchar + 1 == 5', 'mame', /not readable by the emulator/],
    ['*g_ptr == 65', 'vice', /not a global, a register or fixed memory/],
    ['g_schar == 200', 'mame', /a constant it cannot hold/],
    ['g_uchar == -1', 'mame', /negative constant/],
    ['g_long == 5', 'vice', /4 bytes; VICE conditions read bytes/],
    ['local_int == 5', 'vice', /lives in a stack frame, which VICE cannot address/, 'stack_frame'],
    ['i == 5', 'vice', /in a register VICE conditions do not name/, 'stack_frame'],
    ['g_flags.lo == 5', 'mame', /not readable/],
    ['g_float == 1.5', 'mame', /not readable/],
  ];
  for (const [text, dialect, reason, fn] of reasons) {
    const compiled = await native(text, dialect, fn);
    assert.ok('reason' in compiled, `${text} compiled to ${'text' in compiled ? compiled.text : ''}`);
    assert.match(compiled.reason, reason, text);
  }
});

test('a host-side && chain: the parts that compile are the guard the emulator tests first, the reason is kept', async () => {
  const g = address('g_uchar').toString(16);
  // the local is in a VICE-unaddressable frame: the chain stays host-side, its global part is the guard
  const one = await native('g_uchar == 200 && local_int == 5', 'vice', 'stack_frame');
  assert.ok('reason' in one);
  assert.match(one.reason, /lives in a stack frame/);
  assert.equal(one.guard, `@cpu:$${g} == $c8`);
  // several compiled parts, in any order, joined with &&; the guard run by the built-in's evaluator holds exactly
  // when those parts do (it is never false where the whole condition is true)
  const two = await native('g_uchar != 5 && local_int == 5 && $x == 7', 'vice', 'stack_frame');
  assert.ok('reason' in two && two.guard);
  assert.equal(two.guard, `(@cpu:$${g} != $5) && (X == $7)`);
  const guard = parseCondition(two.guard);
  for (const v of SAMPLES.filter((n) => n < 256)) {
    store('g_uchar', v, 1);
    assert.equal(guard({ register: (r) => REGS[r], memory: (_bank, at) => memory[at] }), v !== 5, `g_uchar ${v}`);
  }
  // no guard: no part compiles, or the chain is an || (no part of it is necessary)
  const none = await native('local_int == 5 && g_int > 100', 'vice', 'stack_frame');
  assert.ok('reason' in none && none.guard === undefined, JSON.stringify(none));
  const or = await native('g_uchar == 200 || local_int == 5', 'vice', 'stack_frame');
  assert.ok('reason' in or && or.guard === undefined, JSON.stringify(or));
  // MAME: its own language
  const m = await native('g_uchar == 200 && g_float == 1.5', 'mame');
  assert.ok('reason' in m);
  assert.equal(m.guard, `b@0x${g} == 0xc8`);
});
