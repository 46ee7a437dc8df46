import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLaunchArgs } from '../../src/dap/launch-args.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { RetroError } from '../../src/core/errors.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return `${(e as RetroError).code}: ${(e as Error).message}`;
  }
  return 'no error';
}

test('machine "dos" defaults to the dosbox emulator, keeps dos options and never asks to stop on entry', () => {
  const { config, stopOnEntry } = parseLaunchArgs(
    {
      machine: 'dos',
      program: 'GAME.COM',
      cwd: '/w',
      dos: { backend: 'native', profile: 'g.json', memsizeMb: 16 },
    },
    CONNECTORS,
  );
  assert.deepEqual(config, {
    machine: 'dos',
    emulator: 'dosbox',
    program: 'GAME.COM',
    cwd: '/w',
    dos: { backend: 'native', profile: 'g.json', memsizeMb: 16 },
  });
  assert.equal(stopOnEntry, false);
  assert.deepEqual(parseLaunchArgs({ machine: 'dos', dos: { pid: 1234 } }, CONNECTORS).config.dos, { pid: 1234 });
});

test('bad dos launch arguments are refused with a sentence', () => {
  assert.match(
    codeOf(() => parseLaunchArgs({ machine: 'dos' }, CONNECTORS)),
    /^bad_request: .*"program".*"pid"/,
  );
  assert.match(
    codeOf(() => parseLaunchArgs({ machine: 'dos', program: 'A.COM', dos: { backend: 'qemu' } }, CONNECTORS)),
    /^bad_request: "dos.backend" must be one of native, wasm-dosbox, wasm-dosbox-x/,
  );
  assert.match(
    codeOf(() => parseLaunchArgs({ machine: 'dos', program: 'A.COM', dos: { pid: -3 } }, CONNECTORS)),
    /^bad_request: "dos.pid" must be a positive whole number/,
  );
  assert.match(
    codeOf(() => parseLaunchArgs({ machine: 'dos', program: 'A.COM', dos: { colour: 1 } }, CONNECTORS)),
    /^bad_request: "dos" has unknown option\(s\) colour/,
  );
  assert.match(
    codeOf(() => parseLaunchArgs({ machine: 'dos', program: 'A.COM', dos: [] }, CONNECTORS)),
    /^bad_request: "dos" must be an object/,
  );
});
