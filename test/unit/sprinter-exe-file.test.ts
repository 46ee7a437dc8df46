/** A Sprinter DSS .EXE written from Intel HEX (machines/sprinter/exe-header.ts) and `retro-debug exe`. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { exeFromIntelHex, parseExeHeader } from '../../src/machines/sprinter/exe-header.js';

/** One Intel HEX data record with its checksum. */
function record(at: number, bytes: number[]): string {
  const body = [bytes.length, at >> 8, at & 0xff, 0, ...bytes];
  const sum = (0x100 - (body.reduce((a, b) => a + b, 0) & 0xff)) & 0xff;
  return ':' + [...body, sum].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
}
const END = ':00000001FF';
const HEX = [record(0x8100, [0xcd, 0x20, 0x81]), record(0x8120, [0xc9]), END].join('\n');

test('load = start = the lowest address, the default stack, the code with its gaps zeroed', () => {
  const exe = exeFromIntelHex(HEX, 'x.ihx');
  const h = parseExeHeader(exe);
  assert.deepEqual([h.load, h.start, h.stack, h.codeOffset, h.loaderSize], [0x8100, 0x8100, 0xbfff, 512, 0]);
  const code = [...exe.subarray(512)];
  assert.equal(code.length, 0x21);
  assert.deepEqual(code.slice(0, 3), [0xcd, 0x20, 0x81]);
  assert.ok(code.slice(3, 0x20).every((b) => b === 0));
  assert.equal(code[0x20], 0xc9);
});

test('no code, code in the PSP, a damaged record: each refused naming the file', () => {
  assert.throws(() => exeFromIntelHex(END, 'empty.ihx'), /empty\.ihx holds no code/);
  assert.throws(() => exeFromIntelHex([record(0x80, [0]), END].join('\n'), 'low.ihx'), /256-byte PSP/);
  assert.throws(() => exeFromIntelHex(HEX.replace(':0381', ':0481'), 'bad.ihx'), /bad\.ihx line 1/);
});

const dir = mkdtempSync(join(tmpdir(), 'exe-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');
const exe = (...args: string[]) => spawnSync(process.execPath, [CLI, 'exe', ...args], { cwd: dir, encoding: 'utf8' });

test('retro-debug exe writes the program, and replaces it only with --overwrite', () => {
  writeFileSync(join(dir, 'p.ihx'), HEX);
  const first = exe('p.ihx', 'P.EXE');
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /DSS program, 33 bytes at 0x8100/);
  assert.ok(readFileSync(join(dir, 'P.EXE')).equals(exeFromIntelHex(HEX, 'p.ihx')));
  const again = exe('p.ihx', 'P.EXE');
  assert.equal(again.status, 2);
  assert.match(again.stderr, /already exists; use --overwrite/);
  assert.equal(exe('p.ihx', 'P.EXE', '--overwrite').status, 0);
  assert.equal(exe('p.ihx').status, 2, 'one argument is a usage error');
});
