// Step into while four other clients set and clear breakpoints back to back, on the built-in C64 through its VICE
// monitor (issue 30: the step never ended — each change while the machine ran was a hidden stop and a resume, and
// the setters kept the machine stopped for their commands, 10,000 hidden stops at one PC in 5 s). Every step must
// reach its stop; every setter's breakpoint is armed and cleared (none lost, none left over); resume works after.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { SessionManager } from '../../src/session/manager.js';
import type { ClientSession } from '../../src/session/types.js';
import { buildCc65Program, findMarkers, REPO_ROOT } from '../support/c64-fixture.js';

const STEPS = 40;
let manager: SessionManager;
let stepper: ClientSession;
let setters: ClientSession[];
let markers: Awaited<ReturnType<typeof findMarkers>>;

before(async () => {
  const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'frames'), ['frames.c']);
  markers = await findMarkers([join(dir, 'frames.c')]);
  manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 60_000 });
  stepper = manager.start(
    { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), cwd: dir },
    { kind: 'dap', label: 'stepper' },
  );
  await stepper.whenReady(60_000);
  setters = [1, 2, 3, 4].map((k) => stepper.session.attach('mcp', `setter ${k}`));
});

after(() => manager?.closeAll());

test(`${STEPS} steps into each reach their stop while 4 other clients set and clear breakpoints`, async () => {
  const bp = await stepper.setLineBreakpoint('frames.c', markers.store_call.line);
  await stepper.nextStop(30_000, () => stepper.resume());
  await stepper.clearBreakpoint(bp.id);
  let churning = true;
  let changes = 0;
  // two setters share each line: one emulator breakpoint behind two owners' breakpoints
  const lines = [markers.twice_body.line, markers.add3_body.line];
  const churn = setters.map(async (s, k) => {
    while (churning) {
      const b = await s.setLineBreakpoint('frames.c', lines[k % 2]);
      assert.equal(b.verified, true, b.message);
      await s.clearBreakpoint(b.id);
      changes += 2;
      await new Promise((r) => setImmediate(r));
    }
  });
  const places = new Set<number>();
  for (let i = 0; i < STEPS; i++) {
    const st = await stepper.nextStop(10_000, () => stepper.stepInto());
    assert.equal(st.state, 'stopped', `step ${i}`);
    // a setter's breakpoint armed between steps may be where a step stops: that is its stop too
    assert.ok(['step', 'breakpoint'].includes(st.last_stop!.reason), `step ${i}: ${JSON.stringify(st.last_stop)}`);
    places.add(st.pc!);
  }
  churning = false;
  await Promise.all(churn);
  assert.ok(changes >= STEPS, `the setters kept changing breakpoints meanwhile: ${changes} changes`);
  assert.ok(places.size >= 3, 'the steps moved through the program');
  assert.deepEqual(stepper.session.listBreakpoints(), [], 'every breakpoint set was cleared');
  await stepper.resume();
  assert.equal((await stepper.session.status()).state, 'running');
});
