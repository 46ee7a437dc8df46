// pause on a machine that is already stopped answers at once with where it is (it blocked the full wait, 10 s,
// and answered timed_out), on the built-in C64 and MAME; the lease and generation are still checked.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildC64Fixture } from '../support/c64-fixture.js';
import { buildZxFixture } from '../support/zx-fixture.js';
import { ToolDriver } from '../support/dos-fixture.js';

const d = new ToolDriver();
after(() => d.close());

for (const machine of ['c64', 'spectrum'] as const) {
  test(`${machine}: pause while stopped answers at once, not timed out; a stale generation is still refused`, async () => {
    const program =
      machine === 'c64'
        ? { emulator: 'builtin', program: (await buildC64Fixture()).prg }
        : { emulator: 'mame', program: (await buildZxFixture()).rom };
    const started = await d.call('start_session', { machine, ...program, wait: true });
    const session_id = started.session_id as string;
    try {
      const paused = await d.call('pause', { session_id });
      assert.equal(paused.timed_out, false);
      assert.equal(paused.state, 'stopped');
      assert.equal(paused.location?.function, 'main');
      const stale = await d.fail('pause', { session_id, generation: (paused.generation as number) - 1 });
      assert.equal(stale.code, 'stale_generation');
    } finally {
      await d.call('stop_session', { session_id });
    }
  });
}
