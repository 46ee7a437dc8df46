/**
 * MCP over stdio: the official SDK client spawns the bundled CLI
 * (`node dist/cli.js mcp`), which runs its own SessionManager. The agent
 * starts a session itself, debugs a little, and closing the client ends the
 * MAME process the CLI started.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildZxFixture, REPO_ROOT, type ZxFixture } from '../support/zx-fixture.js';
import { call, callExpectingError, waitUntilReady } from './mcp-helpers.js';
import { freshBundle } from '../support/bundle.js';

let fx: ZxFixture;
let outDir: string;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';

/** Child processes of `pid` whose command name matches `name` (Linux /proc). */
function childrenNamed(pid: number, name: RegExp): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && name.test(comm)) found.push(Number(entry));
    } catch {
      /* the process ended while we looked */
    }
  }
  return found;
}

const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

before(async () => {
  freshBundle();
  fx = await buildZxFixture();
  outDir = mkdtempSync(join(tmpdir(), 'mcp-stdio-out-'));
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(REPO_ROOT, 'dist', 'cli.js'), 'mcp', '--out', outDir, '--root', fx.dir], // the program's folder
    cwd: outDir,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: 'stdio-agent', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
});

after(async () => {
  await client?.close().catch(() => undefined);
  rmSync(outDir, { recursive: true, force: true });
});

test('over stdio an agent starts a session itself and debugs it', async () => {
  const started = await call(client, 'start_session', { program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir });
  const ready = await waitUntilReady(client, started.session_id);
  assert.equal(ready.location.function, 'main');
  assert.match(ready.lease.holder.label, /stdio-agent \(stdio\)/);
  const bp = await call(client, 'set_breakpoint', { function: 'plot' });
  assert.equal(bp.breakpoint.verified, true);
  const hit = await call(client, 'resume', { wait: true, timeout_ms: 30_000 });
  assert.equal(hit.location.function, 'plot');
  const bt = await call(client, 'backtrace');
  assert.deepEqual(
    bt.frames.slice(0, 3).map((f: { function: string }) => f.function),
    ['plot', 'draw', 'main'],
  );
  const mem = await call(client, 'read_memory', { address: 0, length: 16 });
  assert.equal(mem.hex, readFileSync(fx.rom).subarray(0, 16).toString('hex').toUpperCase());
  const shot = await call(client, 'screenshot', { output_path: 'screen.png' });
  assert.equal(shot.path, join(outDir, 'screen.png'));
  assert.ok(existsSync(shot.path));
  await callExpectingError(client, 'read_memory', { address: 0, length: 100_000 }, 'too_large');
  assert.equal((await call(client, 'session_status')).state, 'stopped');
});

test('closing the stdio client ends the CLI and the MAME it started', async () => {
  const cliPid = transport.pid;
  assert.ok(cliPid, 'the CLI runs');
  const mame = childrenNamed(cliPid, /mame/);
  assert.equal(mame.length, 1, `one MAME child of the CLI (found ${mame.join(',')}); stderr: ${stderr.slice(-500)}`);
  await client.close();
  const deadline = Date.now() + 20_000;
  while ((alive(mame[0]) || alive(cliPid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(alive(mame[0]), false, 'MAME was ended');
  assert.equal(alive(cliPid), false, 'the CLI exited');
  assert.doesNotMatch(stderr, /Error: |unhandled/i, `clean shutdown; stderr: ${stderr.slice(-500)}`);
});
