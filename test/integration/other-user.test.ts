/**
 * Another user of this machine gets nothing through any door: a process run
 * as uid 65534 with setpriv (we are root in the tests) talks to the MCP HTTP
 * endpoint, serve's DAP port, the MAME bridge and the built-in C64's TCP
 * monitor — even with the right secret in hand — and reads the discovery
 * file and the output folder. The same requests from our own uid are
 * answered, so each check can fail.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BridgeClient } from '../../src/connectors/mame/bridge-client.js';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { Cmd, encodeRequest } from '../../src/connectors/vice/protocol.js';
import { CONNECTORS, chooseView } from '../../src/connectors/registry.js';
import { serveDap } from '../../src/dap/serve.js';
import { privateOutputDir } from '../../src/core/files.js';
import { writeDiscoveryFile } from '../../src/host/mcp-discovery.js';
import { SessionManager } from '../../src/session/manager.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { INITIALIZE_BODY, startHttpServerOn } from '../mcp/mcp-helpers.js';

const NOBODY = 65534;
const SKIP =
  process.getuid?.() !== 0
    ? 'needs root, to run a process as another uid with setpriv'
    : !existsSync('/usr/bin/setpriv')
      ? 'needs setpriv (util-linux)'
      : false;

/** What the other process does: connect and send, or touch a file; prints what it got as JSON. */
const PROBE = `
const [kind, a, b] = process.argv.slice(1);
const fs = require('node:fs');
const say = (o) => process.stdout.write(JSON.stringify(o));
if (kind === 'tcp') {
  const s = require('node:net').connect(Number(a), '127.0.0.1', () => s.write(Buffer.from(b, 'base64')));
  const got = [];
  s.on('data', (d) => got.push(d));
  s.on('error', (e) => got.push(Buffer.from('')));
  const done = () => say({ received: Buffer.concat(got).toString('latin1') });
  // a connection the door closed ends the probe at once; one left open, after 1.5 s
  const timer = setTimeout(() => { s.destroy(); }, 1500);
  s.on('close', () => { clearTimeout(timer); done(); });
} else {
  try {
    if (kind === 'read') fs.readFileSync(a);
    if (kind === 'list') fs.readdirSync(a);
    if (kind === 'write') fs.writeFileSync(a, 'x');
    if (kind === 'mkdir') fs.mkdirSync(a, { recursive: true, mode: 0o777 });
    say({ ok: true });
  } catch (e) {
    say({ error: e.code });
  }
}`;

function probe(asOther: boolean, ...args: string[]): Promise<{ received?: string; ok?: true; error?: string }> {
  const node = [process.execPath, '-e', PROBE, ...args];
  const [cmd, ...argv] = asOther
    ? ['/usr/bin/setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...node]
    : node;
  return new Promise((resolve, reject) =>
    execFile(cmd!, argv, { timeout: 10_000 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout));
    }),
  );
}
const tcp = (asOther: boolean, port: number, bytes: string | Buffer) =>
  probe(asOther, 'tcp', String(port), Buffer.from(bytes).toString('base64'));

let root: string;
let manager: SessionManager;
let http: HttpMcpServer;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'retro-other-user-'));
  chmodSync(root, 0o755); // others may walk in: the doors themselves must keep them out
  manager = new SessionManager({ connectors: CONNECTORS });
});
after(async () => {
  await http?.close();
  await manager.closeAll();
  rmSync(root, { recursive: true, force: true });
});

test('MCP over HTTP: another uid gets no byte, even with the token; we get 200', { skip: SKIP }, async () => {
  http = await startHttpServerOn(manager);
  const post =
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${http.token}\r\n` +
    `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `Content-Length: ${Buffer.byteLength(INITIALIZE_BODY)}\r\nConnection: close\r\n\r\n${INITIALIZE_BODY}`;
  assert.equal((await tcp(true, http.port, post)).received, '');
  assert.match((await tcp(false, http.port, post)).received ?? '', /^HTTP\/1.1 200/);
});

