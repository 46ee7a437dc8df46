/**
 * `retro-debug serve`: MCP over HTTP and the debug adapter over TCP on one
 * SessionManager. An agent starts a session over MCP; a DAP client attaches
 * to that same session and sees the same stop. SIGTERM ends the CLI and the
 * MAME it started.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect } from 'node:net';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import { buildZxFixture, REPO_ROOT, type ZxFixture } from '../support/zx-fixture.js';
import { call, connectHttpClient, waitUntilReady } from './mcp-helpers.js';
import { freshBundle } from '../support/bundle.js';

let fx: ZxFixture;
let dir: string;
let cli: ChildProcess;
let mcp: Client;
let dap: DebugClient | undefined;
let mcpUrl = '';
let dapPort = 0;
let out = '';

before(async () => {
  freshBundle();
  fx = await buildZxFixture();
  dir = mkdtempSync(join(tmpdir(), 'mcp-serve-'));
  cli = spawn(
    process.execPath,
    [join(REPO_ROOT, 'dist', 'cli.js'), 'serve', '--token-file', join(dir, 'token'), '--out', dir, '--root', fx.dir],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cli.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  cli.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const deadline = Date.now() + 20_000;
  while (!/DAP \(TCP\): 127\.0\.0\.1:\d+/.test(out) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  mcpUrl = /MCP \(Streamable HTTP\): (\S+)/.exec(out)?.[1] ?? '';
  dapPort = Number(/DAP \(TCP\): 127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
  assert.ok(mcpUrl && dapPort, `serve printed its endpoints: ${out}`);
});

after(async () => {
  await dap?.stop().catch(() => undefined);
  await mcp?.close().catch(() => undefined);
  if (cli.exitCode === null) cli.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('serve prints where the token is; the token file is private', () => {
  assert.match(out, new RegExp(`Bearer token in: ${join(dir, 'token')}`));
  assert.equal(statSync(join(dir, 'token')).mode & 0o077, 0, 'token file readable by the owner only');
  assert.match(readFileSync(join(dir, 'token'), 'utf8').trim(), /^[A-Za-z0-9_-]{43}$/, '256-bit token');
});

test('a DAP client attaches to the session an MCP agent started', async () => {
  mcp = await connectHttpClient({ url: mcpUrl, token: readFileSync(join(dir, 'token'), 'utf8').trim() }, 'serve-agent');
  const started = await call(mcp, 'start_session', { program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir });
  await waitUntilReady(mcp, started.session_id);
  const bp = await call(mcp, 'set_breakpoint', { function: 'draw' });
  const hit = await call(mcp, 'resume', { wait: true, timeout_ms: 30_000 });
  assert.equal(hit.location.function, 'draw');

  dap = new DebugClient('node', 'unused', 'retro', {}, true);
  await dap.start(dapPort);
  await dap.initializeRequest({ adapterID: 'retro', pathFormat: 'path', linesStartAt1: true, columnsStartAt1: true });
  const initialized = dap.waitForEvent('initialized', 30_000);
  const dapToken = readFileSync(join(dir, 'token'), 'utf8').trim();
  const attached = dap.attachRequest({ sessionId: started.session_id, dapToken } as never);
  await initialized;
  await dap.configurationDoneRequest();
  await attached;
  const stack = await dap.stackTraceRequest({ threadId: 1 });
  assert.equal(stack.body.stackFrames[0].name, 'draw', 'the DAP client sees the stop the agent caused');
  assert.equal(stack.body.stackFrames[1].name, 'main');
  const listed = await call(mcp, 'list_breakpoints');
  assert.ok(listed.breakpoints.some((b: { id: number }) => b.id === bp.breakpoint.id));
  assert.equal(
    (await call(mcp, 'session_status')).lease.held_by_you,
    true,
    "attaching did not steal the agent's lease",
  );
});

/** Sends raw bytes to the DAP port; resolves with everything the adapter answered before it closed. */
function rawDap(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(dapPort, '127.0.0.1', () => s.write(bytes));
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    // cleared at the close: a pending timer would keep the test process alive for the rest of its 5 s
    const timer = setTimeout(
      () => s.destroy(new Error(`the adapter kept the connection open; it answered ${got}`)),
      5000,
    );
    s.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    s.on('error', reject);
  });
}
const frame = (msg: object) => {
  const body = JSON.stringify(msg);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

test('the DAP port: HTTP is cut off; without the secret nothing but initialize gets through', async () => {
  const body = frame({ seq: 1, type: 'request', command: 'attach', arguments: {} });
  // a web page's plain POST: closed without any answer
  assert.equal(await rawDap(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n${body}`), '');
  for (const args of [{}, { dapToken: 'wrong' }, { dapToken: '' }]) {
    const answer = await rawDap(frame({ seq: 1, type: 'request', command: 'attach', arguments: args }));
    assert.match(answer, /"success":false.*dapToken/);
  }
  const launch = await rawDap(
    frame({ seq: 1, type: 'request', command: 'launch', arguments: { machine: 'spectrum', mamePath: '/bin/sh' } }),
  );
  assert.match(launch, /"success":false.*dapToken/);
  assert.match(await rawDap(frame({ seq: 1, type: 'request', command: 'evaluate', arguments: {} })), /refused/);
  const init = await rawDap(
    frame({ seq: 1, type: 'request', command: 'initialize', arguments: { adapterID: 'retro', pathFormat: 'path' } }) +
      frame({ seq: 2, type: 'request', command: 'threads' }),
  );
  assert.match(init, /"command":"initialize","success":true|"success":true.*"command":"initialize"/);
  assert.match(init, /"command":"threads".*refused|refused.*"command":"threads"/s);
});

test('SIGTERM ends serve and the MAME it started', async () => {
  const mamePids = spawnSync('pgrep', ['-P', String(cli.pid), 'mame'], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .filter(Boolean)
    .map(Number);
  assert.equal(mamePids.length, 1, 'one MAME child');
  const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
  cli.kill('SIGTERM');
  assert.equal(await exited, 143);
  const deadline = Date.now() + 10_000;
  while (existsSync(`/proc/${mamePids[0]}`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(existsSync(`/proc/${mamePids[0]}`), false, 'MAME was ended');
});
