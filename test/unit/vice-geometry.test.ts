// Where the picture is in a VICE display capture: the built-in answers DISPLAY_GET as x64sc r46200 does
// (inner area drawn at buffer row 50, Y offset reported as 51), and the client takes the rows from the buffer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { MonitorClient } from '../../src/connectors/vice/monitor-client.js';
import { ViceTarget } from '../../src/connectors/vice/vice-target.js';
import { drawnGeometry, visibleFrame } from '../../src/connectors/vice/vice-capture.js';

let server: BuiltinMonitorServer;
let target: ViceTarget;

before(async () => {
  server = new BuiltinMonitorServer();
  target = await ViceTarget.open(MonitorClient.over(server.connectInProcess()), { kind: 'builtin' });
});

after(async () => {
  await target?.close();
});

const row = (pixels: Uint8Array, width: number, y: number, x = 0, w = width) =>
  new Set(pixels.subarray(y * width + x, y * width + x + w));

test('the built-in reports Y offset 51 but draws the inner area at row 50; the geometry comes from the buffer', async () => {
  const vic = server.machine.bus.vic;
  vic[0x20] = 14; // light blue border
  vic[0x21] = 6; // blue background
  server.machine.bus.ram.fill(0x20, 0x0400, 0x0400 + 1000); // blank screen: background only
  const frame = await target.vice.capture();
  assert.equal(frame.innerY, 51, 'as VICE reports it');
  const g = drawnGeometry(frame);
  assert.equal(g.from, 'buffer');
  assert.deepEqual(g.inner, { x: 136, y: 50, width: 320, height: 200 });
  assert.deepEqual(g.visible, { x: 104, y: 15, width: 384, height: 272 });
  assert.deepEqual(
    row(frame.pixels, frame.width, 49, 136, 320),
    new Set([14]),
    'the row above the inner area is border',
  );
  assert.deepEqual(row(frame.pixels, frame.width, 50, 136, 320), new Set([6]), 'the inner area starts at row 50');
  assert.deepEqual(row(frame.pixels, frame.width, 249, 136, 320), new Set([6]), 'and ends at row 249');
  assert.deepEqual(row(frame.pixels, frame.width, 14, 104, 384), new Set([0]), 'above the visible window is 0');
  const v = visibleFrame(frame);
  assert.deepEqual([v.width, v.height, v.inner.y], [384, 272, 35]);
  assert.deepEqual(row(v.pixels, v.width, 0), new Set([14]), 'the first visible row is border, not the 0 above');
  assert.deepEqual(row(v.pixels, v.width, 271), new Set([14]), 'the last visible row is border');
  assert.deepEqual(row(v.pixels, v.width, 35 + 199, 32, 320), new Set([6]), "the inner crop's last row is screen");
});

test('a black border cannot be found in the buffer: the report is taken one row up', async () => {
  server.machine.bus.vic[0x20] = 0;
  const frame = await target.vice.capture();
  const g = drawnGeometry(frame);
  assert.equal(g.from, 'report');
  assert.equal(g.inner.y, 50);
});
