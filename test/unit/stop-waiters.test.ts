/**
 * A session stopped while a C step's leg still awaits the emulator's run command rejects the leg's armed stop
 * before the leg awaits it (the Sprinter soak's server died of that unhandled rejection at session 17): the
 * rejection must not be unhandled, and the leg awaiting it later still gets the error.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { targetLost } from '../../src/core/errors.js';
import { StopWaiters } from '../../src/session/stop-waiters.js';

test('a stop armed, then rejected before anyone awaits it, is no unhandled rejection and still rejects', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const waiters = new StopWaiters();
    const armed = waiters.arm(10_000);
    waiters.rejectAll(targetLost('The session ended: stopped by request.'));
    // the leg is still awaiting its run command: let the event loop turn as an emulator round trip does
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(unhandled, []);
    await assert.rejects(armed, /The session ended: stopped by request/);
    assert.equal(waiters.pending, false);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
