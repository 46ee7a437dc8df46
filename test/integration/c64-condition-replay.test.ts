// A host-side condition on a cc65 local reads cc65's C stack pointer, then the local at an offset from it. From the
// second hit at a place the session asks for both at once (the last hit's reads replayed, read-replay.ts), so the
// wire carries the two reads back to back, then the resume: 2 round trips a false hit, counted as flights on the
// monitor's wire. The values are read at each hit: where the C stack moved (a recursion), the replayed address
// misses, the local is read again, and the condition still sees this hit's value. With X64SC naming a real x64sc
// the same runs there.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { buildCc65Program, findMarkers, REPO_ROOT, type C64Fixture } from '../support/c64-fixture.js';
import { watchTarget } from '../support/target-traffic.js';

const X64SC = process.env.X64SC;
const READ = 'vice.0x1';
const EXIT = 'vice.0xaa';

for (const emulator of ['builtin', ...(X64SC ? ['vice' as const] : [])] as const) {
  describe(emulator, () => {
    let manager: SessionManager;
    let dap: ClientSession;
    let markers: C64Fixture['markers'];

    before(async () => {
      const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'locals'), ['locals.c']);
      markers = await findMarkers([join(dir, 'locals.c')]);
      manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 5000 });
      dap = manager.start(
        {
          machine: 'c64',
          emulator,
          program: join(dir, 'program.prg'),
          cwd: dir,
          ...(emulator === 'vice' ? { vicePath: X64SC } : {}),
        },
        { kind: 'dap', label: `VS Code debug session (${emulator})` },
      );
      setInterval(() => dap.beat(), 300).unref();
      await dap.session.waitForStop(60_000);
    });

    after(async () => {
      await manager?.closeAll();
    });

    /** Resumes until the breakpoint on `marker` with `condition` stops; the wire's flights meanwhile. */
    const runTo = async (marker: string, condition: string) => {
      const at = markers[marker];
      const bp = await dap.setLineBreakpoint(at.file, at.line, condition);
      assert.equal(bp.verified, true, bp.message);
      assert.match(bp.condition_host ?? '', /lives in a stack frame/);
      const traffic = watchTarget(dap.session);
      await dap.resume();
      const status = await dap.session.waitForStop(30_000);
      traffic.stop();
      assert.deepEqual(status.last_stop?.breakpoint_ids, [bp.id]);
      const { hit_count } = dap.session.listBreakpoints().find((b) => b.id === bp.id)!;
      return { bp, flights: traffic.flights, stops: traffic.stops, hit_count };
    };
    const value = async (name: string) => (await dap.session.readVariable(name)).numeric;

    test(`${emulator}: where the C stack moved between hits, the replayed read misses and the local is read at this hit`, async () => {
      // nest(4) returns from depth 0 first: d is 0, 1, 2 (false), then 3, each at another C stack address
      const { bp, flights, stops, hit_count } = await runTo('nest_return', 'd == 3');
      assert.equal(await value('d'), 3, 'stopped where d is 3, not where the replayed address held 3');
      assert.equal(hit_count, 1);
      assert.equal(stops, 4);
      // the first hit reads the stack pointer, then d; later ones replay both (the old d missing) and read d again
      const replayed = [[READ, READ], [READ]];
      assert.deepEqual(
        flights,
        [[EXIT], [READ], [READ], [EXIT], ...replayed, [EXIT], ...replayed, [EXIT], ...replayed],
        JSON.stringify(flights),
      );
      await dap.clearBreakpoint(bp.id);
    });

    test(`${emulator}: from the second false hit at a place, its reads go back to back, then the resume: 2 round trips`, async () => {
      // step's y is 1, 2, 3, 4 (false), then 5; at the same depth each time, so the replayed reads serve it
      const { bp, flights, stops, hit_count } = await runTo('step_return', 'y == 5');
      assert.equal(await value('y'), 5);
      assert.equal(hit_count, 1);
      assert.equal(stops, 5);
      const falseHit = [[READ, READ], [EXIT]];
      assert.deepEqual(
        flights,
        [[EXIT], [READ], [READ], [EXIT], ...falseHit, ...falseHit, ...falseHit, [READ, READ]],
        JSON.stringify(flights),
      );
      await dap.clearBreakpoint(bp.id);
    });
  });
}
