// Every mutating tool refuses a stale generation with the current one in the error — breakpoints, watchpoints and
// the C64 symbol profile too (they accepted any before), on the built-in C64 — and takes the current one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { ToolDriver } from '../support/dos-fixture.js';

const d = new ToolDriver();
let fx: C64Fixture;
let session_id: string;
let current: number;

before(async () => {
  fx = await buildC64Fixture();
  const started = await d.call('start_session', { machine: 'c64', emulator: 'builtin', program: fx.prg, wait: true });
  session_id = started.session_id as string;
  current = started.generation as number;
});
after(() => d.close());

// in this order: each clear_ removes what the set_ before it made (breakpoints and watchpoints share one numbering)
const calls: [string, () => Record<string, unknown>][] = [
  ['set_breakpoint', () => ({ function: 'main' })],
  ['clear_breakpoint', () => ({ id: 1 })],
  ['set_watchpoint', () => ({ variable: 'counter' })],
  ['clear_watchpoint', () => ({ id: 2 })],
  ['apply_c64_symbol_profile', () => ({ dry_run: false })],
];

for (const [tool, args] of calls) {
  test(`${tool} refuses a stale generation, naming the current one, and takes the current`, async () => {
    const stale = await d.fail(tool, { session_id, ...args(), generation: current + 7 });
    assert.equal(stale.code, 'stale_generation');
    assert.match(stale.message, new RegExp(`\\b${current}\\b`));
    const done = await d.call(tool, { session_id, ...args(), generation: current });
    assert.equal(done.generation, current);
  });
}
