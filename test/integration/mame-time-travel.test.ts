// Time travel on real MAME (spectrum, the SDCC fixture): Step Back a C line lands on the line run before with the
// registers and 64 KiB a forward run had there; Reverse Continue goes back to the previous breakpoint hit; last_write
// names the C line that wrote a global and the session shows the moment after it (in the past, writes refused);
// stepping back past the start of the history is refused and the session stays where it was.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientSession } from '../../src/session/client-session.js';
import type { ScreenImage } from '../../src/core/target.js';
import {
  findLastWrite,
  reverseContinue,
  stepBackOutTarget,
  stepBackTarget,
  timeTravel,
  travelTo,
} from '../../src/session/time-travel.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import * as travel from '../support/mame-travel-session.js';

let fx: ZxFixture;
let session: travel.TravelSession | undefined;
let me: ClientSession;

const machineHash = () => travel.machineHash(me);
const where = () => travel.where(me);
const stopAfter = (move: () => Promise<unknown>) => travel.stopAfter(me, move);

before(async () => {
  fx = await buildZxFixture();
  session = await travel.openTravelSession(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir },
    'time-travel test',
  );
  me = session.me;
  const m = fx.markers.loop_body;
  await me.setLineBreakpoint(m.file, m.line);
  await stopAfter(() => me.resume());
  await stopAfter(() => me.resume());
});

after(() => session?.close());

test('Step Back a C line returns to the previous line as a forward run had it; Reverse Continue to the last hit', async () => {
  const atHit = { where: await where(), hash: await machineHash() };
  assert.equal(atHit.where.line, fx.markers.loop_body.line);
  const forward: { line?: number; hash: string }[] = [];
  for (let i = 0; i < 3; i++) {
    await stopAfter(() => me.stepOver('line'));
    forward.push({ line: (await where()).line, hash: await machineHash() });
  }
  assert.deepEqual(
    forward.slice(0, 2).map((f) => f.line),
    [fx.markers.call_draw.line, fx.markers.call_shade.line],
  );

  const oneBack = await stepBackTarget(me.session, 'line');
  // the walk's replays leave the machine at the present as it was (a replay up to it stays there, no state loaded)
  assert.equal(await machineHash(), forward[2].hash, 'the walk leaves the present as it was');
  await stopAfter(() => travelTo(me, oneBack));
  const back = await where();
  assert.equal(back.line, forward[1].line, 'one C line back');
  assert.equal(back.inPast, true, 'the stop says it is in the past');
  assert.equal(await machineHash(), forward[1].hash, 'registers and 64 KiB as the forward run had them there');

  await stopAfter(async () => travelTo(me, await stepBackTarget(me.session, 'line')));
  assert.equal((await where()).line, forward[0].line);
  assert.equal(await machineHash(), forward[0].hash);

  const { hit } = await reverseContinue(me);
  assert.equal(hit, true, 'a breakpoint hit is recorded before');
  assert.deepEqual(await where(), { ...atHit.where, inPast: true });
  assert.equal(await machineHash(), atHit.hash, 'the breakpoint hit as it was');

  await stopAfter(() => travelTo(me, timeTravel(me.session).span().endCycle));
  assert.equal((await where()).inPast, false);
  assert.equal(await machineHash(), forward[2].hash, 'back in the present exactly');
});

test('last_write finds the C line that wrote a global and shows the moment after it', async () => {
  const { address, length } = await me.session.locateLvalue('total');
  assert.equal(length, 2);
  const found = await findLastWrite(me.session, address, length);
  assert.equal(found.location?.line, fx.markers.call_draw.line, JSON.stringify(found));
  assert.equal(found.location?.function, 'main');
  assert.ok(found.address === address || found.address === address + 1);
  await stopAfter(() => travelTo(me, found.cycle));
  assert.equal((await where()).inPast, true);
  const [byte] = await me.session.readMemory({ space: 'cpu', offset: found.address }, 1);
  assert.equal(byte, found.value, 'the byte holds the written value after the write');
  await assert.rejects(
    me.writeMemory({ space: 'cpu', offset: found.address }, Uint8Array.of(0)),
    (e: Error & { code?: string }) => e.code === 'bad_request' && /past/.test(e.message),
  );
  await stopAfter(() => travelTo(me, timeTravel(me.session).span().endCycle));
});

test('stepping back past the start of the history is refused and the session stays', () =>
  travel.checkHistoryStartRefused(me, 'instruction'));

