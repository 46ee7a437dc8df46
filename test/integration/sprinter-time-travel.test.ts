// Time travel on the real Sprinter (MAME's `sprinter` driver, the project's open ROM, the SDCC fixture as a DSS .EXE):
// Step Back two C lines lands where a forward run was, with the same registers and 64 KiB; Reverse Continue goes back
// to the previous breakpoint hit; last_write names the C line that wrote the global `total` and the session shows the
// moment after it (in the past, writes refused); stepping back past the start of the history is refused and the
// session stays where it was.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientSession } from '../../src/session/client-session.js';
import {
  findLastWrite,
  granularityNote,
  reverseContinue,
  stepBackTarget,
  timeTravel,
  travelTo,
} from '../../src/session/time-travel.js';
import { timelineMessage } from '../../src/ui/panel-timeline.js';
import { buildSprinterFixture, type SprinterFixture } from '../support/sprinter-fixture.js';
import * as travel from '../support/mame-travel-session.js';

let fx: SprinterFixture;
let session: travel.TravelSession | undefined;
let me: ClientSession;

const machineHash = () => travel.machineHash(me);
const where = () => travel.where(me);
const lineWhere = () => travel.lineWhere(me);
const num = async (expression: string) => (await me.session.readVariable(expression)).numeric!;
const stopAfter = (move: () => Promise<unknown>) => travel.stopAfter(me, move);

before(async () => {
  fx = await buildSprinterFixture();
  session = await travel.openTravelSession(
    { machine: 'sprinter', emulator: 'mame', program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir },
    'sprinter time travel',
  );
  me = session.me;
  const loop = fx.markers.loop;
  const bp = await me.setLineBreakpoint(loop.file, loop.line);
  assert.equal(bp.verified, true, bp.message);
  await stopAfter(() => me.resume()); // i == 1
  await stopAfter(() => me.resume()); // i == 2
  await me.clearBreakpoint(bp.id);
});

after(() => session?.close());

test('two C lines back equal a forward run there; Reverse Continue returns to the breakpoint hit', async () => {
  const loop = fx.markers.loop;
  const atHit = { where: await where(), hash: await machineHash() };
  assert.deepEqual(await lineWhere(), { line: loop.line, inPast: false });
  assert.equal(await num('i'), 2);
  const bp = await me.setLineBreakpoint(loop.file, loop.line);
  const forward: { line?: number; hash: string }[] = [];
  for (let n = 0; n < 3; n++) {
    await stopAfter(() => me.stepOver('line'));
    forward.push({ line: (await where()).line, hash: await machineHash() });
  }
  // the loop's lines: its test (with i++), its body, its test again
  assert.deepEqual(
    forward.map((f) => f.line),
    [loop.line - 1, loop.line, loop.line - 1],
  );
  assert.deepEqual([await num('i'), await num('total')], [3, 1 + 4 + 9], 'at the test, before i++');

  const oneBack = await stepBackTarget(me.session, 'line');
  // the walk's replays leave the machine at the present as it was (a replay up to it stays there, no state loaded)
  assert.equal(await machineHash(), forward[2].hash, 'the walk leaves the present as it was');
  await stopAfter(() => travelTo(me, oneBack));
  assert.deepEqual(await lineWhere(), { line: forward[1].line, inPast: true }, 'one C line back, in the past');
  assert.match(granularityNote(me.session), /^Time travel granularity here: MAME .*save state/);
  assert.equal(await machineHash(), forward[1].hash, 'registers and 64 KiB as the forward run had them there');
  await stopAfter(async () => travelTo(me, await stepBackTarget(me.session, 'line')));
  assert.deepEqual(await lineWhere(), { line: forward[0].line, inPast: true }, 'two C lines back');
  assert.equal(await machineHash(), forward[0].hash);
  assert.deepEqual([await num('i'), await num('total')], [2, 1 + 4], 'the variables as they were');

  const { hit } = await reverseContinue(me);
  assert.equal(hit, true, 'a breakpoint hit is recorded before');
  assert.deepEqual(await where(), { ...atHit.where, inPast: true });
  assert.equal(await machineHash(), atHit.hash, 'the breakpoint hit as it was');
  assert.deepEqual([await num('i'), await num('total')], [2, 1]);
  await me.clearBreakpoint(bp.id);

  await stopAfter(() => travelTo(me, timeTravel(me.session).span().endCycle));
  assert.equal((await where()).inPast, false);
  assert.equal(await machineHash(), forward[2].hash, 'back in the present exactly');
});

test('last_write finds the C line that added to total and shows the moment after it, read-only', async () => {
  const { address, length } = await me.session.locateLvalue('total');
  assert.equal(length, 2);
  const found = await findLastWrite(me.session, address, length);
  assert.equal(found.location?.line, fx.markers.loop.line, JSON.stringify(found));
  assert.equal(found.location?.function, 'main');
  assert.ok(found.address === address || found.address === address + 1);
  await stopAfter(() => travelTo(me, found.cycle));
  assert.equal((await where()).inPast, true);
  const [byte] = await me.session.readMemory({ space: 'cpu', offset: found.address }, 1);
  assert.equal(byte, found.value, 'the byte holds the written value after the write');
  assert.equal(await num('total'), 1 + 4 + 9, 'square(3) added: the last write of the loop so far');
  await assert.rejects(
    me.writeMemory({ space: 'cpu', offset: found.address }, Uint8Array.of(0)),
    (e: Error & { code?: string }) => e.code === 'bad_request' && /past/.test(e.message),
  );
  await stopAfter(() => travelTo(me, timeTravel(me.session).span().endCycle));
  assert.equal((await where()).inPast, false);
});

test('stepping back past the start of the history is refused and the session stays', () =>
  travel.checkHistoryStartRefused(me, 'line'));

test('a moment the screen cannot be redrawn at is refused with a typed error; back at the present, its picture', async () => {
  const present = await me.session.screenshot();
  // the history's first state: MAME keeps no picture in a state, and no state before it could redraw one
  await stopAfter(() => travelTo(me, timeTravel(me.session).span().startCycle));
  await assert.rejects(me.session.screenshot(), { code: 'unsupported', message: /no state 3 frames before it/ });
  assert.match(
    (await timelineMessage(me.session)).noPicture ?? '',
    /cannot be shown as it was/,
    "the panel's note says so",
  );
  await stopAfter(() => travelTo(me, timeTravel(me.session).span().endCycle));
  assert.deepEqual((await me.session.screenshot()).rgba, present.rgba, "the present's picture exactly");
  assert.equal((await timelineMessage(me.session)).noPicture, undefined);
});
