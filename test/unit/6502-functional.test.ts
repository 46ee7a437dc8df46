/**
 * Klaus Dormann's 6502 functional test: every failure is a jump-to-self trap;
 * a correct core reaches the `success` trap (0x3469 in this build).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cpu6502 } from '../../src/cpu/6502/cpu6502.js';

const FIXTURE = join(__dirname, '..', 'fixtures', 'c64', '6502');
/** the `success` label of this build (its listing: "3469 : 4c6934  jmp *"; see the fixture's README) */
const SUCCESS = 0x3469;

test('6502 core passes the functional test (reaches success)', () => {
  const mem = new Uint8Array(readFileSync(join(FIXTURE, '6502_functional_test.bin')));
  assert.equal(mem.length, 0x10000);
  const cpu = new Cpu6502({
    read: (a) => mem[a],
    write: (a, v) => {
      mem[a] = v;
    },
  });
  cpu.pc = 0x0400;
  const started = performance.now();
  while (cpu.cycles < 200_000_000) {
    cpu.run(100_000);
    if (cpu.jammed) assert.fail(`JAM at 0x${cpu.pc.toString(16)}`);
    // a trap is a jump or branch to itself: pc stays put across a step
    const before = cpu.pc;
    cpu.step();
    if (cpu.pc === before) break;
  }
  const seconds = (performance.now() - started) / 1000;
  assert.equal(
    `0x${cpu.pc.toString(16)}`,
    `0x${SUCCESS.toString(16)}`,
    `trapped at 0x${cpu.pc.toString(16)} instead of success`,
  );
  assert.ok(cpu.cycles > 20_000_000, `ran ${cpu.cycles} cycles`);
  console.log(
    `# functional test: ${cpu.cycles} cycles in ${seconds.toFixed(2)} s (${(cpu.cycles / seconds / 1e6).toFixed(0)}M cycles/s)`,
  );
});
