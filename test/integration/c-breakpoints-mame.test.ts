// Conditional breakpoints, hit conditions and logpoints on real MAME with a real SDCC program: the C condition
// is evaluated by the session at each hit (a parameter, read through the frame), a false one resumes without a
// visible stop, a bad one leaves the breakpoint unverified with the reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { SessionApi, SessionEvent } from '../../src/session/types.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { hasTimeTravel, timeTravel } from '../../src/session/time-travel.js';
import { watchTarget, type TargetTraffic } from '../support/target-traffic.js';

let fx: ZxFixture;
let manager: SessionManager;
let session: SessionApi;
let dap: ClientSession;
let traffic: TargetTraffic;
const events: SessionEvent[] = [];

before(async () => {
  fx = await buildZxFixture();
  manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 5000 });
  dap = manager.start(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir },
    { kind: 'dap', label: 'VS Code debug session' },
  );
  session = dap.session;
  const beat = setInterval(() => dap.beat(), 300);
  beat.unref();
  session.onEvent((q) => events.push(q.event));
  await session.waitForStop(60_000);
  traffic = watchTarget(session);
});

after(async () => {
  await manager?.closeAll();
});

const num = async (expression: string) => (await session.readVariable(expression)).numeric!;

test("a C condition on parameters is compiled into MAME's breakpoint: the false hits never stop the CPU", async () => {
  const m = fx.markers.plot_body;
  const bp = await dap.setLineBreakpoint(m.file, m.line, 'col == 5 && row == 10');
  assert.equal(bp.verified, true, bp.message);
  // SDCC passes col in A and row in L; MAME reads them where they are at the hit
  assert.match(bp.native_condition ?? '', /^\(\S+ == 0x5\) && \(\S+ == 0xa\)$/, bp.condition_host);
  const stopsBefore = events.filter((e) => e.type === 'stopped').length;
  traffic.reset();
  await dap.resume();
  const status = await session.waitForStop(30_000);
  assert.equal(status.location?.line, m.line);
  assert.deepEqual(status.last_stop?.breakpoint_ids, [bp.id]);
  assert.equal(await num('col'), 5);
  assert.equal(await num('row'), 10);
  assert.equal(await num('(counter & 31) == 5'), 1);
  // the false hits on the way (col 0..4 or more) published no stop
  assert.equal(events.filter((e) => e.type === 'stopped').length, stopsBefore + 1);
  assert.equal(session.listBreakpoints().find((b) => b.id === bp.id)!.hit_count, 1);
  assert.equal(traffic.stops, 1, 'MAME stopped the CPU only when the condition held');
  await dap.clearBreakpoint(bp.id);
});

test('a condition on a stack parameter compiles to an IX frame slot MAME reads at each hit', async () => {
  const m = fx.markers.plot_body;
  const bp = await dap.setLineBreakpoint(m.file, m.line, 'value == 255 && col == 7');
  // plot's `value` is at IX+4 (SDCC's .cdb), `col` in register C
  assert.equal(bp.native_condition, '(b@((ix+0x4)&0xffff) == 0xff) && (c == 0x7)');
  traffic.reset();
  await dap.resume();
  await session.waitForStop(30_000);
  assert.equal(await num('col'), 7);
  assert.equal(await num('value'), 255);
  assert.equal(traffic.stops, 1);
  await dap.clearBreakpoint(bp.id);
});

test("a condition MAME cannot evaluate exactly is the session's: each false hit costs at most 2 round trips", async () => {
  const m = fx.markers.loop_body;
  const start = await num('counter');
  const target = (start + 6) & 0xff;
  const bp = await dap.setLineBreakpoint(m.file, m.line, `(counter ^ 0x55) == ${target ^ 0x55}`);
  assert.equal(bp.native_condition, undefined);
  assert.match(bp.condition_host ?? '', /not readable by the emulator/);
  traffic.reset();
  await dap.resume();
  await session.waitForStop(30_000);
  const hits = traffic.stops;
  // per false hit: read what the condition needs, resume; the true one: its read
  const perHit = traffic.requests / hits;
  assert.ok(hits >= 6, `${hits} hits`);
  assert.ok(perHit <= 2, `${perHit} round trips per hit: ${JSON.stringify([...traffic.calls])}`);
  assert.equal(await num('counter'), target);
  await dap.clearBreakpoint(bp.id);
});

test('a host-side condition on a frame slot and a register: the registers come with the stop, ≤ 2 trips a hit', async () => {
  const m = fx.markers.plot_body;
  const bp = await dap.setLineBreakpoint(m.file, m.line, '(value ^ col) == 250'); // 255 ^ 5
  assert.equal(bp.native_condition, undefined);
  traffic.reset();
  await dap.resume();
  await session.waitForStop(30_000);
  const hits = traffic.stops;
  const perHit = traffic.requests / hits;
  assert.ok(perHit <= 2, `${perHit} round trips per hit over ${hits}: ${JSON.stringify([...traffic.calls])}`);
  assert.equal(await num('col'), 5);
  await dap.clearBreakpoint(bp.id);
});

