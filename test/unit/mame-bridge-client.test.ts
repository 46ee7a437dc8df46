/**
 * BridgeClient protocol handling against a scripted peer that speaks the
 * plugin's wire format (the real plugin is covered by test/integration/mame-target.test.ts):
 * token check, binary payloads, malformed lines, timeouts, connection loss, doorbell.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { BridgeClient, type BridgeEvent } from '../../src/connectors/mame/bridge-client.js';
import { RetroError } from '../../src/core/errors.js';

/** A fake plugin: connects, collects request lines, lets the test script replies. */
async function peer(
  client: BridgeClient,
  token = client.token,
): Promise<{ sock: Socket; requests: Array<Record<string, unknown>> }> {
  const sock = connect(client.port, '127.0.0.1');
  sock.setNoDelay(true); // as MAME's sockets are; Nagle would hold back small lines for 40 ms
  await new Promise<void>((r) => sock.once('connect', () => r()));
  const requests: Array<Record<string, unknown>> = [];
  let buf = '';
  sock.on('data', (d) => {
    buf += d.toString('latin1');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      requests.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  sock.write(JSON.stringify({ event: 'hello', token }) + '\n');
  return { sock, requests };
}

const until = async (cond: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 2));
  }
};

test('a peer with the wrong token is dropped; the right one is accepted', async () => {
  const client = await BridgeClient.listen();
  const bad = await peer(client, 'wrong');
  await new Promise<void>((r) => bad.sock.once('close', () => r()));
  assert.equal(client.connected, false);
  await peer(client);
  await client.waitForConnection(2000);
  assert.equal(client.connected, true);
  client.close();
});

test('replies match by id, carry binary payloads; malformed lines are reported, not fatal', async () => {
  const client = await BridgeClient.listen();
  const events: BridgeEvent[] = [];
  client.onEvent((e) => events.push(e));
  const { sock, requests } = await peer(client);
  await client.waitForConnection(2000);

  const a = client.request('read_memory', { address: 0, length: 3 });
  const b = client.request('status');
  await until(() => requests.length === 2);
  const [ra, rb] = requests;
  assert.equal(ra.op, 'read_memory');
  sock.write('this is not json\n');
  sock.write(JSON.stringify({ id: rb.id, ok: true, result: { state: 'stopped' } }) + '\n');
  // payload split across writes
  const head = Buffer.from(JSON.stringify({ id: ra.id, ok: true, result: { length: 3 }, binary: 3 }) + '\n');
  sock.write(Buffer.concat([head, Buffer.from([0xaa])]));
  await new Promise((r) => setTimeout(r, 20));
  sock.write(Buffer.from([0x0a, 0xff]));
  assert.deepEqual((await b).result, { state: 'stopped' });
  const reply = await a;
  assert.deepEqual([...reply.binary!], [0xaa, 0x0a, 0xff]);
  assert.ok(events.some((e) => e.event === 'bridge_error' && /malformed/.test(String(e.message))));

  // Error replies keep their code when it is one of ours.
  const c = client.request('read_memory', { address: 0x10000, length: 1 });
  await until(() => requests.length === 3);
  sock.write(
    JSON.stringify({ id: requests[2].id, ok: false, error: { code: 'bad_address', message: 'beyond' } }) + '\n',
  );
  await assert.rejects(c, (e: RetroError) => e.code === 'bad_address' && e.message === 'beyond');

  // Binary requests: the payload follows the line.
  const w = client.request('write_memory', { address: 5 }, { binary: Uint8Array.from([1, 2]) });
  await until(() => requests.length >= 4);
  assert.equal(requests[3].binary, 2);
  sock.write(JSON.stringify({ id: requests[3].id, ok: true, result: {} }) + '\n');
  await w;
  client.close();
});

test('timeouts: read-only → timeout, mutating → timeout_may_have_mutated naming the op', async () => {
  const client = await BridgeClient.listen();
  await peer(client);
  await client.waitForConnection(2000);
  await assert.rejects(client.request('status', {}, { timeoutMs: 50 }), (e: RetroError) => e.code === 'timeout');
  await assert.rejects(
    client.request('resume', {}, { timeoutMs: 50 }),
    (e: RetroError) => e.code === 'timeout_may_have_mutated' && /resume/.test(e.message) && e.details.op === 'resume',
  );
  client.close();
});

test('connection loss fails pending and later requests with target_lost', async () => {
  const client = await BridgeClient.listen();
  const { sock, requests } = await peer(client);
  await client.waitForConnection(2000);
  const p = client.request('status');
  await until(() => requests.length === 1);
  sock.destroy();
  await assert.rejects(p, (e: RetroError) => e.code === 'target_lost');
  await assert.rejects(client.request('status'), (e: RetroError) => e.code === 'target_lost');
});

test('the doorbell rings only after the bridge said it sleeps, or for requests it may have missed', async () => {
  const client = await BridgeClient.listen();
  let rings = 0;
  client.setDoorbell(() => rings++);
  const { sock, requests } = await peer(client);
  await client.waitForConnection(2000);
  const answer = async (n: number) => {
    await until(() => requests.length === n);
    sock.write(JSON.stringify({ id: requests[n - 1].id, ok: true, result: {} }) + '\n');
  };
  let p = client.request('status');
  await answer(1);
  await p;
  assert.equal(rings, 0, 'the bridge never said it sleeps');
  sock.write('{"event":"idle"}\n');
  await new Promise((r) => setTimeout(r, 20));
  p = client.request('status');
  assert.equal(rings, 1);
  await answer(2);
  await p;
  // A request in flight when "idle" arrives was missed by the bridge: ring for it.
  p = client.request('status');
  await until(() => requests.length === 3);
  sock.write('{"event":"idle"}\n');
  await until(() => rings === 2);
  await answer(3);
  await p;
  client.close();
});
