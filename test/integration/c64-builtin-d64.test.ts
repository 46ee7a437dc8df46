// Device 8 of the built-in C64 from a .d64 image (test/fixtures/c64/d64/disk.d64,
// made once with VICE's c1541: "greeting" SEQ, "data" PRG, cc65's c64-hi.tgi),
// driven by a real cc65 program: stdio, cbm_load, the directory, a TGI
// driver from the image, and writes refused with WRITE PROTECT ON.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { D64Drive, openDrive8 } from '../../src/connectors/builtin-c64/d64-drive.js';
import { D64Image } from '../../src/connectors/builtin-c64/d64-image.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { newMachine, printedLines, runProgram } from '../support/c64-machine.js';

const IMAGE = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'd64', 'disk.d64');
let screen: string[];
let logs: string[];

before(async () => {
  const built = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'd64'), ['d64.c']);
  const t = newMachine();
  t.machine.attachDrive(openDrive8(IMAGE, (l) => t.logs.push(l)));
  const run = runProgram(t.machine, join(built, 'program.prg'));
  assert.equal(run.stop, undefined, t.logs.join('\n'));
  screen = printedLines(t.printed);
  logs = t.logs;
});

test('a SEQ file through stdio and a PRG through cbm_load come from the image', () => {
  assert.ok(screen.includes('read hello from the d64'), screen.join('\n'));
  // cbm_load with no buffer returns the end address ($C004: 4 bytes at $C000)
  assert.ok(screen.includes('loaded 49156: 11 22 33 44'), screen.join('\n'));
});

test('the directory lists the image with its block counts; a TGI driver loads from it', () => {
  for (const entry of ['entry greeting 1', 'entry data 1', 'entry c64-hi.tgi 7'])
    assert.ok(screen.includes(entry), `${entry}\n${screen.join('\n')}`);
  assert.ok(screen.includes('tgi 0'), screen.join('\n'));
});

test('writing is refused as write protect, and said to be unsupported', () => {
  assert.ok(screen.includes('write refused'), screen.join('\n'));
  assert.ok(screen.includes('done'), screen.join('\n'));
  assert.ok(
    logs.some((l) => /writing \.d64 images is unsupported/.test(l)),
    logs.join('\n'),
  );
});

test('an image of the wrong size or with a looping chain is refused with the reason', () => {
  assert.throws(() => new D64Image(new Uint8Array(1000), 'x.d64'), /x\.d64 is 1000 bytes/);
  const looped = Uint8Array.from(readFileSync(IMAGE));
  const dir = 0x16500 + 256; // track 18 sector 1
  looped[dir] = 18;
  looped[dir + 1] = 1;
  assert.throws(() => new D64Image(looped, 'loop.d64'), /loops at track 18 sector 1/);
  assert.ok(new D64Drive(IMAGE) instanceof D64Drive);
});