test('a host-side condition reading two globals: from the second hit the bridge carries both reads in one flight', async () => {
  const m = fx.markers.loop_body;
  const target = ((await num('counter')) + 4) & 0xff;
  // `||` reads counter, then total; the session replays the last hit's reads at once (session/read-replay.ts)
  const bp = await dap.setLineBreakpoint(m.file, m.line, `(total ^ 1) == 0 || (counter ^ 1) == ${target ^ 1}`);
  assert.equal(bp.native_condition, undefined);
  traffic.reset();
  await dap.resume();
  await session.waitForStop(30_000);
  const flights = [...traffic.flights];
  assert.equal(await num('counter'), target);
  const hits = traffic.stops;
  assert.ok(hits >= 3, `${hits} hits`);
  // the first false hit: counter, then total, then the resume; each later one: both at once, then the resume
  const [read, resume] = ['bridge.read_memory', 'bridge.resume'];
  const later = Array.from({ length: hits - 2 }, () => [[read, read], [resume]]).flat();
  assert.deepEqual(flights, [[resume], [read], [read], [resume], ...later, [read, read]], JSON.stringify(flights));
  await dap.clearBreakpoint(bp.id);
});

test("a joined condition: its compiled part is the MAME breakpoint's guard, the rest the session's at the stops it lets through", async () => {
  const m = fx.markers.plot_body;
  const bp = await dap.setLineBreakpoint(m.file, m.line, 'col == 5 && (value ^ col) == 250'); // 255 ^ 5
  assert.equal(bp.native_condition, undefined);
  assert.match(bp.condition_host ?? '', /not readable by the emulator/);
  assert.match(bp.native_guard ?? '', /^\S+ == 0x5$/);
  traffic.reset();
  await dap.resume();
  const status = await session.waitForStop(30_000);
  const stops = traffic.stops;
  assert.deepEqual(status.last_stop?.breakpoint_ids, [bp.id]);
  assert.equal(await num('col'), 5);
  assert.equal(await num('value'), 255);
  // every hit with another col stayed in MAME: the CPU stopped only where the guard held
  assert.equal(stops, 1, JSON.stringify([...traffic.calls]));
  await dap.clearBreakpoint(bp.id);
});

test('two owners at one address: one MAME breakpoint with their conditions joined; who stopped is decided per owner', async () => {
  const m = fx.markers.loop_body;
  const agent = manager.attach(session.id, { kind: 'mcp', label: 'agent' });
  const start = await num('counter');
  const mine = await dap.setLineBreakpoint(m.file, m.line, `counter == ${(start + 3) & 0xff}`);
  const theirs = await agent.setLineBreakpoint(m.file, m.line, `counter == ${(start + 5) & 0xff}`, {
    logMessage: 'agent saw {counter}',
  });
  assert.ok(mine.native_condition && theirs.native_condition);
  traffic.reset();
  await dap.resume();
  let status = await session.waitForStop(30_000);
  assert.deepEqual(status.last_stop?.breakpoint_ids, [mine.id]);
  assert.equal(await num('counter'), (start + 3) & 0xff);
  const logs = events.length;
  const stopper = await dap.setLineBreakpoint(
    fx.markers.call_draw.file,
    fx.markers.call_draw.line,
    'counter == ' + ((start + 6) & 0xff),
  );
  await dap.resume();
  status = await session.waitForStop(30_000);
  assert.deepEqual(status.last_stop?.breakpoint_ids, [stopper.id]);
  const printed = events.slice(logs).filter((e) => e.type === 'logpoint');
  assert.equal(printed.length, 1);
  const line = printed[0].type === 'logpoint' ? printed[0] : undefined;
  assert.equal(line?.owner, agent.client.id);
  // an unsigned char shows its character after the number when it has one
  assert.match(line?.text ?? '', new RegExp(`^agent saw ${(start + 5) & 0xff}( '.+')?$`));
  const counts = new Map(session.listBreakpoints().map((b) => [b.id, b.hit_count]));
  assert.equal(counts.get(mine.id), 1);
  assert.equal(counts.get(theirs.id), 1);
  // the CPU stopped at the two true hits and the stopper, never at a false one
  assert.equal(traffic.stops, 3);
  for (const b of [mine, stopper]) await dap.clearBreakpoint(b.id);
  await agent.clearBreakpoint(theirs.id);
});

test('Pause while the session decides host-side hits: the machine stops, the pause is not lost', async () => {
  const m = fx.markers.loop_body;
  const bp = await dap.setLineBreakpoint(m.file, m.line, '(counter ^ 1) == 999');
  assert.equal(bp.native_condition, undefined);
  for (let i = 0; i < 5; i++) {
    await dap.resume();
    await new Promise((r) => setTimeout(r, 100 + 37 * i));
    const status = await dap.nextStop(10_000, () => dap.pause());
    assert.equal(status.last_stop?.reason, 'pause');
    assert.equal(status.state, 'stopped');
  }
  await dap.clearBreakpoint(bp.id);
});

