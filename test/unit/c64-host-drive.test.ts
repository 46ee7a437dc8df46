import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  directoryListing,
  matchesPattern,
  parseFileSpec,
  petsciiToHost,
  statusLine,
} from '../../src/connectors/builtin-c64/cbm-dos.js';
import { HostFolderDrive } from '../../src/connectors/builtin-c64/host-drive.js';

const pet = (s: string) => [...s].map((c) => c.charCodeAt(0));
const text = (bytes: number[]) => String.fromCharCode(...bytes);

function readStatus(drive: HostFolderDrive): string {
  const out: number[] = [];
  for (;;) {
    const got = drive.read(15)!;
    out.push(got.byte);
    if (got.last) return text(out);
  }
}

test('file specs: drive prefix, replace, type and mode; directory', () => {
  assert.deepEqual(parseFileSpec(pet('@0:DATA,S,W'), 2), {
    name: 'data',
    type: 'SEQ',
    mode: 'write',
    replace: true,
    directory: false,
  });
  assert.equal(parseFileSpec(pet('PROG'), 1)?.mode, 'write');
  assert.equal(parseFileSpec(pet('PROG'), 0)?.mode, 'read');
  assert.equal(parseFileSpec(pet('$'), 0)?.directory, true);
  assert.equal(parseFileSpec(pet('0:'), 2), undefined);
  assert.equal(petsciiToHost([0x41, 0xc1, 0x31, 0x2e]), 'aA1.');
  assert.equal(matchesPattern('c64*', 'C64-HI.TGI'), true);
  assert.equal(matchesPattern('d?sk', 'disk'), true);
  assert.equal(matchesPattern('disk', 'disk.prg'), false);
});

test('error channel text as the 1541 words it', () => {
  assert.equal(text(statusLine([62, 'FILE NOT FOUND'])), '62,FILE NOT FOUND,00,00\r');
  assert.equal(text(statusLine([0, 'OK'])), '00, OK,00,00\r');
});

test('the directory is a BASIC listing at $0401 with blocks, quoted names, types and BLOCKS FREE', () => {
  const bytes = directoryListing('work', [{ name: 'game', bytes: 600, type: 'PRG' }]);
  assert.deepEqual([...bytes.subarray(0, 2)], [0x01, 0x04]);
  const lines: { number: number; text: string }[] = [];
  for (let at = 2; bytes[at] | bytes[at + 1];) {
    const end = bytes.indexOf(0, at + 4);
    lines.push({ number: bytes[at + 2] | (bytes[at + 3] << 8), text: text([...bytes.subarray(at + 4, end)]) });
    at = end + 1;
  }
  assert.equal(lines.length, 3);
  assert.equal(lines[0].text.charCodeAt(0), 0x12, 'the header is reversed');
  assert.match(lines[0].text.slice(1), /^"WORK {12}" 00 2A$/);
  assert.equal(lines[1].number, 3);
  assert.match(lines[1].text, /^ {3}"GAME" {12}PRG {2}$/);
  assert.equal(lines[2].number, 661);
  assert.match(lines[2].text, /^BLOCKS FREE\./);
});

test('the host drive: power-on status, not found, exists, write at close, links out of the folder refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'c64-drive-'));
  const outside = mkdtempSync(join(tmpdir(), 'c64-outside-'));
  writeFileSync(join(outside, 'secret'), 'no');
  symlinkSync(join(outside, 'secret'), join(dir, 'link'));
  writeFileSync(join(dir, 'here.seq'), 'abc');
  const drive = new HostFolderDrive(dir);
  assert.equal(readStatus(drive), '73,CBM DOS V2.6 1541,00,00\r');
  assert.equal(readStatus(drive), '00, OK,00,00\r');
  drive.open(2, pet('NOPE'));
  assert.equal(readStatus(drive), '62,FILE NOT FOUND,00,00\r');
  assert.equal(drive.read(2), undefined);
  drive.open(2, pet('LINK'));
  assert.equal(readStatus(drive), '62,FILE NOT FOUND,00,00\r');
  drive.open(2, pet('HERE'));
  assert.deepEqual(
    [drive.read(2), drive.read(2), drive.read(2)],
    [
      { byte: 0x61, last: false },
      { byte: 0x62, last: false },
      { byte: 0x63, last: true },
    ],
  );
  drive.open(3, pet('HERE.SEQ,S,W'));
  assert.equal(readStatus(drive), '63,FILE EXISTS,00,00\r');
  drive.open(3, pet('SUB/X,S,W'));
  assert.equal(readStatus(drive), '33,SYNTAX ERROR,00,00\r');
  drive.open(3, pet('NEW,S,W'));
  for (const b of pet('HI')) drive.write(3, b);
  drive.close(3);
  assert.equal(readFileSync(join(dir, 'new'), 'latin1'), 'HI');
  for (const b of pet('S:NE*')) drive.write(15, b);
  drive.endCommand();
  assert.equal(readStatus(drive), '01,FILES SCRATCHED,01,00\r');
  for (const b of pet('S:LINK')) drive.write(15, b);
  drive.endCommand();
  assert.equal(readStatus(drive), '01,FILES SCRATCHED,00,00\r', 'a link out of the folder is not followed');
  assert.equal(readFileSync(join(outside, 'secret'), 'latin1'), 'no');
});
