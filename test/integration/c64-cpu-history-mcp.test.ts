// cpu_history over MCP on the built-in C64 (the cc65 game loop): the instructions it lists are the ones the machine
// ran, checked against 12 single-instruction steps taken before asking (each stop's PC, A, X, Y, SP, flags and
// cycle equal the history's item for that instruction), each with its C line; nothing moves; a session with the
// history off answers `unsupported` saying why, and a bad count is refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openC64Mcp, type C64Mcp } from '../support/c64-mcp.js';
import { REPO_ROOT, buildCc65Program, findMarkers } from '../support/c64-fixture.js';
import { call, callExpectingError, callRaw, waitUntilReady } from '../mcp/mcp-helpers.js';

let mcp: C64Mcp | undefined;
let agent: Client;
let dir: string;
let markers: Awaited<ReturnType<typeof findMarkers>>;

before(async () => {
  dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'history'), ['game.c']);
  markers = await findMarkers([join(dir, 'game.c')]);
  mcp = await openC64Mcp(mkdtempSync(join(tmpdir(), 'c64-chis-')), 'chis-agent');
  agent = mcp.agent;
});

after(() => mcp?.close());

type Item = { cycle: number; pc: number; a: number; x: number; y: number; sp: number; flags: number; text: string };

test('cpu_history lists the instructions the machine ran, with their registers and C lines', async () => {
  const started = await call(agent, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: join(dir, 'program.prg'),
    cwd: dir,
  });
  await waitUntilReady(agent, started.session_id, 60_000);
  await call(agent, 'set_breakpoint', { file: 'game.c', line: markers.trail.line });
  const hit = await call(agent, 'resume', { wait: true, timeout_ms: 45_000 });
  assert.equal(hit.location.line, markers.trail.line);

  // the machine as each of 12 instructions was about to run: registers and the cycle (history's "now")
  const seen: Omit<Item, 'text'>[] = [];
  for (let i = 0; i < 12; i++) {
    const regs = new Map<string, number>(
      (await call(agent, 'read_registers', {})).registers.map((r: { name: string; value: number }) => [
        r.name,
        r.value,
      ]),
    );
    const cycle = (await call(agent, 'history', {})).now.cycle as number;
    const [pc, a, x, y, sp, flags] = ['PC', 'A', 'X', 'Y', 'SP', 'FL'].map((n) => regs.get(n)!);
    seen.push({ cycle, pc, a, x, y, sp, flags });
    await call(agent, 'step', { kind: 'into', granularity: 'instruction', wait: true });
  }
  const before = await call(agent, 'read_registers', {});
  const got = await call(agent, 'cpu_history', { count: 12 });
  assert.match(got.source, /built-in C64's recorded history/);
  const items = got.instructions as (Item & { location?: { file: string; line: number } })[];
  assert.equal(items.length, 12);
  items.forEach((it, i) => {
    const { text: _text, location: _location, ...values } = it;
    assert.deepEqual(values, seen[i], `instruction ${i}: ${it.text}`);
  });
  assert.match(items[0].text, /^[A-Z]{3}\b/, 'decoded as 6502 text');
  assert.equal(items[0].location?.line, markers.trail.line, 'the first one is on the breakpoint line');
  assert.ok(got.lines.length >= 1 && got.lines[0].location.line === markers.trail.line);
  assert.equal(
    got.lines.reduce((n: number, r: { instructions: number }) => n + r.instructions, 0),
    12,
    'the runs of C lines cover every instruction',
  );
  assert.deepEqual(await call(agent, 'read_registers', {}), before, 'nothing moved');

  // further back than the steps: the instructions before the breakpoint, oldest first
  const more = (await call(agent, 'cpu_history', { count: 2000 })).instructions as Item[];
  assert.equal(more.length, 2000);
  assert.deepEqual(more.slice(-12), items);
  for (let i = 1; i < more.length; i++) assert.ok(more[i].cycle > more[i - 1].cycle);
  const zero = await callRaw(agent, 'cpu_history', { count: 0 });
  assert.equal(zero.isError, true);
  assert.match(JSON.stringify(zero.content), /count/);
  await call(agent, 'stop_session', {});
});

test('cpu_history with the history off is unsupported and says why', async () => {
  const started = await call(agent, 'start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program: join(dir, 'program.prg'),
    cwd: dir,
    history: { seconds: 60, maxMegabytes: 0 },
  });
  await waitUntilReady(agent, started.session_id, 60_000);
  const err = await callExpectingError(agent, 'cpu_history', { count: 10 }, 'unsupported');
  assert.match(err.message, /keeps no history in this session.*history\.maxMegabytes/);
  await call(agent, 'stop_session', {});
});
