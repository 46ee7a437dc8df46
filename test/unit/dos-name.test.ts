import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readlinkSync, readFileSync, writeFileSync, mkdirSync, lstatSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dosNameFor, isDosName, stageDosProgram } from '../../src/connectors/dosbox/dos-name.js';

test('8.3 names of DOS characters are kept; others get an upper-case stand-in with the extension', () => {
  for (const ok of ['KEYECHO.COM', 'keyecho.com', 'A', 'GAME_1.EXE', 'x~1.c']) assert.ok(isDosName(ok), ok);
  for (const bad of ['toolongname.com', 'a.comx', 'p q.com', 'p"q.com', 'Ж.com', '.com', 'a..com'])
    assert.ok(!isDosName(bad), bad);
  assert.equal(dosNameFor('p "q" \'x\' $y; z.com'), 'PQXYZ.COM');
  assert.equal(dosNameFor('p Ж-cyrillic.exe'), 'PCYRILLI.EXE');
  assert.equal(dosNameFor('Жж.com'), 'PROGRAM.COM');
  assert.equal(dosNameFor('noext'), 'NOEXT');
});

test('staging: a DOS name in a plain folder is used as it is; a quoted folder is linked; a long name is copied', () => {
  const root = mkdtempSync(join(tmpdir(), 'dos-name-'));
  const work = join(root, 'work');
  mkdirSync(work);
  const plain = join(root, 'plain');
  mkdirSync(plain);
  writeFileSync(join(plain, 'KEYECHO.COM'), 'k');
  assert.deepEqual(stageDosProgram(join(plain, 'KEYECHO.COM'), work), { path: join(plain, 'KEYECHO.COM') });

  const quoted = join(root, 'a "quoted" folder');
  mkdirSync(quoted);
  writeFileSync(join(quoted, 'KEYECHO.COM'), 'q');
  const linked = stageDosProgram(join(quoted, 'KEYECHO.COM'), work);
  assert.equal(readlinkSync(join(work, 'drive-c')), quoted);
  assert.equal(readFileSync(linked.path, 'utf8'), 'q');
  assert.match(linked.note ?? '', /cannot mount .*a link to it/);

  writeFileSync(join(plain, 'a long name.com'), 'l');
  const copied = stageDosProgram(join(plain, 'a long name.com'), work);
  assert.equal(copied.path, join(work, 'drive-c', 'ALONGNAM.COM'));
  assert.ok(lstatSync(join(work, 'drive-c')).isDirectory(), 'the earlier link was replaced, not followed');
  assert.equal(readFileSync(copied.path, 'utf8'), 'l');
  assert.equal(readFileSync(join(quoted, 'KEYECHO.COM'), 'utf8'), 'q', "the user's folder is untouched");
  assert.match(copied.note ?? '', /runs as C:\\ALONGNAM\.COM/);
  rmSync(root, { recursive: true });
});
