// 6502 core details the functional test does not name, and the built-in C64's
// checkpoint conditions (VICE syntax, strictly left to right).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Cpu6502, FLAG_C, FLAG_D, FLAG_N, FLAG_V, FLAG_Z } from '../../src/cpu/6502/cpu6502.js';
import { parseCondition } from '../../src/connectors/builtin-c64/condition.js';

function cpuWith(program: number[], at = 0x200) {
  const mem = new Uint8Array(0x10000);
  mem.set(program, at);
  const cpu = new Cpu6502({
    read: (a) => mem[a],
    write: (a, v) => {
      mem[a] = v;
    },
  });
  cpu.pc = at;
  return { cpu, mem };
}

test('NMOS decimal ADC: 0x99 + 0x01 = 0x00 with carry; Z follows the binary sum, N and V the half-adjusted one', () => {
  const { cpu } = cpuWith([0xf8, 0x18, 0xa9, 0x99, 0x69, 0x01]); // SED CLC LDA #$99 ADC #$01
  for (let i = 0; i < 4; i++) cpu.step();
  assert.equal(cpu.a, 0x00);
  assert.equal(cpu.p & FLAG_C, FLAG_C);
  assert.equal(cpu.p & FLAG_Z, 0, 'binary 0x9A is not zero, so Z stays clear on NMOS');
  assert.equal(cpu.p & FLAG_D, FLAG_D);
  const sbc = cpuWith([0xf8, 0x38, 0xa9, 0x10, 0xe9, 0x01]).cpu; // SED SEC LDA #$10 SBC #$01
  for (let i = 0; i < 4; i++) sbc.step();
  assert.equal(sbc.a, 0x09);
  assert.equal(sbc.p & (FLAG_C | FLAG_N | FLAG_V), FLAG_C);
});

test('JMP ($xxFF) takes its high byte from the same page; undocumented opcodes JAM without moving pc', () => {
  const { cpu, mem } = cpuWith([0x6c, 0xff, 0x30]);
  mem[0x30ff] = 0x34;
  mem[0x3000] = 0x12;
  mem[0x3100] = 0x99;
  cpu.step();
  assert.equal(cpu.pc, 0x1234);
  const jam = cpuWith([0x02]).cpu;
  assert.equal(jam.step(), false);
  assert.equal(jam.pc, 0x200);
  assert.equal(jam.jammed, true);
});

test('run stops before a breakpoint, except where it resumes; an IRQ is taken when I is clear', () => {
  const { cpu, mem } = cpuWith([0x58, 0xea, 0xea, 0x4c, 0x01, 0x02]); // CLI; NOP; NOP; JMP $0201
  const breaks = new Uint8Array(0x10000);
  breaks[0x202] = 1;
  assert.equal(cpu.run(1000, breaks), 'breakpoint');
  assert.equal(cpu.pc, 0x202);
  assert.equal(
    cpu.run(1000, breaks, undefined, true),
    'breakpoint',
    'resumes past it, then stops there again next time round',
  );
  mem[0xfffe] = 0x00;
  mem[0xffff] = 0x40;
  mem[0x4000] = 0xea;
  cpu.irqLine = true;
  cpu.run(2, undefined);
  assert.ok(cpu.pc >= 0x4000 && cpu.pc <= 0x4001, `in the handler: ${cpu.pc.toString(16)}`);
  assert.equal(mem[0x100 | ((cpu.s + 1) & 0xff)] & 0x10, 0, 'B is clear in the pushed status of an IRQ');
});

test('checkpoint conditions: registers, $hex/+decimal/bare hex, memory, strict left-to-right evaluation', () => {
  const ctx = {
    register: (r: string) => (({ A: 0x10, X: 3, SP: 0xf6 }) as Record<string, number>)[r] ?? 0,
    memory: (_b: string, a: number) => (a === 0xd020 ? 14 : 0),
  };
  assert.equal(parseCondition('A == $10')(ctx), true);
  assert.equal(parseCondition('A == 10')(ctx), true, 'plain numbers are hex');
  assert.equal(parseCondition('X == +3')(ctx), true);
  assert.equal(parseCondition('SP >= $f6 && X < 4')(ctx), true);
  assert.equal(parseCondition('@io:$d020 == +14')(ctx), true);
  assert.equal(parseCondition('X + 1 * 2')(ctx), true, '(3 + 1) * 2 = 8, non-zero');
  assert.equal(parseCondition('(A == $11) || (X == 3)')(ctx), true);
  assert.throws(() => parseCondition('A == ('), /ends too early/);
  assert.throws(() => parseCondition('@cpu:.label == 1'), /labels are not supported/);
});

test('onInstruction sees every instruction run executes, in order, with the cycle count and S before it', () => {
  // LDX #2; loop: DEX; BNE loop; PHA; BRK-free end (JAM $02 stops the run)
  const { cpu } = cpuWith([0xa2, 0x02, 0xca, 0xd0, 0xfd, 0x48, 0x02]);
  const seen: [number, number, number][] = [];
  cpu.onInstruction = (pc, cycles, s) => seen.push([pc, cycles, s]);
  assert.equal(cpu.run(1000), 'jam');
  assert.deepEqual(
    seen.map(([pc]) => pc),
    [0x200, 0x202, 0x203, 0x202, 0x203, 0x205, 0x206],
  );
  // LDX 2, DEX 2, BNE taken 3, DEX 2, BNE not taken 2, PHA 3
  assert.deepEqual(
    seen.map(([, c]) => c),
    [0, 2, 4, 7, 9, 11, 14],
  );
  assert.equal(seen[6][2], 0xfc, 'S after the PHA');
  cpu.onInstruction = undefined;
});
