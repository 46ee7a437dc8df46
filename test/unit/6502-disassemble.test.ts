// The 6502 disassembler against the real cc65 assembler: every one of the 256 opcodes is decoded, its text is
// assembled by ca65 (6502X, which knows the undocumented opcodes) and must give the same bytes back — or, for the
// undocumented aliases ca65 spells with another opcode, an opcode with the same mnemonic and mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disassemble6502 } from '../../src/cpu/6502/disassemble.js';
import { OPCODES } from '../../src/cpu/6502/opcodes.js';

const BASE = 0x1000;
/** ca65's spelling where it differs from VICE's; LXA ($AB) ca65 does not accept at all */
const CA65_NAMES: Record<string, string> = { SBX: 'AXS' };

function assemble(lines: string[]): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'retro-6502-dis-'));
  try {
    writeFileSync(join(dir, 'all.s'), `.setcpu "6502X"\n.org $${BASE.toString(16)}\n${lines.join('\n')}\n`);
    execFileSync('ca65', ['all.s', '-o', 'all.o'], { cwd: dir, stdio: 'pipe' });
    execFileSync('ld65', ['-t', 'none', '-o', 'all.bin', 'all.o'], { cwd: dir, stdio: 'pipe' });
    return new Uint8Array(readFileSync(join(dir, 'all.bin')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('all 256 opcodes decode; the text assembles with ca65 to the same instruction', () => {
  const stream: number[] = [];
  for (let op = 0; op < 256; op++) if (op !== 0xab) stream.push(op, 0x12, 0x34);
  // each opcode with operand bytes $12 $34, cut to its length, back to back
  const bytes: number[] = [];
  for (let i = 0; i < stream.length; i += 3) {
    const op = stream[i];
    const probe = disassemble6502(Uint8Array.of(op, 0x12, 0x34), 0)[0];
    bytes.push(...stream.slice(i, i + probe.bytes.length));
  }
  const list = disassemble6502(Uint8Array.from(bytes), BASE);
  assert.equal(list.length, 255);
  const text = list.map((ins) => {
    const [mnemonic, ...rest] = ins.text.split(' ');
    return [CA65_NAMES[mnemonic] ?? mnemonic, ...rest].join(' ');
  });
  const assembled = assemble(text);
  assert.equal(assembled.length, bytes.length);
  let at = 0;
  for (const ins of list) {
    const back = Array.from(assembled.subarray(at, at + ins.bytes.length));
    if (back[0] !== ins.bytes[0]) {
      // ca65 chose another encoding of the same instruction: only for undocumented aliases
      const [mine, theirs] = [OPCODES[ins.bytes[0]], OPCODES[back[0]]];
      assert.ok(mine.illegal || theirs.illegal, `${ins.text}: ${ins.bytes[0].toString(16)} vs ${back[0].toString(16)}`);
      assert.deepEqual([theirs.mnemonic, theirs.mode], [mine.mnemonic, mine.mode], ins.text);
    }
    assert.deepEqual(back.slice(1), ins.bytes.slice(1), ins.text);
    at += ins.bytes.length;
  }
});

test('syntax, targets, illegal marks, labels and truncation', () => {
  const code = Uint8Array.of(0xa9, 0x00, 0x8d, 0x20, 0xd0, 0xd0, 0xfb, 0xb1, 0xfb, 0x20, 0xd2, 0xff, 0x0a, 0xa7, 0x10);
  const list = disassemble6502(code, 0x0810, { label: (a) => (a === 0xffd2 ? 'CHROUT' : undefined) });
  assert.deepEqual(
    list.map((i) => [i.address, i.text, i.illegal, i.target]),
    [
      [0x0810, 'LDA #$00', false, undefined],
      [0x0812, 'STA $D020', false, undefined],
      [0x0815, 'BNE $0812', false, 0x0812],
      [0x0817, 'LDA ($FB),Y', false, undefined],
      [0x0819, 'JSR CHROUT', false, 0xffd2],
      [0x081c, 'ASL A', false, undefined],
      [0x081d, 'LAX $10', true, undefined],
    ],
  );
  assert.deepEqual(list[1].bytes, [0x8d, 0x20, 0xd0]);
  // an instruction cut off by the end of the bytes is not decoded; count bounds the list
  assert.equal(disassemble6502(Uint8Array.of(0xea, 0x8d, 0x20), 0).length, 1);
  assert.equal(disassemble6502(code, 0, { count: 2 }).length, 2);
  assert.equal(disassemble6502(Uint8Array.of(0x02), 0)[0].text, 'JAM');
  // a branch wraps around the address space
  assert.equal(disassemble6502(Uint8Array.of(0x10, 0x80), 0x0010)[0].target, 0xff92);
});
