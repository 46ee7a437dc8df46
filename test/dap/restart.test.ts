/**
 * VS Code's Restart button (DAP restart) on the built-in C64, through the adapter bundle: the program is loaded
 * again and stops at main (reason entry), the views are invalidated, and the breakpoints set before fire once each
 * afterwards, naming their own ids.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { RecordingClient } from './dap-client.js';
import { freshBundle } from '../support/bundle.js';

let fx: C64Fixture;
let dc: RecordingClient;

before(async () => {
  freshBundle();
  fx = await buildC64Fixture();
  dc = new RecordingClient();
  await dc.start();
});

after(async () => {
  await dc?.stop();
});

type Stopped = DebugProtocol.StoppedEvent;

async function stoppedAfter(action: () => Promise<unknown>): Promise<Stopped> {
  dc.drain('stopped');
  await action();
  return dc.next<Stopped>('stopped', 30_000);
}

test('restart: the program again, stopped at main; each breakpoint fires once after it', async () => {
  const { body } = await dc.initialize();
  assert.equal(body?.supportsRestartRequest, true);
  const ids: number[] = [];
  const entry = dc.next<Stopped>('stopped', 60_000);
  await dc.launchAndConfigure({ machine: 'c64', emulator: 'builtin', program: fx.prg, cwd: fx.dir }, async () => {
    const file = fx.markers.banner.file;
    const set = await dc.setBreakpointsRequest({
      source: { path: file },
      breakpoints: [{ line: fx.markers.banner.line }, { line: fx.markers.prompt.line }],
    });
    for (const b of set.body.breakpoints) {
      assert.equal(b.verified, true);
      ids.push(b.id!);
    }
  });
  assert.equal((await entry).body.reason, 'entry');
  const firstTurn = async (what: string) => {
    for (const id of ids) {
      const stop = await stoppedAfter(() => dc.continueRequest({ threadId: 1 }));
      assert.equal(stop.body.reason, 'breakpoint', what);
      assert.deepEqual(stop.body.hitBreakpointIds, [id], what);
    }
  };
  await firstTurn('before the restart');
  dc.drain('invalidated');
  const restarted = await stoppedAfter(() => dc.restartRequest({}));
  assert.equal(restarted.body.reason, 'entry');
  assert.equal((await dc.topFrame()).name, 'main');
  await dc.next('invalidated', 5_000);
  await firstTurn('after the restart');
});