test('a hit condition "% 4" stops every fourth hit', async () => {
  const m = fx.markers.loop_body;
  const bp = await dap.setLineBreakpoint(m.file, m.line, undefined, { hitCondition: '% 4' });
  assert.equal(bp.verified, true, bp.message);
  await dap.resume();
  await session.waitForStop(30_000);
  const first = await num('counter');
  await dap.resume();
  await session.waitForStop(30_000);
  // counter is an unsigned char: it may wrap between the two stops
  assert.equal(((await num('counter')) - first) & 0xff, 4);
  assert.equal(session.listBreakpoints().find((b) => b.id === bp.id)!.hit_count, 8);
  await dap.clearBreakpoint(bp.id);
});

test('a logpoint prints {expressions} at each hit without stopping, as output and as a logpoint event', async () => {
  const log = await dap.setLineBreakpoint(fx.markers.loop_body.file, fx.markers.loop_body.line, undefined, {
    logMessage: 'counter={counter} next={counter + 1} {{literal}}',
  });
  assert.equal(log.verified, true, log.message);
  const stopper = await dap.setLineBreakpoint(fx.markers.call_draw.file, fx.markers.call_draw.line, undefined, {
    hitCondition: '3',
  });
  const start = events.length;
  await dap.resume();
  const status = await session.waitForStop(30_000);
  assert.deepEqual(status.last_stop?.breakpoint_ids, [stopper.id]);
  const logs = events
    .slice(start)
    .filter((e): e is Extract<SessionEvent, { type: 'logpoint' }> => e.type === 'logpoint');
  // stopped on loop_body before, so the run passes: call_draw (1), loop_body, call_draw (2), loop_body, call_draw (3)
  assert.equal(logs.length, 2);
  const counters = logs.map((l) => Number(/counter=(\d+)/.exec(l.text)![1]));
  assert.deepEqual(counters, [counters[0], (counters[0] + 1) & 0xff]);
  assert.match(logs[0].text, /^counter=\d+( '.+')? next=\d+ \{literal\}$/); // a char shows as in Variables
  assert.equal(Number(/next=(\d+)/.exec(logs[0].text)![1]), counters[0] + 1);
  assert.equal(logs[0].owner, dap.client.id);
  assert.equal(logs[0].location?.line, fx.markers.loop_body.line);
  assert.ok(events.slice(start).some((e) => e.type === 'output' && e.text === logs[1].text));
  await dap.clearBreakpoint(log.id);
  await dap.clearBreakpoint(stopper.id);
});

test('a condition that does not compile leaves the breakpoint unverified with the reason and the column', async () => {
  const m = fx.markers.plot_body;
  const bad = await dap.setLineBreakpoint(m.file, m.line, 'col == nosuch');
  assert.equal(bad.verified, false);
  assert.match(bad.message ?? '', /column 8: no variable `nosuch` is visible here/);
  const hit = await dap.setLineBreakpoint(m.file, m.line, undefined, { hitCondition: 'often' });
  assert.equal(hit.verified, false);
  assert.match(hit.message ?? '', /Hit condition "often" is not understood/);
  const log = await dap.setLineBreakpoint(m.file, m.line, undefined, { logMessage: 'x={col' });
  assert.equal(log.verified, false);
  assert.match(log.message ?? '', /not closed/);
  for (const b of [bad, hit, log]) await dap.clearBreakpoint(b.id);
});

test("Set Value: C lvalues encoded by their type, range-checked, never into code or a caller's registers", async () => {
  const m = fx.markers.plot_body;
  const bp = await dap.setLineBreakpoint(m.file, m.line);
  await dap.resume();
  await session.waitForStop(30_000);
  await dap.clearBreakpoint(bp.id);
  assert.equal((await dap.setExpression('total', '1234')).numeric, 1234);
  assert.equal(await num('total'), 1234);
  assert.equal((await dap.setExpression('origin.y', '-7')).numeric, -7);
  assert.equal(await num('origin.x'), 3, 'the neighbour is untouched');
  await dap.setExpression('message[0]', "'X'");
  assert.match((await session.readVariable('message')).value, /^"XETRO"/);
  await dap.setExpression('total', 'total * 2 + 1');
  assert.equal(await num('total'), 2469);
  await assert.rejects(
    dap.setExpression('counter', '300'),
    /300 \(300\) is out of range for unsigned char \(0 to 255\)/,
  );
  await assert.rejects(dap.setExpression('origin', '1'), /set one of its elements or fields/);
  await assert.rejects(dap.setExpression('*(unsigned char *)&main', '0'), /inside the code of main/);
  await assert.rejects(dap.setExpression('total + 1', '0'), /is a value, not an object in memory/);
  // plot's row lives in register L: written there in the innermost frame, refused in draw's (a calling frame)
  assert.equal((await dap.setExpression('row', '12')).numeric, 12);
  assert.equal(await num('row'), 12);
  assert.equal(await num('$l'), 12);
  await assert.rejects(dap.setExpression('row', '256'), /out of range for unsigned char/);
  await assert.rejects(dap.setExpression('row', '1', 1), /lives in L of a calling frame/);
});

test('a MAME spectrum session records a history (its granularity said; mame-time-travel.test.ts moves in it)', () => {
  assert.equal(hasTimeTravel(session), true);
  assert.match(timeTravel(session).granularity, /save state at each stop/);
});
