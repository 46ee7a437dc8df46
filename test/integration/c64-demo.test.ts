// The README's C64 demo: `retro-debug demo --machine c64` builds the bundled
// cc65 example and debugs it on the built-in C64, with no emulator installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/c64-fixture.js';
import { freshBundle } from '../support/bundle.js';

test('retro-debug demo --machine c64 runs the cc65 demo on the built-in C64 and saves the screen', () => {
  freshBundle();
  const out = mkdtempSync(join(tmpdir(), 'c64-demo-'));
  const env = {
    ...process.env,
    PATH: (process.env.PATH ?? '')
      .split(':')
      .filter((d) => !/games/.test(d))
      .join(':'),
  };
  const run = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'dist', 'cli.js'), 'demo', '--machine', 'c64', '--out', out],
    { encoding: 'utf8', env, timeout: 120_000 },
  );
  assert.equal(run.status, 0, run.stderr + run.stdout);
  const text = run.stdout + run.stderr;
  for (const expected of [
    /Stopped at main at demo\.c:\d+/,
    /#0 square at demo\.c:\d+/,
    /#1 main at demo\.c:\d+/,
    /n = 3 \(unsigned char\)/,
    /result = 9/,
    /squares = \{0, 1, 4, 9, 16, 25, 36, 49\}/,
    /Screen 320x200 \(2 colours\) saved to/,
  ]) {
    assert.match(text, expected);
  }
  const png = readFileSync(join(out, 'c64-screen.png'));
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  const again = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'dist', 'cli.js'), 'demo', '--machine', 'c64', '--out', out],
    { encoding: 'utf8', env, timeout: 60_000 },
  );
  assert.equal(again.status, 1);
  assert.match(again.stderr, /already exists; use --overwrite/);
});
