// The disassembly window around an address (session/disassembly.ts) over the
// project's 6502 disassembler and real 6502 bytes: forward, backwards (the
// candidate start that lands on the address), near address 0, over data that
// never lands; MAME's dasm lines as a Disassembler; decoded CPU flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TargetFeatures, type Target } from '../../src/core/target.js';
import { disassemblerFor, disassemblyWindow } from '../../src/session/disassembly.js';
import { MameDisassembler } from '../../src/connectors/mame/mame-disassembler.js';
import { decodeFlags, flagsRegister } from '../../src/cpu/flags.js';

function c64Memory(bytes: Record<number, number[]>, cpu = '6502'): Target {
  const ram = new Uint8Array(0x10000);
  for (const [at, list] of Object.entries(bytes)) ram.set(list, Number(at));
  return {
    info: { kind: 'test', cpu, addressBits: 16, spaces: ['cpu'] },
    features: new TargetFeatures(),
    memory: { read: async (a, n) => ram.slice(a.offset, a.offset + n), write: async () => undefined },
    events: { on: () => () => undefined },
    status: async () => ({ state: 'stopped' }),
    close: async () => undefined,
  };
}

// LDA #$01 ; STA $D020 ; JSR $FFD2 ; LDX $FB ; INX ; RTS — 2+3+3+2+1+1 bytes from $0810
const CODE = [0xa9, 0x01, 0x8d, 0x20, 0xd0, 0x20, 0xd2, 0xff, 0xa6, 0xfb, 0xe8, 0x60];
const ADDRS = [0x810, 0x812, 0x815, 0x818, 0x81a, 0x81b];

test('forward from an address, and the instructions before it end exactly there', async () => {
  const dis = disassemblerFor(c64Memory({ 0x810: CODE }));
  const fwd = await disassemblyWindow(dis, 0x815, 0, 3);
  assert.deepEqual(
    fwd.instructions.map((i) => [i.address, i.length, i.text]),
    [
      [0x815, 3, 'JSR $FFD2'],
      [0x818, 2, 'LDX $FB'],
      [0x81a, 1, 'INX'],
    ],
  );
  const around = await disassemblyWindow(dis, 0x81a, -4, 6);
  assert.equal(around.missingBefore, 0);
  assert.deepEqual(
    around.instructions.map((i) => i.address),
    ADDRS,
  );
  assert.equal(around.instructions[5].text, 'RTS');
  // a window wholly before the address, and one that starts after it
  assert.deepEqual(
    (await disassemblyWindow(dis, 0x81b, -5, 2)).instructions.map((i) => i.address),
    [0x810, 0x812],
  );
  assert.deepEqual(
    (await disassemblyWindow(dis, 0x810, 2, 2)).instructions.map((i) => i.text),
    ['JSR $FFD2', 'LDX $FB'],
  );
});

test('backwards near address 0: what exists, the rest counted as missing', async () => {
  const dis = disassemblerFor(c64Memory({ 0: [0xa9, 0x2f, 0x85, 0x00, 0xea] }));
  const w = await disassemblyWindow(dis, 4, -5, 6);
  assert.equal(w.missingBefore, 3);
  assert.deepEqual(
    w.instructions.map((i) => [i.address, i.text]),
    [
      [0, 'LDA #$2F'],
      [2, 'STA $00'],
      [4, 'NOP'],
    ],
  );
});

test('backwards where no start lands on the address: the gap shows as undecodable bytes', async () => {
  // every start 4..6 bytes back decodes past $1005 (LDA # / LDA abs over the bytes below)
  const dis = disassemblerFor(c64Memory({ 0x1000: [0xad, 0xad, 0xa9, 0xad, 0xa9, 0xea] }));
  const w = await disassemblyWindow(dis, 0x1005, -2, 3);
  assert.deepEqual(
    w.instructions.map((i) => [i.address, i.length, i.text]),
    [
      [0x1000, 3, 'LDA $A9AD'],
      [0x1003, 2, '??'],
      [0x1005, 1, 'NOP'],
    ],
  );
});

test('a CPU without a disassembler is refused as unsupported; oversized windows as too large', async () => {
  assert.throws(() => disassemblerFor(c64Memory({}, 'x86')), { code: 'unsupported' });
  const dis = disassemblerFor(c64Memory({}));
  await assert.rejects(disassemblyWindow(dis, 0, 0, 5000), { code: 'too_large' });
});

test("MAME's dasm lines: lengths from the next address, one more asked for than returned", async () => {
  const asked: number[] = [];
  const dis = new MameDisassembler({
    disassemble: async (address, count) => {
      asked.push(count);
      return [
        { address, text: 'ld   sp,$6000' },
        { address: address + 3, text: 'ld   ix,$0000' },
        { address: address + 7, text: 'ret' },
      ].slice(0, count);
    },
  });
  assert.deepEqual(await dis.disassemble(0x8000, 2), [
    { address: 0x8000, length: 3, text: 'ld sp,$6000' },
    { address: 0x8003, length: 4, text: 'ld ix,$0000' },
  ]);
  assert.deepEqual(asked, [3]);
});

