// Watchpoints as a C feature, live on the built-in C64 (cc65) and MAME spectrum (SDCC), through the MCP tools of
// the default profile: set by a C lvalue (`lives`; `scores[8]` is the same byte) or an address; each stop names
// the writing instruction (not the next one), its C line and function, the access, and old → new; a `change`
// watch passes over a write of the same value (refill()) and stops at the off-by-one's `scores[i] = …`.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolDriver } from '../support/dos-fixture.js';
import { buildWatchC64, buildWatchZx, type WatchFixture } from '../support/watch-fixture.js';

interface Hit {
  id: number;
  expression?: string;
  access: string;
  access_pc?: number;
  location?: { file: string; line: number; function?: string };
  old?: string;
  new?: string;
  changed: boolean;
}

/** The number a C value shows first: an unsigned char is `3`, or `0 '\0'` with its character. */
const num = (value?: string) => (value === undefined ? undefined : /^\d+/.exec(value)?.[0]);

const MACHINES: [string, () => Promise<WatchFixture>, Record<string, unknown>][] = [
  ['c64', buildWatchC64, { machine: 'c64', emulator: 'builtin' }],
  ['spectrum', buildWatchZx, { machine: 'spectrum', emulator: 'mame' }],
];

for (const [name, build, launch] of MACHINES)
  describe(`watchpoints on ${name}`, () => {
    const d = new ToolDriver();
    after(() => d.close());

    const start = async (fx: WatchFixture) => {
      const started = await d.call('start_session', { ...launch, program: fx.program, wait: true });
      const session_id = started.session_id as string;
      await d.call('claim_control', { session_id });
      return session_id;
    };
    const stopOf = async (session_id: string) => {
      const raw = await d.raw('resume', { session_id, wait: true, timeout_ms: 30_000 });
      const r = raw.structuredContent as Record<string, any>;
      assert.equal(r.stop?.reason, 'watchpoint', JSON.stringify(r));
      return { hits: r.stop.watch as Hit[], text: (raw.content[0] as { text: string }).text };
    };
    const lineOf = (fx: WatchFixture, marker: string) => fx.markers[marker].line;

    test('a write watch on `lives`: every write, by its own line and function, old → new; scores[8] is lives', async () => {
      const fx = await build();
      const session_id = await start(fx);
      try {
        const lives = (await d.call('evaluate', { session_id, expression: '&lives' })).result.numeric;
        const past = (await d.call('evaluate', { session_id, expression: '&scores[8]' })).result.numeric;
        assert.equal(past, lives, 'the compiler put lives right after scores[]');
        const set = await d.call('set_watchpoint', { session_id, variable: 'scores[8]' });
        assert.deepEqual([set.watchpoint.address.offset, set.watchpoint.length], [lives, 1]);
        await d.call('clear_breakpoint', { session_id, id: set.watchpoint.id });
        const wp = (await d.call('set_watchpoint', { session_id, variable: 'lives', kind: 'write' })).watchpoint;
        assert.equal(wp.kind, 'write');

        const expected: [string, string, string, string, boolean][] = [
          ['lives_init', 'main', '0', '3', true],
          ['refill', 'refill', '3', '3', false],
          ['scores_write', 'clear_scores', '3', '9', true],
        ];
        for (const [marker, fn, before, now, changed] of expected) {
          const { hits } = await stopOf(session_id);
          assert.equal(hits.length, 1, JSON.stringify(hits));
          const [h] = hits;
          assert.deepEqual(
            [h.id, h.expression, h.access, h.location?.line, h.location?.function, num(h.old), num(h.new), h.changed],
            [wp.id, 'lives', 'write', lineOf(fx, marker), fn, before, now, changed],
            `${marker}: ${JSON.stringify(h)}`,
          );
          assert.ok(h.access_pc !== undefined, 'the accessing instruction is named');
        }
        const listed = await d.call('list_breakpoints', { session_id });
        assert.equal(listed.watchpoints[0].hit_count, 3);
        await d.call('clear_breakpoint', { session_id, id: wp.id });
        assert.deepEqual((await d.call('list_breakpoints', { session_id })).watchpoints, []);
      } finally {
        await d.call('stop_session', { session_id });
      }
    });

    if (name === 'spectrum')
      test("two locals in one register: each shown only where the register holds it, never the other's value", async () => {
        const fx = await build();
        const session_id = await start(fx);
        const localsAt = async (marker: string) => {
          const bp = await d.call('set_breakpoint', { session_id, file: 'lives.c', line: lineOf(fx, marker) });
          const r = await d.call('resume', { session_id, wait: true, timeout_ms: 30_000 });
          assert.equal(r.stop?.reason, 'breakpoint', JSON.stringify(r));
          await d.call('clear_breakpoint', { session_id, id: bp.breakpoint.id });
          const vars = (await d.call('list_variables', { session_id })).variables as { name: string; value: string }[];
          return Object.fromEntries(vars.map((v) => [v.name, v.value]));
        };
        try {
          // cell_at(1, 2): row arrives in A, col in L; cell = row * 8 + col goes into C
          const def = await localsAt('cell_def');
          assert.deepEqual([num(def.row), num(def.col)], ['1', '2'], JSON.stringify(def));
          assert.match(def.cell, /^<not available here: C holds another value>$/);
          const use = await localsAt('cell_use');
          assert.deepEqual([num(use.cell), num(use.col)], ['10', '2'], JSON.stringify(use));
          assert.match(use.row, /^<not available here: C holds cell>$/, 'row is not shown with cell’s 10');
          const err = await d.fail('evaluate', { session_id, expression: 'row + 1' });
          assert.match(err.message, /`row` is not available here: C holds cell/);
        } finally {
          await d.call('stop_session', { session_id });
        }
      });

    test('a change watch (by C name, and by address) passes over a write of the same value', async () => {
      const fx = await build();
      const session_id = await start(fx);
      try {
        const byName = (await d.call('set_watchpoint', { session_id, variable: 'lives', kind: 'change' })).watchpoint;
        assert.equal(byName.kind, 'change');
        let { hits, text } = await stopOf(session_id);
        assert.deepEqual(
          hits.map((h) => [h.id, h.location?.line, num(h.old), num(h.new)]),
          [[byName.id, lineOf(fx, 'lives_init'), '0', '3']],
        );
        // refill() writes 3 over 3: no stop; the next is the off-by-one
        ({ hits, text } = await stopOf(session_id));
        assert.deepEqual(
          hits.map((h) => [h.id, h.location?.line, h.location?.function, num(h.old), num(h.new)]),
          [[byName.id, lineOf(fx, 'scores_write'), 'clear_scores', '3', '9']],
        );
        assert.match(
          text,
          new RegExp(
            `^Watchpoint ${byName.id} \\(lives\\): 3 → 9( '[^']*')? by the write at 0x[0-9A-F]{4} in clear_scores at lives\\.c:${lineOf(fx, 'scores_write')}\\. Stopped in`,
          ),
        );
        await d.call('clear_breakpoint', { session_id, id: byName.id });
        assert.equal(num((await d.call('evaluate', { session_id, expression: 'lives' })).result.value), '9');
      } finally {
        await d.call('stop_session', { session_id });
      }
      // by address: no C type, so the values are bytes
      const again = await start(fx);
      try {
        const lives = (await d.call('evaluate', { session_id: again, expression: '&lives' })).result.numeric;
        const byAddress = await d.call('set_watchpoint', { session_id: again, address: lives, kind: 'change' });
        await stopOf(again);
        const { hits } = await stopOf(again);
        assert.deepEqual(
          hits.map((h) => [h.location?.line, h.old, h.new]),
          [[lineOf(fx, 'scores_write'), '03', '09']],
        );
        await d.call('clear_breakpoint', { session_id: again, id: byAddress.watchpoint.id });
      } finally {
        await d.call('stop_session', { session_id: again });
      }
    });
  });
