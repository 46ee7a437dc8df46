// The debug-info index on generated .cdb and .dbg files (test/support/debuginfo-gen.ts, the records SDCC and
// ld65 write): every function, line and variable is found, and resolveLine's binary searches give what reading
// every line would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DebugIndex } from '../../src/debuginfo/index.js';
import { parseCdb } from '../../src/debuginfo/sdcc-cdb.js';
import { parseCc65Dbg } from '../../src/debuginfo/cc65-dbg.js';
import type { DebugInfo } from '../../src/debuginfo/model.js';
import { cc65Dbg, CODE_START, firstLine, moduleFile, sdccCdb } from '../support/debuginfo-gen.js';

const N = 250;

/** The reference: the next line with code in the same function, by scanning every line entry. */
function bruteForce(info: DebugInfo, file: string, line: number): { line: number; addresses: number[] } | undefined {
  const exact = info.lines.filter((l) => l.file === file && l.line === line);
  if (exact.length) return { line, addresses: [...new Set(exact.map((l) => l.address))] };
  for (const f of info.functions) {
    const own = info.lines.filter((l) => l.file === file && l.address >= f.start && l.address <= f.end);
    if (!own.length || line < Math.min(...own.map((l) => l.line)) || line > Math.max(...own.map((l) => l.line)))
      continue;
    const next = Math.min(...own.map((l) => l.line).filter((l) => l > line));
    return { line: next, addresses: [...new Set(own.filter((l) => l.line === next).map((l) => l.address))] };
  }
  return undefined;
}

for (const [format, info] of [
  ['sdcc-cdb', parseCdb(sdccCdb(N))],
  ['cc65-dbg', parseCc65Dbg(cc65Dbg(N))],
] as const) {
  test(`${format}: ${N} generated functions with their lines, parameters, locals and globals`, () => {
    assert.equal(info.functions.length, N);
    assert.equal(info.globals.length, format === 'sdcc-cdb' ? 2 * N : N);
    const index = new DebugIndex(info);
    for (let i = 0; i < N; i += 17) {
      const fn = index.functionByName(`fn${i}`)!;
      assert.equal(fn.start, CODE_START + i * 12);
      assert.equal(fn.file, moduleFile(i));
      assert.deepEqual(
        [...fn.params, ...fn.locals].map((v) => v.name),
        format === 'sdcc-cdb' ? ['a', 'x'] : ['value', 'local'],
      );
      assert.equal(index.lineAt(fn.start + 5)?.line, firstLine(i) + 2);
    }
  });

  test(`${format}: resolveLine agrees with a scan of every line, with and without code on the line`, () => {
    const index = new DebugIndex(info);
    for (let i = 0; i < N; i += 7) {
      const file = moduleFile(i);
      for (let line = firstLine(i) - 1; line <= firstLine(i) + 6; line++) {
        const want = bruteForce(info, file, line);
        const got = index.resolveLine(file, line);
        assert.deepEqual(got && { line: got.line, addresses: got.addresses }, want, `${file}:${line}`);
      }
    }
  });
}
