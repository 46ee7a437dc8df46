import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { guessProgram, resolveDebugConfigurationDefaults, starterConfigurations } from '../../src/host/debug-config.js';

const root = mkdtempSync(join(tmpdir(), 'retro-debug-config-'));
after(() => rmSync(root, { recursive: true, force: true }));

function files(base: string, names: string[]): string {
  for (const name of names) {
    mkdirSync(join(base, name, '..'), { recursive: true });
    writeFileSync(join(base, name), 'x');
  }
  return base;
}

test('empty launch.json + active C file: a spectrum/mame launch with the program guessed beside its .cdb', async () => {
  const ws = files(join(root, 'ws1'), [
    'src/main.c',
    'build/game.cdb',
    'build/game.rom',
    'build/game.ihx',
    'build/other.rom',
    'node_modules/x/y.cdb',
    'node_modules/x/y.rom',
  ]);
  const r = await resolveDebugConfigurationDefaults(
    {},
    {
      workspaceFolder: ws,
      activeFile: join(ws, 'src/main.c'),
      activeLanguageId: 'c',
      mamePathSetting: '/usr/games/mame',
    },
  );
  assert.ok('config' in r);
  assert.deepEqual(r.config, {
    type: 'retro',
    request: 'launch',
    name: 'Retro: launch (guessed)',
    machine: 'spectrum',
    emulator: 'mame',
    stopOnEntry: true,
    cwd: ws,
    mamePath: '/usr/games/mame',
    program: join(ws, 'build/game.rom'),
    debugInfo: join(ws, 'build/game.cdb'),
  });
});

test('empty launch.json without a C file, or with nothing built, gives a sentence instead of a launch', async () => {
  const ws = files(join(root, 'ws2'), ['main.c', 'notes.txt', 'lonely.rom']);
  const notC = await resolveDebugConfigurationDefaults(
    {},
    { workspaceFolder: ws, activeFile: join(ws, 'notes.txt'), activeLanguageId: 'plaintext' },
  );
  assert.ok('error' in notC);
  assert.match(
    notC.error,
    /Open a C or assembly file of the program \(no cc65, SDCC, nasm, ACME or 64tass project was found\)/,
  );
  const nothingBuilt = await resolveDebugConfigurationDefaults(
    {},
    { workspaceFolder: ws, activeFile: join(ws, 'main.c'), activeLanguageId: 'c' },
  );
  assert.ok('error' in nothingBuilt);
  assert.match(nothingBuilt.error, /No program image/);
});

test('an explicit configuration keeps its values and only gains the missing defaults', async () => {
  const cfg = {
    type: 'retro',
    request: 'launch',
    name: 'mine',
    machine: 'spectrum',
    program: '/p/x.rom',
    mamePath: '/opt/mame',
    cwd: '/p',
  };
  const r = await resolveDebugConfigurationDefaults(cfg, {
    workspaceFolder: '/elsewhere',
    mamePathSetting: '/usr/games/mame',
  });
  assert.ok('config' in r);
  assert.deepEqual(r.config, { ...cfg, emulator: 'mame' });
  const noMachine = await resolveDebugConfigurationDefaults(
    { type: 'retro', request: 'launch', name: 'n', program: '/p/x.rom' },
    {},
  );
  assert.ok('error' in noMachine);
  assert.match(noMachine.error, /needs "machine"/);
  const attach = await resolveDebugConfigurationDefaults(
    { type: 'retro', request: 'attach', name: 'a', machine: 'spectrum' },
    { workspaceFolder: '/w' },
  );
  assert.ok('config' in attach);
  assert.equal(attach.config.program, undefined, 'attach never guesses a program');
});

test('the guess prefers the build nearest the active file, then the shallowest', async () => {
  const ws = files(join(root, 'ws3'), ['a/deep/er/p.cdb', 'a/deep/er/p.bin', 'b/q.cdb', 'b/q.ihx', 'a/src/m.c']);
  assert.deepEqual(await guessProgram(ws), { program: join(ws, 'b/q.ihx'), debugInfo: join(ws, 'b/q.cdb') });
  assert.deepEqual(await guessProgram(ws, join(ws, 'a/deep/er/m.c')), {
    program: join(ws, 'a/deep/er/p.bin'),
    debugInfo: join(ws, 'a/deep/er/p.cdb'),
  });
  assert.equal(await guessProgram(join(root, 'missing')), undefined);
});

test('starter configurations are a fresh copy each time', () => {
  const starters = starterConfigurations();
  assert.equal(starters.length, 1);
  starters[0].name = 'changed';
  assert.notEqual(starterConfigurations()[0].name, 'changed');
});
