/**
 * Session rules on the fake machine: the control lease (refusals name the
 * holder, explicit take-over, lapse without heartbeats), owned breakpoints
 * (others see them read-only; an owner that leaves or goes silent loses
 * them), held input released with the lease, and the raw lease.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RetroError } from '../../src/core/errors.js';
import { bootFake, LINES, nextEvent } from '../support/fake-target.js';

const code = (e: unknown) => (e instanceof RetroError ? e.code : String(e));

test('a client without the lease is refused by name; take-over is explicit and tells the loser', async () => {
  const { session, starter } = await bootFake();
  const agent = session.attach('mcp', 'MCP client claude');
  await assert.rejects(agent.resume(), (e) => code(e) === 'lease_held' && /VS Code debug session/.test(String(e)));
  assert.throws(
    () => agent.claimControl(),
    (e) => code(e) === 'lease_held',
  );
  assert.equal(agent.tryClaim(), false);
  const lost: string[] = [];
  starter.onControlLost((holder) => lost.push(holder.label));
  agent.claimControl({ takeOver: true });
  assert.equal(agent.holdsControl, true);
  assert.equal(starter.holdsControl, false);
  assert.deepEqual(lost, ['MCP client claude']);
  await assert.rejects(starter.stepOver(), (e) => code(e) === 'lease_held' && /MCP client claude/.test(String(e)));
  agent.releaseControl();
  assert.equal((await session.status()).lease, undefined);
  await assert.rejects(agent.resume(), (e) => code(e) === 'no_lease');
  await session.stop();
});

test("breakpoints have owners: others see them but cannot clear them; leaving removes one's own only", async () => {
  const { session, target, starter } = await bootFake();
  const agent = session.attach('mcp', 'MCP client claude');
  const mine = await starter.setLineBreakpoint('main.c', LINES.store);
  const theirs = await agent.setFunctionBreakpoint('add');
  assert.equal(theirs.verified, true, 'breakpoints need no lease');
  assert.equal(session.listBreakpoints().length, 2);
  await assert.rejects(starter.clearBreakpoint(theirs.id), (e) => code(e) === 'not_owner');
  const expired = nextEvent(session, 'owner_expired');
  agent.close();
  const event = await expired;
  assert.deepEqual(event.removed_breakpoints, [theirs.id]);
  assert.deepEqual(
    session.listBreakpoints().map((b) => b.id),
    [mine.id],
  );
  assert.deepEqual(target.armed(), [0x1004], "only the starter's breakpoint is still armed");
  await assert.rejects(agent.setLineBreakpoint('main.c', LINES.call), (e) => code(e) === 'not_found');
  await session.stop();
});

test('two owners at one address share one emulator breakpoint; removing one keeps the other armed', async () => {
  const { session, target, starter } = await bootFake();
  const agent = session.attach('mcp', 'MCP client claude');
  const a = await starter.setLineBreakpoint('main.c', LINES.store);
  await agent.setLineBreakpoint('main.c', LINES.store);
  assert.deepEqual(target.armed(), [0x1004]);
  await starter.clearBreakpoint(a.id);
  assert.deepEqual(target.armed(), [0x1004]);
  await session.stop();
});

test('a silent client loses the lease and its breakpoints; a beating one keeps them', async () => {
  const { session, starter } = await bootFake({ leaseMs: 150, starterHeartbeatMs: 30 });
  const agent = session.attach('mcp', 'MCP client claude');
  const bp = await agent.setFunctionBreakpoint('add');
  agent.claimControl({ takeOver: true });
  const expired = await nextEvent(session, 'owner_expired', 3_000);
  assert.equal(expired.client.id, agent.id);
  assert.deepEqual(expired.removed_breakpoints, [bp.id]);
  assert.equal((await session.status()).lease, undefined, 'the lease lapsed with its silent holder');
  assert.throws(
    () => agent.beat(),
    (e) => code(e) === 'not_found',
  );
  // the starter kept beating: it is still attached and can take control again
  assert.equal(starter.tryClaim(), true);
  await session.stop();
});

test('held input is released when its owner loses the lease', async () => {
  const { session, starter } = await bootFake();
  const agent = session.attach('mcp', 'MCP client claude');
  agent.claimControl({ takeOver: true });
  let released = 0;
  agent.trackInput('key "a" held', async () => {
    released++;
  });
  assert.equal(session.heldInputs().length, 1);
  const gone = nextEvent(session, 'inputs_released');
  starter.claimControl({ takeOver: true });
  await gone;
  assert.equal(released, 1);
  assert.equal(session.heldInputs().length, 0);
  await session.stop();
});

test('the raw lease needs the control lease and does not outlive it', async () => {
  const { session, starter } = await bootFake();
  const agent = session.attach('mcp', 'MCP client claude');
  assert.throws(
    () => agent.claimRawLease(),
    (e) => code(e) === 'lease_held',
  );
  starter.claimRawLease();
  starter.requireRawLease();
  agent.claimControl({ takeOver: true });
  assert.throws(
    () => agent.requireRawLease(),
    (e) => code(e) !== 'no error',
    'control alone is not the raw lease',
  );
  starter.claimControl({ takeOver: true });
  assert.throws(() => starter.requireRawLease(), 'the raw lease went with the control lease');
  await session.stop();
});

test('a client its front end closes keeps its breakpoints through 60 s of silence; only the lease lapses, told once', async () => {
  let now = 0;
  const { session, starter } = await bootFake({ clock: () => now });
  const agent = session.attach('mcp', 'MCP client thinker', { closedByFrontEnd: true });
  const bp = await agent.setFunctionBreakpoint('add');
  agent.claimControl({ takeOver: true });
  starter.takeLosses(); // the starter was told the agent took over; not this test's business
  const lapsed = nextEvent(session, 'lease_changed');
  now += 60_000; // the agent thinks for a minute: no request at all
  assert.equal((await session.status()).lease, undefined, 'the lease lapsed');
  const event = await lapsed;
  assert.equal(event.lapsed?.id, agent.id, 'the change says whose lease ran out');
  // the session's sweep (run here rather than waited for) finds nothing to drop: the breakpoint stays
  await (session as unknown as { sweepExpired(): Promise<void> }).sweepExpired();
  assert.deepEqual(
    session.listBreakpoints().map((b) => b.id),
    [bp.id],
  );
  agent.beat();
  const lost = agent.takeLosses();
  assert.equal(lost.length, 1, JSON.stringify(lost));
  assert.match(lost[0]!, /lease .*lapsed.*breakpoints and watchpoints are kept/);
  assert.deepEqual(agent.takeLosses(), [], 'told once');
  await assert.rejects(agent.resume(), (e) => code(e) === 'no_lease', 'a late beat does not revive the lease');
  assert.equal(agent.tryClaim(), true, 'it claims the lease again');
  agent.releaseControl();
  assert.deepEqual(agent.takeLosses(), [], 'its own release is no loss');
  agent.close();
  assert.deepEqual(session.listBreakpoints(), [], 'closing the handle removes what it owned');
  await session.stop();
});

test('a client whose lease is taken is told who took it', async () => {
  const { session, starter } = await bootFake();
  const agent = session.attach('mcp', 'MCP client claude', { closedByFrontEnd: true });
  agent.claimControl({ takeOver: true });
  assert.match(starter.takeLosses().join(), /MCP client claude took the control lease/);
  await session.stop();
});
