/**
 * The hover's cc65 chip members (VIC.bordercolor, SID.v1.freq, CIA1.pra, …) resolve to the
 * addresses cc65 itself compiles them to: a C file takes the address of every member and
 * the generated assembly's `.word` list is compared with src/machines/c64/cc65-structs.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CC65_CHIP_STRUCTS, cc65MemberAddress } from '../../src/machines/c64/cc65-structs.js';

test("every cc65 chip member's address is the one cc65 compiles", () => {
  const members = Object.entries(CC65_CHIP_STRUCTS).flatMap(([chip, s]) =>
    Object.keys(s.fields).map((f) => `${chip}.${f}`),
  );
  const dir = mkdtempSync(join(tmpdir(), 'rd-cc65-structs-'));
  try {
    writeFileSync(
      join(dir, 'members.c'),
      `#include <c64.h>\nconst unsigned addresses[] = {\n${members.map((m) => `  (unsigned)&${m},`).join('\n')}\n};\n`,
    );
    execFileSync('cc65', ['-t', 'c64', '-o', 'members.s', 'members.c'], { cwd: dir });
    const words = [...readFileSync(join(dir, 'members.s'), 'utf8').matchAll(/\.word\s+\$([0-9A-F]{4})/g)].map((m) =>
      parseInt(m[1], 16),
    );
    assert.deepEqual(
      words,
      members.map((m) => cc65MemberAddress(m)),
    );
    assert.equal(cc65MemberAddress('VIC.bordercolor'), 0xd020);
    assert.equal(cc65MemberAddress('VIC.nosuchfield'), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
