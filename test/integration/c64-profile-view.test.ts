// What VS Code shows of a profile (src/host/profile-model.ts, profile-flame-html.ts), from real profiles of
// test/fixtures/testing/c64-profile built with cc65 and run on the built-in C64: one lens per C function at its
// header, hot lines with heat levels, a flame tree holding every cycle once; runs to the editor's breakpoint lines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TEST_MACHINES } from '../../src/connectors/registry.js';
import { profileProgram } from '../../src/testing/profile-run.js';
import { exportRun } from '../../src/testing/profile-export.js';
import { HEAT_LEVELS, profileModel, type FlameNode } from '../../src/host/profile-model.js';
import { flameHtml } from '../../src/host/profile-flame-html.js';
import { REPO_ROOT } from '../support/c64-fixture.js';

let work: string;
let prof: string;
/** 1-based line of the first line of prof.c matching `re` */
const lineOf = (re: RegExp) =>
  readFileSync(prof, 'utf8')
    .split('\n')
    .findIndex((l) => re.test(l)) + 1;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'rd-prof-view-'));
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'testing', 'c64-profile'), work, { recursive: true });
  prof = join(work, 'prof.c');
});

after(() => rmSync(work, { recursive: true, force: true }));

function walk(n: FlameNode, visit: (n: FlameNode) => void): void {
  visit(n);
  n.children.forEach((c) => walk(c, visit));
}

test('a frames run: one lens per function at its line, hot lines by heat, every cycle once in the flame tree', async () => {
  const run = await profileProgram(TEST_MACHINES, { target: work, frames: 50 });
  const model = profileModel(run);
  const lenses = model.lenses.get(prof) ?? [];
  const names = lenses.map((l) => l.name);
  assert.deepEqual([...new Set(names)].sort(), names.slice().sort(), 'one lens per function');
  assert.deepEqual(names.slice().sort(), ['delay100', 'done', 'main', 'outer']);
  for (const name of names)
    assert.equal(
      lenses.find((l) => l.name === name)?.line,
      lineOf(new RegExp(`^(void|int) ${name}\\(`)),
      `${name}'s lens at its header`,
    );
  // main calls outer 10 times, outer calls delay100 3 times
  assert.match(lenses.find((l) => l.name === 'delay100')!.title, /· 30 calls$/);
  assert.match(lenses.find((l) => l.name === 'outer')!.title, /· 10 calls$/);
  assert.match(lenses.find((l) => l.name === 'done')!.title, /· 1 call$/);

  const hot = [...model.hot.values()].flat();
  const hottest = Math.max(...hot.map((l) => l.cycles));
  for (const l of hot) {
    assert.ok(l.heat >= 1 && l.heat <= HEAT_LEVELS);
    assert.equal(l.heat, Math.max(1, Math.ceil((HEAT_LEVELS * l.cycles) / hottest)));
  }
  assert.ok(hot.some((l) => l.heat === HEAT_LEVELS));
  // the hand count: 30 calls of delay100, each running its `dex` 100 times at 2 cycles
  const dex = model.hot.get(prof)?.find((l) => l.line === lineOf(/@loop: dex/));
  assert.equal(dex?.cycles, 30 * 100 * 2);
  assert.match(dex?.label ?? '', /^6,000 cycles \(\d+\.\d%\)$/);

  assert.equal(model.flame.total, run.cycles, 'the tree holds every cycle');
  walk(model.flame, (n) => {
    assert.equal(n.total, n.self + n.children.reduce((t, c) => t + c.total, 0));
    if (n.file) assert.ok(model.files.has(n.file), `${n.name}'s file is one the panel may open`);
  });
  // outer's last call is a tail call (cc65 -O): that delay100 is a child of main, the other two of outer
  const delays: FlameNode[] = [];
  walk(model.flame, (n) => n.name === 'delay100' && delays.push(n));
  assert.deepEqual(delays.map((d) => [d.calls, d.file, d.line]).sort(), [
    [10, prof, lineOf(/^void delay100\(/)],
    [20, prof, lineOf(/^void delay100\(/)],
  ]);

  const cpu = exportRun(run, 'cpuprofile') as { nodes: { callFrame: { functionName: string; url: string } }[] };
  const url = cpu.nodes.find((n) => n.callFrame.functionName === 'delay100')?.callFrame.url;
  assert.equal(url, pathToFileURL(prof).href);
});

test('a run to breakpoint lines stops at the first one reached', async () => {
  const at = lineOf(/^ {2}done\(\);/);
  const first = lineOf(/^void done\(/);
  const run = await profileProgram(TEST_MACHINES, {
    target: work,
    untilLines: [
      { file: prof, line: at },
      { file: prof, line: 1 }, // a comment: moves to the first line with code after it, as a breakpoint would
    ],
  });
  assert.equal(run.ended, `reached prof.c:${at}`);
  const fns = new Map(run.profiler.functions().map((f) => [f.name, f]));
  assert.equal(fns.get('outer')?.calls, 10);
  assert.equal(fns.get('delay100')?.calls, 30);
  assert.equal(fns.get('done'), undefined, 'stopped before done was called');
  assert.ok(first < at);
  await assert.rejects(
    profileProgram(TEST_MACHINES, { target: work, untilLines: [{ file: join(work, 'other.c'), line: 1 }] }),
    /None of the 1 source line\(s\) to run to has code/,
  );
  await assert.rejects(
    profileProgram(TEST_MACHINES, { target: work, frames: 5, untilLines: [{ file: prof, line: at }] }),
    /Give one of frames/,
  );
});

test('the flame page keeps names inside its data and allows only its own script', () => {
  const html = flameHtml('<b>summary</b>', {
    name: '</script><img src=x>',
    total: 10,
    self: 10,
    calls: 1,
    children: [],
  });
  assert.ok(!html.includes('</script><img'), 'a name cannot end the data element');
  assert.ok(!html.includes('<b>summary'), 'the summary is escaped');
  const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /^default-src 'none'; style-src 'nonce-[\w-]+'; script-src 'nonce-[\w-]+'$/);
});
