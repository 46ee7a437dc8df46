/**
 * The doors other than MCP: the built-in C64's monitor (in process for its
 * session, TCP only on request, bounded), the MAME bridge's hello window, and
 * a malformed VICE monitor event ending one connection, not the process.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { before, test } from 'node:test';
import { BridgeClient, MAX_HELLO_BYTES, MAX_UNAUTHENTICATED } from '../../src/connectors/mame/bridge-client.js';
import { BuiltinMonitorServer, MAX_WAITING } from '../../src/connectors/builtin-c64/monitor-server.js';
import { MonitorClient } from '../../src/connectors/vice/monitor-client.js';
import { EVENT_ID, Evt, encodeResponse } from '../../src/connectors/vice/protocol.js';
import { ViceTarget } from '../../src/connectors/vice/vice-target.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';

let fx: C64Fixture;
before(async () => {
  fx = await buildC64Fixture();
});

/** Inodes of the TCP sockets this process listens on (from /proc, so nothing is assumed). */
function listeningInodes(): Set<string> {
  const ours = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (m) ours.add(m[1]);
    } catch {
      /* fd closed meanwhile */
    }
  }
  const listening = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A' && ours.has(f[9])) listening.add(f[9]);
    }
  }
  return listening;
}

const closed = (s: Socket) => new Promise<void>((r) => (s.destroyed ? r() : s.once('close', () => r())));
const connected = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });

test('a built-in C64 session opens no port; its machine stops when the session goes', async () => {
  const manager = new SessionManager({ connectors: CONNECTORS });
  const before = listeningInodes();
  const { session } = manager.start(
    { machine: 'c64', emulator: 'builtin', program: fx.prg, cwd: fx.dir },
    { kind: 'mcp', label: 'doors' },
  );
  try {
    for (let i = 0; i < 400 && (await session.status()).phase !== 'ready'; i++)
      await new Promise((r) => setTimeout(r, 25));
    assert.equal((await session.status()).phase, 'ready');
    const opened = [...listeningInodes()].filter((i) => !before.has(i));
    assert.deepEqual(opened, [], 'the built-in session listens on no TCP port');
  } finally {
    await manager.closeAll();
  }
});

test('the TCP monitor on request: one client, a bounded queue; the owner leaving closes it', async () => {
  const server = new BuiltinMonitorServer();
  const own = server.connectInProcess();
  const port = await server.listen();
  const sockets = [];
  // the session's in-process connection is the one client: TCP peers wait, and only MAX_WAITING of them
  for (let i = 0; i < MAX_WAITING; i++) sockets.push(await connected(port));
  const extra = await connected(port).catch(() => undefined);
  if (extra) await closed(extra); // accepted by the kernel, then dropped at once
  for (const s of sockets) assert.equal(s.destroyed, false, 'the client and the queue are kept');
  own.destroy(); // the session's connection goes: nothing keeps serving the machine
  await Promise.all(sockets.map(closed));
  await assert.rejects(connected(port), /ECONNREFUSED/);
  assert.equal(server.isRunning, false);
});

test('a malformed VICE event (REGISTERS, count 6, no items) ends that connection as target_lost', async () => {
  const vice = new BuiltinMonitorServer();
  const vicePort = await vice.listen();
  // a proxy between client and server that can slip one bad frame in
  let toClient: Socket | undefined;
  const proxy = createServer((down) => {
    toClient = down;
    const up = connect(vicePort, '127.0.0.1');
    down.pipe(up).pipe(down);
    down.on('error', () => undefined);
    up.on('error', () => undefined);
    down.on('close', () => up.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  const address = proxy.address();
  const client = await MonitorClient.connect('127.0.0.1', typeof address === 'object' && address ? address.port : 0);
  const target = await ViceTarget.open(client, { kind: 'vice' });
  try {
    const exited = new Promise<string>((r) =>
      target.events.on((e) => {
        if (e.type === 'exited') r(e.reason);
      }),
    );
    await target.run.registers(); // the registers VICE sent as it stopped are kept: a lost connection must not answer with them
    toClient!.write(encodeResponse(Evt.REGISTERS, 0, EVENT_ID, Buffer.from([6, 0])));
    assert.match(await exited, /protocol error.*malformed/);
    await assert.rejects(target.run.registers(), (e: Error & { code?: string }) => e.code === 'target_lost');
  } finally {
    // a failed check still stops the built-in machine (it would keep the test process running)
    await target.close().catch(() => undefined);
    proxy.close();
    await vice.close();
  }
});

test('MAME bridge: a stranger is cut off after a few hundred bytes; connections are capped; the listener closes', async () => {
  const client = await BridgeClient.listen();
  try {
    const talker = await connected(client.port);
    talker.on('error', () => undefined);
    talker.write(Buffer.alloc(MAX_HELLO_BYTES + 1, 0x41)); // no newline: a huge "hello" never buffers
    await closed(talker);

    const idle: Socket[] = [];
    for (let i = 0; i < MAX_UNAUTHENTICATED; i++) idle.push(await connected(client.port));
    const over = await connected(client.port).catch(() => undefined);
    if (over) await closed(over);
    for (const s of idle) assert.equal(s.destroyed, false);
    for (const s of idle) s.destroy();
    await new Promise((r) => setTimeout(r, 50));

    const plugin = await connected(client.port);
    plugin.write(JSON.stringify({ event: 'hello', token: client.token }) + '\n');
    await client.waitForConnection(2000);
    await assert.rejects(connected(client.port), /ECONNREFUSED/, 'the listener closed with the hello');
  } finally {
    client.close();
  }
});
