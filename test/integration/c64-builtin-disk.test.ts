// Device 8 of the built-in C64 from a host folder, driven by a real cc65
// program (test/fixtures/c64/disk): stdio reads and writes, rename and
// remove through the command channel, the directory, cbm_load/cbm_save,
// a TGI driver loaded from disk, console output after a failed open, and
// a write outside the folder refused.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostFolderDrive } from '../../src/connectors/builtin-c64/host-drive.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { newMachine, printedLines, runProgram } from '../support/c64-machine.js';

const TGI_DRIVER = '/usr/share/cc65/target/c64/drv/tgi/c64-hi.tgi';
let folder: string;
/** the lines the program printed */
let screen: string[];
let logs: string[];

before(async () => {
  const built = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'disk'), ['disk.c']);
  const parent = await mkdtemp(join(tmpdir(), 'c64-disk-'));
  folder = join(parent, 'disk');
  await mkdir(folder);
  await copyFile(join(built, 'program.prg'), join(folder, 'disk.prg'));
  await copyFile(TGI_DRIVER, join(folder, 'c64-hi.tgi'));
  await writeFile(join(folder, 'greeting.txt'), Buffer.from('HELLO FROM THE HOST\r', 'latin1'));
  await writeFile(join(folder, 'moved.seq'), 'x');
  await writeFile(join(folder, 'scratch.me'), 'y');
  await writeFile(join(folder, 'data.prg'), Buffer.from([0x00, 0xc0, 11, 22, 33, 44]));
  const t = newMachine();
  t.machine.attachDrive(new HostFolderDrive(folder, (l) => t.logs.push(l)));
  const run = runProgram(t.machine, join(folder, 'disk.prg'));
  assert.equal(run.stop, undefined, t.logs.join('\n'));
  screen = printedLines(t.printed);
  logs = t.logs;
});

test('a failed open reports "no file" and console output goes on (the status byte is cleared)', () => {
  assert.ok(screen.includes('missing: no file'), screen.join('\n'));
  assert.ok(screen.includes('after the failed open'), screen.join('\n'));
});

test('stdio reads a host file and writes one that reaches the folder at fclose', async () => {
  assert.ok(
    screen.some((r) => r.startsWith('read: hello from the host')),
    screen.join('\n'),
  );
  assert.ok(screen.includes('wrote out.seq'));
  assert.deepEqual(await readFile(join(folder, 'out.seq')), Buffer.from('WRITTEN BY THE C64\r', 'latin1'));
});

test('rename and remove go through the command channel', async () => {
  assert.ok(screen.includes('rename: 0') && screen.includes('remove: 0'), screen.join('\n'));
  const names = await readdir(folder);
  assert.ok(names.includes('renamed.seq') && !names.includes('moved.seq') && !names.includes('scratch.me'), `${names}`);
});

test('a name that leaves the folder is refused and nothing is written outside it', () => {
  assert.ok(screen.includes('escape: refused'), screen.join('\n'));
  assert.equal(existsSync(join(folder, '..', 'escape.seq')), false);
});

test('cbm_load and cbm_save use KERNAL LOAD and SAVE on device 8', async () => {
  assert.ok(
    screen.includes('load: 4') && screen.includes('bytes: 11 44') && screen.includes('save: 0'),
    screen.join('\n'),
  );
  const saved = await readFile(join(folder, 'saved.prg'));
  assert.deepEqual([...saved.subarray(2)], [11, 22, 33, 44]);
});

test('the directory lists the folder; a TGI driver loads from disk and draws', () => {
  for (const name of ['c64-hi.tgi', 'disk.prg', 'greeting.txt', 'out.seq'])
    assert.ok(
      screen.some((r) => r.startsWith(`dir: ${name} `)),
      `${name} listed: ${screen.join('\n')}`,
    );
  assert.ok(screen.includes('tgi: 0'), screen.join('\n'));
  assert.ok(screen.includes('done'));
  assert.deepEqual(
    logs.filter((l) => /not present|not provided/.test(l)),
    [],
  );
});

test('without a drive, OPEN of device 8 fails as "device not present", the message says so, and output goes on', async () => {
  const t = newMachine();
  const run = runProgram(t.machine, join(folder, 'disk.prg'));
  assert.equal(run.stop, undefined);
  const lines = printedLines(t.printed);
  assert.ok(lines.includes('missing: no file') && lines.includes('after the failed open'), lines.join('\n'));
  assert.ok(lines.includes('done'), lines.join('\n'));
  assert.ok(
    t.logs.some((l) => /OPEN of device 8: device not present/.test(l)),
    t.logs.join('\n'),
  );
});
