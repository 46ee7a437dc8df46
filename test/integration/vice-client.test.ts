// The VICE binary-monitor client over TCP against the built-in C64's server,
// checked on the bytes of the protocol (reference: shared/reference/vice-binary-monitor.md):
// events before replies, error replies of type 0x00 matched by id, banks and
// registers, full-range reads, checkpoints that survive reconnects, one client
// at a time, resync after garbage, and a client that never hangs on a bad peer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { MonitorClient, MonitorErrorReply } from '../../src/connectors/vice/monitor-client.js';
import {
  Cmd,
  decodeBanks,
  decodeCheckpoint,
  decodeRegisters,
  encodeMemHeader,
  encodeRequest,
  EVENT_ID,
  RESPONSE_HEADER,
} from '../../src/connectors/vice/protocol.js';
import type { RetroError } from '../../src/core/errors.js';

let server: BuiltinMonitorServer;
let port: number;

before(async () => {
  server = new BuiltinMonitorServer();
  port = await server.listen();
});

after(async () => {
  await server?.close();
});

/** A raw socket that collects every response frame. */
async function rawPeer(): Promise<{
  socket: Socket;
  frames: () => { type: number; error: number; id: number; body: Buffer }[];
  next: (n: number, ms?: number) => Promise<{ type: number; error: number; id: number; body: Buffer }[]>;
}> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  let buf = Buffer.alloc(0);
  const out: { type: number; error: number; id: number; body: Buffer }[] = [];
  socket.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= RESPONSE_HEADER && buf.length >= RESPONSE_HEADER + buf.readUInt32LE(2)) {
      const len = buf.readUInt32LE(2);
      assert.equal(buf[0], 0x02, 'every response starts with STX');
      assert.equal(buf[1], 0x02, 'VICE always answers with API version 2');
      out.push({ type: buf[6], error: buf[7], id: buf.readUInt32LE(8), body: Buffer.from(buf.subarray(12, 12 + len)) });
      buf = buf.subarray(12 + len);
    }
  });
  const next = async (n: number, ms = 3000) => {
    const deadline = Date.now() + ms;
    while (out.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return out.splice(0, n);
  };
  return { socket, frames: () => out, next };
}

test('a command to a running machine stops it: 0x31 and 0x62 events come before the reply', async () => {
  const peer = await rawPeer();
  peer.socket.write(encodeRequest(7, Cmd.PING));
  const [regs, stopped, reply] = await peer.next(3);
  assert.deepEqual([regs.type, regs.id], [0x31, EVENT_ID]);
  assert.equal(regs.body.length, 42, 'C64 main CPU: 10 registers, 42 bytes');
  assert.deepEqual(
    decodeRegisters(regs.body).map((r) => r.id),
    [0x03, 0x00, 0x01, 0x02, 0x04, 0x37, 0x38, 0x05, 0x35, 0x36],
  );
  assert.deepEqual([stopped.type, stopped.id, stopped.body.length], [0x62, EVENT_ID, 2]);
  assert.deepEqual([reply.type, reply.error, reply.id, reply.body.length], [0x81, 0, 7, 0]);
  // an unknown command: error 0x83 with type 0x00 and our id; the stream stays in sync
  peer.socket.write(encodeRequest(8, 0x43));
  peer.socket.write(encodeRequest(9, Cmd.BANKS_AVAILABLE));
  const [unknown, banks] = await peer.next(2);
  assert.deepEqual([unknown.type, unknown.error, unknown.id, unknown.body.length], [0x00, 0x83, 8, 0]);
  assert.equal(banks.id, 9);
  assert.equal(banks.body.length, 48, 'BANKS_AVAILABLE for a C64 is 48 bytes');
  assert.deepEqual(
    decodeBanks(banks.body).map((b) => `${b.name}=${b.id}`),
    ['default=0', 'cpu=0', 'ram=1', 'rom=2', 'io=3', 'cart=4'],
  );
  // garbage before STX is skipped; a bad API byte drops 6 bytes silently (no reply)
  peer.socket.write(
    Buffer.concat([Buffer.from('garbage!'), Buffer.from([0x02, 0x07, 0, 0, 0, 0]), encodeRequest(10, Cmd.PING)]),
  );
  const [ping] = await peer.next(1);
  assert.deepEqual([ping.type, ping.id], [0x81, 10]);
  // EXIT resumes: reply, then 0x63
  peer.socket.write(encodeRequest(11, Cmd.EXIT));
  const [exit, resumed] = await peer.next(2);
  assert.deepEqual([exit.type, exit.id, resumed.type, resumed.id], [0xaa, 11, 0x63, EVENT_ID]);
  peer.socket.destroy();
});

