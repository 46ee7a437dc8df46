/**
 * Launches that cannot work answer with an error response a person can act
 * on, and the adapter process keeps answering afterwards.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildZxFixture, REPO_ROOT, type ZxFixture } from '../support/zx-fixture.js';
import { RecordingClient } from './dap-client.js';
import { freshBundle } from '../support/bundle.js';

let fx: ZxFixture;
let dc: RecordingClient;
const WORK = join(REPO_ROOT, '.test-work', `dap-bad-input-${process.pid}`);

before(async () => {
  freshBundle();
  fx = await buildZxFixture();
  mkdirSync(WORK, { recursive: true });
  dc = new RecordingClient();
  await dc.start();
  await dc.initialize();
});

after(async () => {
  await dc?.stop();
  rmSync(WORK, { recursive: true, force: true });
});

function base(): Record<string, unknown> {
  return { machine: 'spectrum', emulator: 'mame', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir, stopOnEntry: true };
}

async function launchError(args: Record<string, unknown>): Promise<string> {
  try {
    await dc.launchAndConfigure(args);
  } catch (err) {
    console.log(`    launch refused: ${(err as Error).message}`);
    return (err as Error).message;
  }
  assert.fail('launch should have failed');
}

async function assertStillAnswering(): Promise<void> {
  const threads = await dc.threadsRequest();
  assert.deepEqual(threads.body.threads, [{ id: 1, name: 'CPU' }]);
  await assert.rejects(dc.evaluateRequest({ expression: 'counter', context: 'watch' }), /No emulator session/);
}

test('a missing MAME executable is named in the error', async () => {
  const message = await launchError({ ...base(), mamePath: '/nonexistent/bin/mame' });
  assert.match(message, /\/nonexistent\/bin\/mame/);
  await assertStillAnswering();
});

test('a missing program is named in the error', async () => {
  const message = await launchError({ ...base(), program: join(WORK, 'no-such-program.rom') });
  assert.match(message, /no-such-program\.rom/);
  await assertStillAnswering();
});

test('a broken .cdb is reported as unreadable debug info', async () => {
  const cdb = join(WORK, 'broken.cdb');
  writeFileSync(cdb, 'M:main\nS:G$x$0_0$0({2}SI:S),bogus\nL:garbage\n\u0000\u0001\n');
  const message = await launchError({ ...base(), debugInfo: cdb });
  assert.match(message, /broken\.cdb/);
  await assertStillAnswering();
});

test('launch arguments of the wrong shape are refused before anything starts', async () => {
  assert.match(await launchError({ emulator: 'mame', program: fx.rom }), /"machine"/);
  assert.match(
    await launchError({ ...base(), emulator: 'vice' }),
    /Emulator "vice" is not supported for machine "spectrum"; it runs machine "c64"/,
  );
  assert.match(await launchError({ ...base(), emulator: 'atari2600' }), /not supported/);
  await assertStillAnswering();
});