test('Step Back in a called function, then Step Back Out to its call in the caller', async () => {
  // the step into ends inside a call made in its interval, which MAME's traceover would leave out: a full trace serves
  await stopAfter(() => me.resume());
  const forward: { line?: number; hash: string }[] = [];
  for (const step of [() => me.stepOver('line'), () => me.stepInto('line'), () => me.stepOver('line')]) {
    await stopAfter(step);
    forward.push({ line: (await where()).line, hash: await machineHash() });
  }
  assert.deepEqual(
    forward.map((f) => f.line),
    [fx.markers.call_draw.line, fx.markers.draw_call_plot.line, fx.markers.draw_return.line],
  );
  await stopAfter(async () => travelTo(me, await stepBackTarget(me.session, 'line')));
  assert.equal((await where()).line, forward[1].line);
  assert.equal(await machineHash(), forward[1].hash, 'registers and 64 KiB as the forward run had them there');
  const firstBody = timeTravel(me.session).span().nowCycle;
  await stopAfter(async () => travelTo(me, await stepBackTarget(me.session, 'line')));
  const call = await where();
  assert.equal(call.line, fx.markers.call_draw.line, 'from the first body line: the calling line, not the prologue');
  assert.equal(me.session.locationAt(call.pc ?? -1)?.function, 'main');
  await stopAfter(() => travelTo(me, firstBody));
  await stopAfter(async () => travelTo(me, await stepBackOutTarget(me.session)));
  const out = await where();
  assert.equal(out.line, fx.markers.call_draw.line, "at the call on the caller's line");
  assert.equal(me.session.locationAt(out.pc ?? -1)?.function, 'main');
  await stopAfter(() => travelTo(me, timeTravel(me.session).span().endCycle));
  assert.equal(await machineHash(), forward[2].hash, 'back in the present exactly');
});

/** Rows of two pictures of one screen that differ. */
function rowsDiffering(a: ScreenImage, b: ScreenImage): number {
  const row = a.width * 4;
  let n = 0;
  for (let y = 0; y < a.height; y++)
    if (Buffer.compare(a.rgba.subarray(y * row, (y + 1) * row), b.rgba.subarray(y * row, (y + 1) * row))) n++;
  return n;
}

test('the screen in the past is redrawn, not left as the present; back at the present it is the present exactly', async () => {
  if ((await where()).inPast) await stopAfter(() => travelTo(me, timeTravel(me.session).span().endCycle));
  const shots: { cycle: number; picture: ScreenImage }[] = [];
  for (let i = 0; i < 8; i++) {
    await stopAfter(() => me.resume());
    shots.push({ cycle: timeTravel(me.session).span().nowCycle, picture: await me.session.screenshot() });
  }
  const present = shots.at(-1)!.picture;
  // each loop turn plots into one pixel line: MAME's screen, which keeps the frame last drawn, would show the
  // present's picture at an earlier moment unless it is redrawn there
  const at = shots[3];
  assert.ok(rowsDiffering(at.picture, present) > 0, 'the loop turns drew');
  await stopAfter(() => travelTo(me, at.cycle));
  const past = await me.session.screenshot();
  assert.notEqual(rowsDiffering(past, present), 0, "not the present's picture");
  // the redraw draws the line at its own time in the frame (a forward run stopped by stops drew it at those): the
  // line written may differ, every other line is the forward run's
  assert.ok(rowsDiffering(past, at.picture) <= 1, `${rowsDiffering(past, at.picture)} rows differ`);
  await stopAfter(() => travelTo(me, timeTravel(me.session).span().endCycle));
  assert.equal(rowsDiffering(await me.session.screenshot(), present), 0);
});

test('a history budget of 0 turns MAME time travel off with a typed error; the session goes on', async () => {
  // a copy of the ROM: one session per program
  const rom = join(mkdtempSync(join(tmpdir(), 'rd-history-off-')), 'spectrum.rom');
  copyFileSync(fx.rom, rom);
  const off = session!.manager.start(
    { machine: 'spectrum', emulator: 'mame', program: rom, debugInfo: fx.cdb, history: { maxMegabytes: 0 } },
    { kind: 'cli', label: 'history off' },
  );
  const offBeat = setInterval(() => off.beat(), 300);
  try {
    await off.session.waitForStop(60_000);
    assert.throws(() => timeTravel(off.session).span(), {
      code: 'unsupported',
      message: /history is off: the launch options set history.maxMegabytes to 0/,
    });
    await assert.rejects(stepBackTarget(off.session, 'line'), { code: 'unsupported' });
    const stop = off.nextStop(30_000);
    await off.stepInto('instruction');
    assert.equal((await stop).state, 'stopped', 'the session still steps');
  } finally {
    clearInterval(offBeat);
    off.close();
  }
});