test('flags: 6502 N V - B D I Z C from FL, Z80 S Z H P/V N C from F or the low byte of AF', () => {
  assert.equal(flagsRegister('6502', ['PC', 'A', 'FL']), 'FL');
  const p = decodeFlags('6502', 'FL', 0b1010_0011);
  assert.deepEqual(
    p.map((f) => `${f.name}${f.set ? 1 : 0}`),
    ['N1', 'V0', '-1', 'B0', 'D0', 'I0', 'Z1', 'C1'],
  );
  assert.equal(flagsRegister('z80', ['PC', 'AF', 'A']), 'AF');
  assert.equal(flagsRegister('z80', ['F', 'AF']), 'F');
  const z = decodeFlags('z80', 'AF', 0x12_c5);
  assert.deepEqual(
    z.map((f) => `${f.name}${f.set ? 1 : 0}`),
    ['S1', 'Z1', 'H0', 'P/V1', 'N0', 'C1'],
  );
  assert.equal(flagsRegister('x86', ['FLAGS']), undefined);
});

test('DAP rows: padded with invalid rows VS Code skips where the address space ends, bytes and C lines kept', async () => {
  const { disassembleBody } = await import('../../src/dap/disassembly-view.js');
  const { annotate } = await import('../../src/session/disassembly.js');
  const target = c64Memory({ 0: [0xa9, 0x2f, 0xea] });
  const window = await disassemblyWindow(disassemblerFor(target), 2, -3, 5);
  const shown = await annotate(window, {
    readMemory: async (at, n) => target.memory.read({ space: 'cpu', offset: at }, n),
    functionStart: (at) => (at === 0 ? 'start' : undefined),
    label: () => undefined,
    location: (at) => (at === 2 ? { file: 'boot.c', path: '/src/boot.c', line: 7 } : undefined),
  });
  const ctx = {
    session: { disassemble: async () => shown },
    handles: undefined,
    sourceOf: (l: { path?: string }) => ({ name: 'boot.c', path: l.path }),
  } as unknown as Parameters<typeof disassembleBody>[0];
  const { instructions } = (await disassembleBody(ctx, {
    memoryReference: '0x2',
    instructionOffset: -3,
    instructionCount: 5,
  }))!;
  assert.deepEqual(
    instructions.map((i) => [i.address, i.instruction, i.instructionBytes, i.symbol, i.line, i.presentationHint]),
    [
      ['-1', '', undefined, undefined, undefined, 'invalid'],
      ['-1', '', undefined, undefined, undefined, 'invalid'],
      ['0x0000', 'LDA #$2F', 'a9 2f', 'start', undefined, undefined],
      ['0x0002', 'NOP', 'ea', undefined, 7, undefined],
      ['0x0003', 'BRK', '00', undefined, undefined, undefined],
    ],
  );
  await assert.rejects(disassembleBody(ctx, { memoryReference: 'main', instructionCount: 1 }), { code: 'bad_address' });
});

test('calls, jumps and branches name the function or label at their destination; other operands do not', async () => {
  const { annotate } = await import('../../src/session/disassembly.js');
  // JSR $0820 ; BNE $0810 ; JMP ($0820) ; LDA $0820 ; JSR $FFD2 ; JMP $0830
  const code = [0x20, 0x20, 0x08, 0xd0, 0xfb, 0x6c, 0x20, 0x08, 0xad, 0x20, 0x08, 0x20, 0xd2, 0xff, 0x4c, 0x30, 0x08];
  const target = c64Memory({ 0x810: code });
  // `NE` is also inside the mnemonic `BNE`: still named
  const names: Record<number, string> = { 0x820: '_plot', 0x810: 'NE', 0xffd2: 'CHROUT', 0x830: 'done' };
  const shown = await annotate(await disassemblyWindow(disassemblerFor(target), 0x810, 0, 6), {
    readMemory: async (at, n) => target.memory.read({ space: 'cpu', offset: at }, n),
    functionStart: (at) => (at === 0x820 ? names[at] : undefined),
    label: (at) => (at === 0x820 ? undefined : names[at]),
    location: () => undefined,
  });
  assert.deepEqual(
    shown.lines.map((l) => l.text),
    ['JSR $0820 <_plot>', 'BNE $0810 <NE>', 'JMP ($0820)', 'LDA $0820', 'JSR $FFD2 <CHROUT>', 'JMP $0830 <done>'],
  );
  const named = await annotate(await disassemblyWindow(disassemblerFor(target), 0x81b, 0, 1), {
    readMemory: async (at, n) => target.memory.read({ space: 'cpu', offset: at }, n),
    functionStart: () => undefined,
    label: (at) => (at === 0xffd2 ? '$FFD2' : undefined),
    location: () => undefined,
  });
  assert.deepEqual(
    named.lines.map((l) => l.text),
    ['JSR $FFD2'],
    'a name the operand already is, is not repeated',
  );
});

test("MAME's Z80 control transfers: the fixed destination, conditional or not; none for indirect jumps", async () => {
  const { z80Target } = await import('../../src/connectors/mame/mame-disassembler.js');
  assert.deepEqual(
    ['call $015C', 'call nz,$8000', 'jp $0038', 'jp pe,$1234', 'jr $8012', 'jr nc,$8012', 'djnz $7FFE', 'rst $38'].map(
      z80Target,
    ),
    [0x015c, 0x8000, 0x38, 0x1234, 0x8012, 0x8012, 0x7ffe, 0x38],
  );
  for (const text of ['jp (hl)', 'jp (ix)', 'ld hl,$015C', 'ld ($5800),a', 'call', 'ret nz'])
    assert.equal(z80Target(text), undefined, text);
});
