/**
 * nasm listings read for data labels, on real nasm output: every label's address equals what nasm's own
 * `[map symbols]` file says, and each label's size reaches the next label's address (continuation rows,
 * `times`, reserved space, a label alone on its row, a local label, an included file).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseNasmListing } from '../../src/debuginfo/nasm-listing.js';
import { listingProfile } from '../../src/connectors/dosbox/listing-profile.js';
import { REPO_ROOT } from '../support/zx-fixture.js';

/** nasm's map: "Real Virtual Name" rows. */
function mapAddresses(text: string): Map<string, number> {
  return new Map(
    [...text.matchAll(/^\s*([0-9A-F]+)\s+[0-9A-F]+\s+(\S+)\s*$/gm)].map((m) => [m[2], parseInt(m[1], 16)]),
  );
}

function assemble(dir: string, source: string, stem: string) {
  execFileSync('nasm', ['-f', 'bin', '-w-zeroing', '-l', `${stem}.lst`, '-o', `${stem}.COM`, source], { cwd: dir });
  return { listing: join(dir, `${stem}.lst`), com: join(dir, `${stem}.COM`) };
}

test("every data label of a nasm listing sits where nasm's map says, with the bytes up to the next label", () => {
  const dir = mkdtempSync(join(tmpdir(), 'nasm-listing-'));
  writeFileSync(join(dir, 'inc.inc'), ['incword dw 0x55AA', 'incbuf times 3 db 7', ''].join('\n'));
  writeFileSync(
    join(dir, 'labels.asm'),
    [
      '[map symbols labels.map]',
      'org 100h',
      'start:',
      '    mov ax, [word_v]',
      '.loop: jmp .loop',
      '.table db 1, 2, 3 ; a local data label',
      'bytev db 7',
      'word_v: dw 0x1234',
      'dd_v dd 1',
      'buf times 4 db 0',
      "text db 'a long text that nasm continues on the next rows of its listing$'",
      'alone:',
      '    db 9',
      'spare resb 3',
      '%include "inc.inc"',
      'room resb 300',
      'after db 1',
      'big times 300 db 0',
      'end_ db 0',
      '',
    ].join('\n'),
  );
  const { listing } = assemble(dir, 'labels.asm', 'LABELS');
  const { labels } = parseNasmListing(readFileSync(listing, 'utf8'));
  const map = mapAddresses(readFileSync(join(dir, 'labels.map'), 'utf8'));
  const names = labels.map((l) => l.name);
  assert.deepEqual(names, [
    'start.table',
    'bytev',
    'word_v',
    'dd_v',
    'buf',
    'text',
    'alone',
    'spare',
    'incword',
    'incbuf',
    'room',
    'after',
    'big',
    'end_',
  ]);
  for (const [i, l] of labels.entries()) {
    assert.equal(l.address, map.get(l.name), `${l.name}'s address`);
    const next = labels[i + 1];
    if (next) assert.equal(l.address + l.size, next.address, `${l.name}'s size reaches ${next.name}`);
  }
  assert.equal(labels.find((l) => l.name === 'word_v')?.directive, 'dw');
});

test("KEYECHO's listing gives its variables as profile symbols typed by size; a .EXE gives none, another build's listing is refused", () => {
  const dir = mkdtempSync(join(tmpdir(), 'nasm-keyecho-'));
  for (const f of ['keyecho.asm', 'print.inc']) copyFileSync(join(REPO_ROOT, 'test/fixtures/dos', f), join(dir, f));
  const { listing, com } = assemble(dir, 'keyecho.asm', 'KEYECHO');
  const map = mapAddresses(readFileSync(join(dir, 'keyecho.map'), 'utf8'));
  const profile = listingProfile(com, listing, 'KEYECHO');
  assert.ok(profile);
  assert.deepEqual(profile.symbols.tag, { offset: map.get('tag'), size: 1, type: 'u8', description: undefined });
  assert.deepEqual(profile.symbols.count, { offset: map.get('count'), size: 2, type: 'u16', description: undefined });
  assert.equal(profile.symbols.marker.type, 'bytes');
  assert.equal(profile.symbols.start, undefined, 'code labels are no variables');
  // the marker is the program's own first bytes at PSP:0100
  assert.equal(profile.marker.offset, 0x100);
  assert.deepEqual([...profile.marker.bytes], [...readFileSync(com).subarray(0, 32)]);
  assert.equal(profile.program, 'KEYECHO');
  assert.equal(listingProfile(join(dir, 'KEYECHO.EXE'), listing, 'KEYECHO'), undefined);
  // a listing of another build (one byte changed in the program) is refused, naming the first place that differs
  const other = readFileSync(com);
  other[0x40] ^= 0xff;
  writeFileSync(join(dir, 'OTHER.COM'), other);
  assert.throws(
    () => listingProfile(join(dir, 'OTHER.COM'), listing, 'OTHER'),
    (e: Error & { code?: string }) => e.code === 'bad_debug_info' && /another build of OTHER\.COM/.test(e.message),
  );
});