test("memory: a full-range read says length 0 and carries 65536 bytes; errors come in VICE's order", async () => {
  const client = await MonitorClient.connect('127.0.0.1', port);
  try {
    const all = await client.request(Cmd.MEM_GET, encodeMemHeader(false, 0, 0xffff, 0, 1));
    assert.equal(all.readUInt16LE(0), 0, 'the u16 length wraps to 0 for 64 KiB');
    assert.equal(all.length, 2 + 65536);
    const cpu = await client.request(Cmd.MEM_GET, encodeMemHeader(false, 0xfffc, 0xfffd, 0, 0));
    assert.deepEqual([...cpu.subarray(2)], [0xe2, 0xfc], "bank cpu sees the stand-in KERNAL's reset vector");
    const errors: [Buffer, number][] = [
      [encodeMemHeader(false, 0x20, 0x10, 0, 0), 0x81], // start > end
      [encodeMemHeader(false, 0, 1, 0, 0).subarray(0, 6), 0x80], // body too short
      [encodeMemHeader(false, 0, 1, 5, 0), 0x02], // memspace
      [encodeMemHeader(false, 0, 1, 0, 9), 0x81], // bank not in the list
    ];
    for (const [body, code] of errors) {
      await assert.rejects(
        client.request(Cmd.MEM_GET, body),
        (e: unknown) => e instanceof MonitorErrorReply && e.errorCode === code,
      );
    }
    // a write under the KERNAL goes to RAM with bank cpu, is discarded with bank rom
    await client.request(
      Cmd.MEM_SET,
      Buffer.concat([encodeMemHeader(false, 0xe000, 0xe000, 0, 0), Buffer.from([0x5a])]),
    );
    await client.request(
      Cmd.MEM_SET,
      Buffer.concat([encodeMemHeader(false, 0xe001, 0xe001, 0, 2), Buffer.from([0x5a])]),
    );
    const ram = await client.request(Cmd.MEM_GET, encodeMemHeader(false, 0xe000, 0xe001, 0, 1));
    // $E001 keeps VICE's power-on pattern there ($FF: the top 16 KiB is the inverted half)
    assert.deepEqual([...ram.subarray(2)], [0x5a, 0xff]);
  } finally {
    client.close();
  }
});

