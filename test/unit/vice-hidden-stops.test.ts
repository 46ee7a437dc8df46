// Overlapping hidden stops on a VICE connection (the built-in C64 over loopback TCP, as a real x64sc): reads and captures
// that overlap while the machine runs are counted, not raced — none is refused with not_stopped,
// the machine runs on afterwards, and a pause during them is kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { MonitorClient } from '../../src/connectors/vice/monitor-client.js';
import { ViceTarget } from '../../src/connectors/vice/vice-target.js';
import type { TargetEvent } from '../../src/core/target.js';

let server: BuiltinMonitorServer;
let target: ViceTarget;
const events: TargetEvent[] = [];

before(async () => {
  server = new BuiltinMonitorServer();
  const port = await server.listen();
  target = await ViceTarget.open(await MonitorClient.connect('127.0.0.1', port), { kind: 'vice' });
  target.events.on((e) => events.push(e));
  await target.run.resume();
});

after(async () => {
  await target?.close();
  await server?.close();
});

test('overlapping captures and reads while running: none refused, the machine runs on', async () => {
  const work: Promise<unknown>[] = [];
  const captures: Promise<{ maybeStale: boolean }>[] = [];
  for (let i = 0; i < 40; i++) {
    // a read whose stop ends (and resumed the machine, before) while the capture's PING is on its way
    work.push(target.memory.read({ space: 'cpu', offset: 0x0400 + i }, 16));
    captures.push(target.screen.capture());
    if (i % 3 === 0) work.push(target.run.registers());
    // staggered, so some start while an earlier one's stop is ending (the old race: the first to finish resumed)
    await new Promise((r) => (i % 2 ? setImmediate(r) : setTimeout(r, 1)));
  }
  const results = await Promise.allSettled([...captures, ...work]);
  const refused = results.filter((r) => r.status === 'rejected');
  assert.deepEqual(
    refused.map((r) => (r as PromiseRejectedResult).reason.code),
    [],
    'no capture or read is refused',
  );
  for (const shot of await Promise.all(captures)) assert.equal(shot.maybeStale, false, 'taken while running');
  assert.equal((await target.status()).state, 'running');
  assert.equal(server.isRunning, true, 'the last hidden stop resumed the machine');
  assert.ok(!events.some((e) => e.type === 'stopped'), 'no stop was reported to clients');
});

test('a pause while hidden stops are under way is kept: the machine stays stopped and the stop is told once', async () => {
  events.length = 0;
  const reads = [0, 1, 2, 3].map((i) => target.memory.read({ space: 'cpu', offset: 0x1000 * i }, 256));
  const pause = target.run.pause();
  const more = [4, 5].map((i) => target.screen.capture().then(() => i));
  await Promise.all([...reads, pause, ...more]);
  for (let i = 0; i < 20 && !events.some((e) => e.type === 'stopped'); i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal((await target.status()).state, 'stopped');
  assert.equal(server.isRunning, false);
  const stops = events.filter((e) => e.type === 'stopped');
  assert.equal(stops.length, 1);
  assert.equal(stops[0].type === 'stopped' && stops[0].stop.reason, 'pause');
  await target.run.resume();
  assert.equal(server.isRunning, true);
});
