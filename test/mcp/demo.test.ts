/**
 * `retro-debug demo`: builds the bundled C demo with SDCC, debugs it in MAME
 * headless through the MCP tool functions, and saves a screenshot.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { PNG } from 'pngjs';
import { REPO_ROOT } from '../support/zx-fixture.js';
import { freshBundle } from '../support/bundle.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
let dir: string;
const demo = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(process.execPath, [CLI, 'demo', ...args], { cwd: dir, encoding: 'utf8', env, timeout: 180_000 });

before(() => {
  freshBundle();
  dir = mkdtempSync(join(tmpdir(), 'mcp-demo-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the demo builds, stops in the loop, prints stack and variables, saves a screenshot, exits 0', () => {
  const run = demo(['--out', 'out']);
  assert.equal(run.status, 0, `demo failed: ${run.stdout}\n${run.stderr}`);
  const paintLine =
    readFileSync(join(REPO_ROOT, 'examples', 'zx-demo', 'demo.c'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('/* DEMO:paint */')) + 1;
  assert.match(run.stdout, /Stopped at main at demo\.c:\d+/);
  assert.match(run.stdout, new RegExp(`Hit the breakpoint: paint_row at demo\\.c:${paintLine}\\b`));
  assert.match(run.stdout, new RegExp(`#0 paint_row at demo\\.c:${paintLine}\\n\\s+#1 main at demo\\.c:\\d+`));
  // row 0's cells start at 0x5800; `row` itself is dead by the loop (its register B holds i): said so, not misread
  assert.match(run.stdout, /Locals:\n(\s+.+\n)*\s+unsigned char \* cell = 0x5800\n/);
  assert.match(run.stdout, /Locals:\n(\s+.+\n)*\s+unsigned char row = <not available here: B holds i>\n/);
  assert.match(run.stdout, /Globals:\n(\s+.+\n)*\s+unsigned int passes = 0/);
  const passes = Number(/after (\d+) passes/.exec(run.stdout)?.[1]);
  assert.ok(passes > 0, 'the program ran between the breakpoint and the pause');
  const png = PNG.sync.read(readFileSync(join(dir, 'out', 'screen.png')));
  assert.ok(png.width >= 256 && png.height >= 192);
  const colours = new Set<number>();
  for (let i = 0; i < png.data.length; i += 4) colours.add(png.data.readUInt32BE(i));
  assert.ok(colours.size >= 8, `the colour bands show (${colours.size} colours)`);
});

test('the Sprinter demo: a DSS program on the open ROM stops in show_pass, prints its frame and the screen it printed', () => {
  const run = demo(['--machine', 'sprinter', '--out', 'sprinter']);
  assert.equal(run.status, 0, `demo failed: ${run.stdout}\n${run.stderr}`);
  const paintLine =
    readFileSync(join(REPO_ROOT, 'examples', 'sprinter-demo', 'demo.c'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('/* DEMO:paint */')) + 1;
  assert.match(run.stdout, /Stopped at main at demo\.c:\d+/);
  assert.match(run.stdout, new RegExp(`#0 show_pass at demo\\.c:${paintLine}\\n\\s+#1 main at demo\\.c:\\d+`));
  // the first pass: width 1, the loop's first turn (its register local), nothing counted yet
  assert.match(run.stdout, /Locals:\n(\s+.+\n)*\s+unsigned char width = 1\n/);
  // `pass` came in HL and went to put_number: HL holds other values by the bar's loop
  assert.match(run.stdout, /Locals:\n(\s+.+\n)*\s+unsigned int pass = <not available here: L holds another value>\n/);
  assert.match(run.stdout, /Locals:\n(\s+.+\n)*\s+unsigned char i = 0 /);
  assert.match(run.stdout, /Globals:\n(\s+.+\n)*\s+unsigned int passes = 0/);
  const passes = Number(/after (\d+) passes/.exec(run.stdout)?.[1]);
  assert.ok(passes > 0, 'the program ran between the breakpoint and the pause');
  const png = PNG.sync.read(readFileSync(join(dir, 'sprinter', 'screen.png')));
  // the printed lines: the text colour covers a share of the screen that grows with the lines printed
  const counts = new Map<number, number>();
  for (let i = 0; i < png.data.length; i += 4)
    counts.set(png.data.readUInt32BE(i), (counts.get(png.data.readUInt32BE(i)) ?? 0) + 1);
  const [, second] = [...counts.values()].sort((a, b) => b - a);
  assert.ok(counts.size >= 3 && second > 1000, `paper, border and printed text show (${counts.size} colours)`);
});

test('a second run into the same folder refuses to overwrite unless asked', () => {
  const again = demo(['--out', 'out']);
  assert.notEqual(again.status, 0);
  assert.match(again.stderr, /already exists; use --overwrite/);
  const forced = demo(['--out', 'out', '--overwrite']);
  assert.equal(forced.status, 0, forced.stderr);
});

test('without SDCC on PATH the demo says so and exits non-zero', () => {
  const run = demo(['--out', 'nosdcc'], { ...process.env, PATH: '/nonexistent' });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /"sdcc" was not found on PATH: install SDCC/);
});

test('bad arguments print usage and exit 2', () => {
  const run = demo(['--machine', 'atari2600']);
  assert.equal(run.status, 1);
  assert.match(run.stderr, /"spectrum", "sprinter" and "c64" machines only/);
  const bad = spawnSync(process.execPath, [CLI, 'demo', '--bogus'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--help/);
});