test('checkpoints: listed by start address, survive a reconnect; a temporary one resumes the machine', async () => {
  const cpSet = (start: number, temporary = false) => {
    const b = Buffer.alloc(9);
    b.writeUInt16LE(start, 0);
    b.writeUInt16LE(start, 2);
    b[4] = 1;
    b[5] = 1;
    b[6] = 4;
    b[7] = temporary ? 1 : 0;
    return b;
  };
  const first = await MonitorClient.connect('127.0.0.1', port);
  const high = decodeCheckpoint(await first.request(Cmd.CHECKPOINT_SET, cpSet(0xc000)));
  const low = decodeCheckpoint(await first.request(Cmd.CHECKPOINT_SET, cpSet(0x1000)));
  assert.equal(high.number + 1, low.number);
  await assert.rejects(
    first.request(Cmd.CONDITION_SET, Buffer.concat([Buffer.from([high.number, 0, 0, 0, 5]), Buffer.from('A ==(')])),
    (e: unknown) => e instanceof MonitorErrorReply && e.errorCode === 0x8f,
  );
  first.close();
  await new Promise((r) => setTimeout(r, 50));
  const second = await MonitorClient.connect('127.0.0.1', port);
  try {
    const listed = (await second.requestList(Cmd.CHECKPOINT_LIST, Cmd.CHECKPOINT_LIST)).map(decodeCheckpoint);
    assert.deepEqual(
      listed.map((c) => c.start),
      [0x1000, 0xc000],
      'ordered by start address, not number',
    );
    assert.equal(listed[0].memspace, 0);
    for (const c of listed) await second.request(Cmd.CHECKPOINT_DELETE, Buffer.from([c.number, 0, 0, 0]));
    await assert.rejects(
      second.request(Cmd.CHECKPOINT_DELETE, Buffer.from([0xff, 0xff, 0xff, 0xff])),
      (e: unknown) => e instanceof MonitorErrorReply && e.errorCode === 0x01,
    );
    const events: number[] = [];
    second.onEvent((e) => events.push(e.type));
    events.length = 0; // drop the stop events of our first command
    const temp = decodeCheckpoint(await second.request(Cmd.CHECKPOINT_SET, cpSet(0x0000, true)));
    assert.equal(temp.number, 1, 'numbering restarts at 1 once every checkpoint is gone');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(events[0], 0x63, 'setting a temporary checkpoint resumes (RESUMED follows the reply)');
  } finally {
    second.close();
  }
});

test('one client at a time: a second connection is served only after the first leaves', async () => {
  const first = await MonitorClient.connect('127.0.0.1', port);
  const second = await MonitorClient.connect('127.0.0.1', port, { requestTimeoutMs: 400 });
  await first.request(Cmd.PING);
  await assert.rejects(
    second.request(Cmd.PING),
    (e: unknown) => (e as RetroError).code === 'timeout' && (e as RetroError).details.kind === 'protocol',
  );
  first.close();
  const reply = await second.request(Cmd.PING, new Uint8Array(0), { timeoutMs: 3000 });
  assert.equal(reply.length, 0);
  second.close();
});

test('a peer that is not VICE, or closes mid-reply, fails pending requests at once (transport), never hangs', async () => {
  const scripted = async (onRequest: (s: Socket) => void) => {
    const fake = createServer((s) => s.once('data', () => onRequest(s)));
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
    const address = fake.address() as { port: number };
    const client = await MonitorClient.connect('127.0.0.1', address.port, { requestTimeoutMs: 5000 });
    return { client, close: () => new Promise<void>((r) => fake.close(() => r())) };
  };
  const garbage = await scripted((s) => s.write('HTTP/1.1 400 Bad Request\r\n\r\n'));
  const started = Date.now();
  await assert.rejects(
    garbage.client.request(Cmd.PING),
    (e: unknown) => (e as RetroError).code === 'target_lost' && /STX/.test((e as Error).message),
  );
  assert.ok(Date.now() - started < 2000);
  await garbage.close();

  const midReply = await scripted((s) => {
    const head = Buffer.alloc(12);
    head[0] = 2;
    head[1] = 2;
    head.writeUInt32LE(65538, 2);
    head[6] = 0x01;
    head.writeUInt32LE(1, 8);
    s.end(Buffer.concat([head, Buffer.alloc(100)])); // promises 64 KiB, sends 100 bytes, closes
  });
  await assert.rejects(
    midReply.client.request(Cmd.MEM_GET, encodeMemHeader(false, 0, 0xffff, 0, 0)),
    (e: unknown) => (e as RetroError).code === 'target_lost' && (e as RetroError).details.kind === 'transport',
  );
  await midReply.close();

  const silent = await scripted(() => undefined);
  await assert.rejects(
    silent.client.request(Cmd.MEM_SET, Buffer.concat([encodeMemHeader(false, 0, 0, 0, 0), Buffer.from([1])]), {
      timeoutMs: 200,
    }),
    (e: unknown) =>
      (e as RetroError).code === 'timeout_may_have_mutated' &&
      /memory may have been written/.test((e as Error).message),
  );
  silent.client.close();
  await silent.close();
});