test("serve's DAP port: another uid gets no byte, not even initialize's answer", { skip: SKIP }, async () => {
  const dap = await serveDap(manager, 0, { token: 'secret-token', chooseView });
  try {
    const body = JSON.stringify({ seq: 1, type: 'request', command: 'initialize', arguments: { adapterID: 'retro' } });
    const frame = `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    assert.equal((await tcp(true, dap.port, frame)).received, '');
    assert.match((await tcp(false, dap.port, frame)).received ?? '', /^Content-Length: \d+\r\n\r\n.*"initialize"/s);
  } finally {
    await dap.close();
  }
});

test("the MAME bridge: another uid's hello, even with the right token, is not our plugin", { skip: SKIP }, async () => {
  const bridge = await BridgeClient.listen();
  try {
    const hello = JSON.stringify({ event: 'hello', token: bridge.token }) + '\n';
    assert.equal((await tcp(true, bridge.port, hello)).received, '');
    assert.equal(bridge.connected, false, 'the stranger was not taken for the plugin');
    const ours = tcp(false, bridge.port, hello);
    await bridge.waitForConnection(5_000);
    assert.equal(bridge.connected, true, 'our own uid is');
    bridge.close();
    await ours;
  } finally {
    bridge.close();
  }
});

test("the built-in C64's TCP monitor: another uid gets no answer to a ping; we do", { skip: SKIP }, async () => {
  const monitor = new BuiltinMonitorServer();
  const port = await monitor.listen();
  try {
    const ping = encodeRequest(1, Cmd.PING);
    assert.equal((await tcp(true, port, ping)).received, '');
    const answer = Buffer.from((await tcp(false, port, ping)).received ?? '', 'latin1');
    assert.ok(
      answer.length >= 12 && answer[0] === 0x02,
      `our own uid gets the monitor's reply (${answer.length} bytes)`,
    );
  } finally {
    await monitor.close();
  }
});

test('the discovery file and its folder: another uid can neither read nor list them', { skip: SKIP }, async () => {
  const dir = join(root, 'discovery');
  const info = { pid: process.pid, port: 1, url: 'u', token: 'secret', workspace: [], startedAt: 1 };
  const path = await writeDiscoveryFile(info, dir);
  assert.deepEqual(await probe(true, 'read', path), { error: 'EACCES' });
  assert.deepEqual(await probe(true, 'list', dir), { error: 'EACCES' });
  assert.deepEqual(await probe(false, 'read', path), { ok: true });
});

test(
  'the output folder: another uid cannot look in or write; one it pre-created is not used',
  { skip: SKIP },
  async () => {
    const cache = join(root, 'cache');
    const out = privateOutputDir({ XDG_CACHE_HOME: cache });
    assert.equal(out, join(cache, 'retro-debug', 'output'));
    assert.deepEqual(await probe(true, 'list', out), { error: 'EACCES' });
    assert.deepEqual(await probe(true, 'write', join(out, 'planted.png')), { error: 'EACCES' });
    assert.deepEqual(await probe(false, 'write', join(out, 'ours.png')), { ok: true });
    // a shared cache folder where another user got there first
    const shared = join(root, 'shared');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    assert.deepEqual(await probe(true, 'mkdir', join(shared, 'retro-debug', 'output')), { ok: true });
    assert.equal(statSync(join(shared, 'retro-debug')).uid, NOBODY);
    const chosen = privateOutputDir({ XDG_CACHE_HOME: shared });
    assert.ok(!chosen.startsWith(shared), `the other user's folder is refused; a fresh private one is used: ${chosen}`);
    assert.equal(statSync(chosen).mode & 0o777, 0o700);
    assert.equal(statSync(chosen).uid, process.getuid?.());
    rmSync(chosen, { recursive: true, force: true });
  },
);
