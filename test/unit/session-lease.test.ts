import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControlLease } from '../../src/session/lease.js';
import { ClientRegistry } from '../../src/session/clients.js';
import { EventQueue } from '../../src/session/event-queue.js';
import { RetroError } from '../../src/core/errors.js';

const agent = { id: 'mcp-1', kind: 'mcp' as const, label: 'MCP client claude' };
const human = { id: 'dap-1', kind: 'dap' as const, label: 'VS Code debug session' };

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as RetroError).code;
  }
  return 'no error';
}

test('a mutation without the lease is refused with no_lease', () => {
  const lease = new ControlLease(30_000);
  assert.equal(
    code(() => lease.require(agent)),
    'no_lease',
  );
});

test('a held lease refuses others by name until taken over explicitly', () => {
  const lease = new ControlLease(30_000);
  lease.claim(human);
  let err: RetroError | undefined;
  try {
    lease.claim(agent);
  } catch (e) {
    err = e as RetroError;
  }
  assert.equal(err?.code, 'lease_held');
  assert.match(err!.message, /VS Code debug session/);
  assert.equal(
    code(() => lease.require(agent)),
    'lease_held',
  );
  lease.claim(agent, true);
  assert.equal(lease.info()?.holder.id, agent.id);
  assert.equal(
    code(() => lease.require(human)),
    'lease_held',
  );
});

test('the lease lapses without a heartbeat and is kept alive by one', () => {
  let now = 0;
  const lease = new ControlLease(30_000, () => now);
  lease.claim(agent);
  now = 29_000;
  lease.beat(agent.id);
  now = 58_000;
  assert.equal(lease.info()?.holder.id, agent.id, 'a beat at 29 s keeps it past 30 s');
  now = 59_001;
  assert.equal(lease.info(), undefined);
  assert.equal(
    code(() => lease.require(agent)),
    'no_lease',
  );
});

test('clients that miss heartbeats are reported expired', () => {
  let now = 0;
  const clients = new ClientRegistry(1000, () => now);
  const a = clients.attach('mcp', 'a');
  const b = clients.attach('dap', 'b');
  now = 900;
  clients.beat(b.id);
  now = 1500;
  assert.deepEqual(
    clients.expired().map((c) => c.id),
    [a.id],
  );
  clients.detach(a.id);
  assert.equal(
    code(() => clients.get(a.id)),
    'not_found',
  );
});

test('the event queue is bounded and says when a reader fell behind', () => {
  const q = new EventQueue(3);
  for (let i = 0; i < 5; i++) q.push({ type: 'output', text: String(i) });
  const late = q.since(0);
  assert.equal(late.dropped, true);
  assert.deepEqual(
    late.events.map((e) => e.seq),
    [3, 4, 5],
  );
  const current = q.since(4);
  assert.equal(current.dropped, false);
  assert.deepEqual(
    current.events.map((e) => (e.event as { text: string }).text),
    ['4'],
  );
  assert.equal(q.since(5).events.length, 0);
});
