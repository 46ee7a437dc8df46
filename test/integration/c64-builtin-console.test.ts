// The built-in C64's screen editor as cc65 programs see it, on a real cc65
// program (test/fixtures/c64/console): CHRIN reads a typed line without
// echoing RETURN, keys fed while stopped are in the buffer at once, the
// cursor blinks while cgetc() waits with cursor(1), and READY. comes after
// the carriage return BASIC prints first.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Z } from '../../src/connectors/builtin-c64/screen-editor.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { machineScreen, newMachine, runUntil } from '../support/c64-machine.js';
import { K } from '../../src/connectors/builtin-c64/kernal-image.js';
import { readFileSync } from 'node:fs';

let prg: string;
const petscii = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

before(async () => {
  prg = join(
    await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'console'), ['console.c']),
    'program.prg',
  );
});

test('keys fed while stopped are in the keyboard buffer at once ($C6), as VICE puts them', () => {
  const { machine } = newMachine();
  runUntil(machine, () => machine.frame > 3, 10);
  assert.equal(machine.feedKeys(petscii('AB')), 2);
  assert.equal(machine.bus.ram[0xc6], 2);
  assert.deepEqual([...machine.bus.ram.subarray(0x0277, 0x0279)], [0x41, 0x42]);
});

test('a line read from stdin is not followed by a blank line; the cursor blinks in cgetc(); READY. after a CR', () => {
  const { machine, logs } = newMachine();
  machine.autostart(readFileSync(prg), true);
  const waitingForLine = () => machine.bus.ram[0xcc] === 0; // CHRIN waits with the cursor on
  runUntil(machine, waitingForLine, 300);
  machine.feedKeys(petscii('ABC\r'));
  runUntil(machine, () => machineScreen(machine).some((r) => r.startsWith('key?')), 300);
  // cgetc() with cursor(1): the cell under the cursor flips every 20 jiffies
  const row = machine.bus.ram[Z.CURS_Y];
  const cell = () => machine.bus.ram[0x0400 + row * 40 + machine.bus.ram[Z.CURS_X]];
  const seen = new Set<number>();
  const start = machine.frame;
  runUntil(machine, () => (seen.add(cell()), machine.frame - start > 60), 100);
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    [0x20, 0xa0],
    'a blank cell and its reversed phase',
  );
  machine.feedKeys(petscii('X'));
  const run = runUntil(machine, () => machine.cpu.pc === K.IDLE || machine.cpu.pc === K.IDLE + 1, 300);
  assert.equal(run.stop, undefined, logs.join('\n'));
  const screen = machineScreen(machine).map((r) => r.toLowerCase());
  // cc65's read() prints the CR itself after a keyboard line; the KERNAL must not add a second one
  const at = screen.indexOf('name? abc');
  assert.ok(at > 0, screen.join('\n'));
  assert.deepEqual(screen.slice(at, at + 7), ['name? abc', '[abc', ']', 'key? <x>', 'bye', '', 'ready.']);
});
