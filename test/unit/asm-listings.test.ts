import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAcmeReport } from '../../src/debuginfo/acme-report.js';
import { parseTassListing } from '../../src/debuginfo/tass-list.js';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import { RetroError } from '../../src/core/errors.js';

// ACME 0.97's report columns: line number in 6, address at 8, bytes at 13, source at 32
const ACME = [
  '',
  '; ******** Source: main.a',
  '     1                                  * = $0801',
  '     2  0801 0b08ea079e323036           !word next, 2026',
  '     3  080d a200               start   ldx #0',
  '     4                          again',
  '     5  080f e8                         inx',
  '     6  0810 60                 .local  rts',
  '     7  0811 07                 count   !byte 7',
].join('\n');

test('ACME report: instruction lines, a code label per routine (a label alone names the next line), data labels', () => {
  const info = parseAcmeReport(ACME, { fileName: 'main.rep' });
  assert.deepEqual(
    [...info.lines].map((l) => [l.file, l.line, l.address]),
    [
      ['main.a', 3, 0x80d],
      ['main.a', 5, 0x80f],
      ['main.a', 6, 0x810],
    ],
  );
  assert.deepEqual(
    info.functions.map((f) => [f.name, f.start, f.end]),
    [
      ['start', 0x80d, 0x80e],
      ['again', 0x80f, 0x810],
    ],
  );
  assert.deepEqual(
    info.globals.map((g) => [g.name, g.type.name]),
    [['count', 'byte']],
  );
  assert.ok(!info.symbols.some((s) => s.name === '.local'), 'zone-local labels are not global names');
});

test('ACME report: a line that is not one is a bad_debug_info naming the file and line', () => {
  assert.throws(
    () => parseAcmeReport('; ******** Source: a.a\nhello world\n', { fileName: 'x.rep' }),
    (e: RetroError) => e.code === 'bad_debug_info' && /x\.rep:2/.test(e.message),
  );
});

test('64tass listing: rows without a line number are placed by their source text; without sources, a warning', () => {
  const listing = [
    '; 64tass Turbo Assembler Macro V1.58 listing file',
    ':0\t;******  Processing input file: m.asm',
    '\t.1000\ta2 00\t\tldx #$00\tstart   ldx #0',
    '\t.1002\te8\t\tinx\t\t        inx',
    '\t>1003\t07\t\t\t\tval     .byte 7',
  ].join('\n');
  const source = '; demo\n        * = $1000\nstart   ldx #0\n\n        inx\nval     .byte 7\n';
  const info = parseTassListing(listing, { fileName: 'm.lst', readSource: () => source });
  assert.deepEqual(
    [...info.lines].map((l) => [l.line, l.address]),
    [
      [3, 0x1000],
      [5, 0x1002],
    ],
  );
  assert.deepEqual(
    info.functions.map((f) => f.name),
    ['start'],
  );
  assert.deepEqual(
    info.globals.map((g) => g.name),
    ['val'],
  );
  const blind = parseTassListing(listing, { fileName: 'm.lst', readSource: () => undefined });
  assert.equal(blind.lines.length, 0);
  assert.match(blind.warnings?.[0] ?? '', /3 listed lines .* --line-numbers/);
});

test('a .lst that is neither ACME nor 64tass (ca65, sdas) is refused with what to give instead', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'asm-lst-'));
  try {
    writeFileSync(join(dir, 'x.lst'), 'ca65 V2.19 - Git\nMain file   : x.s\n');
    await assert.rejects(loadDebugInfo(join(dir, 'x.lst')), (e: RetroError) =>
      /cc65 \.dbg, SDCC \.cdb/.test(e.message),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
