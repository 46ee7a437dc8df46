// The comparison harness: programs of our own run on the built-in C64 and,
// when X64SC names a real x64sc, on VICE for the same program; the figures
// a program prints are compared. Without X64SC the built-in is compared
// with the figures recorded once from a real x64sc 3.10 (trunk r46200,
// -default), kept here as data. Budgets are stated per program.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { screenText } from '../support/c64-screen.js';
import { runOn } from '../support/c64-compare.js';

const X64SC = process.env.X64SC;
/** loops of test/fixtures/c64/timing in 50 jiffies, printed by x64sc r46200 */
const VICE_TIMING_LOOPS = 1779;
/**
 * The budget: 1 % of VICE. Measured: 1779 of 1779 (the stolen cycles per raster line, the real IRQ
 * handler's cost, and RDTIM's real 33 cycles, which clock() calls in every pass).
 */
const TIMING_BUDGET = 0.01;

const manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 60_000 });
after(() => manager.closeAll());

async function printed(emulator: 'builtin' | 'vice', prg: string, pattern: RegExp): Promise<string> {
  return runOn(manager, emulator, prg, async (dap) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = (await screenText(dap.session)).map((r) => r.toLowerCase()).find((r) => pattern.test(r));
      if (found) return found;
      if (Date.now() > deadline) assert.fail(`${emulator}: nothing matching ${pattern} was printed`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
}

test('self-timing: loops per 50 jiffies within the budget of VICE', async () => {
  const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'timing'), ['timing.c']);
  const prg = join(dir, 'program.prg');
  const loops = (line: string) => Number(/loops (\d+)/.exec(line)![1]);
  const reference = X64SC ? loops(await printed('vice', prg, /loops \d+/)) : VICE_TIMING_LOOPS;
  const ours = loops(await printed('builtin', prg, /loops \d+/));
  const off = Math.abs(ours - reference) / reference;
  console.log(`timing: built-in ${ours} loops, VICE ${reference}`);
  assert.ok(off <= TIMING_BUDGET, `built-in ${ours} loops, VICE ${reference}: ${(off * 100).toFixed(1)} % off`);
});
