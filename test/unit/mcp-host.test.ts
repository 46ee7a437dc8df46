import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  listDiscoveryFiles,
  processStartTime,
  pruneStaleDiscoveryFiles,
  removeDiscoveryFile,
  writeDiscoveryFile,
} from '../../src/host/mcp-discovery.js';
import { LazyMcpEndpoint, type RunningMcpServer } from '../../src/host/mcp-endpoint.js';
import { claudeCodeMcpJson, codexConfigToml, MCP_TOKEN_ENV } from '../../src/host/mcp-snippets.js';
import { RetroError } from '../../src/core/errors.js';

const root = mkdtempSync(join(tmpdir(), 'retro-mcp-host-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A real HTTP listener on 127.0.0.1, standing in for the MCP server's socket (port behaviour is what is tested). */
function listen(port: number, token: string): Promise<RunningMcpServer> {
  const server: Server = createServer((_, res) => res.end('ok'));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const actual = (server.address() as { port: number }).port;
      resolve({
        url: `http://127.0.0.1:${actual}/mcp`,
        port: actual,
        token,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

test('discovery file: private, atomic, found while the process lives, pruned when it died, removed on request', async () => {
  const dir = join(root, 'discovery');
  const info = {
    pid: process.pid,
    port: 4321,
    url: 'http://127.0.0.1:4321/mcp',
    token: 't'.repeat(43),
    workspace: ['/w'],
    startedAt: 1,
  };
  const path = await writeDiscoveryFile(info, dir);
  assert.equal(path, join(dir, `mcp-${process.pid}.json`));
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  const pidStart = processStartTime(process.pid);
  assert.match(pidStart ?? '', /^\d+$/, 'the start time is read from /proc');
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { ...info, pidStart });
  await writeDiscoveryFile({ ...info, port: 4322 }, dir); // this process's own file is replaced, not duplicated
  const dead = await writeDiscoveryFile({ ...info, pid: 2 ** 22 + 12345 }, dir); // above pid_max: never alive
  const live = await listDiscoveryFiles(dir);
  assert.deepEqual(
    live.map((i) => [i.pid, i.port]),
    [[process.pid, 4322]],
  );
  assert.equal(await pruneStaleDiscoveryFiles(dir), 1, "the dead editor's file is pruned");
  assert.throws(() => statSync(dead));
  assert.ok(statSync(path).isFile(), 'the live one stays');
  await removeDiscoveryFile(path);
  assert.deepEqual(await listDiscoveryFiles(dir), []);
  assert.deepEqual(await listDiscoveryFiles(join(root, 'nope')), []);
});

test('a live PID with another start time is not the editor that wrote the file (PID reuse): skipped, pruned', async () => {
  const dir = join(root, 'reused');
  const info = { pid: process.pid, port: 1, url: 'http://127.0.0.1:1/mcp', token: 't', workspace: [], startedAt: 1 };
  const path = await writeDiscoveryFile({ ...info, pidStart: '1' }, dir); // this PID, but not this process
  assert.deepEqual(await listDiscoveryFiles(dir), [], 'not trusted');
  writeFileSync(join(dir, 'mcp-1.json'), JSON.stringify({ ...info, pid: 1 })); // pid 1 lives; no start time: not trusted
  assert.deepEqual(await listDiscoveryFiles(dir), []);
  assert.equal(await pruneStaleDiscoveryFiles(dir), 2);
  assert.equal(existsSync(path), false);
});

/**
 * A real process writes its discovery file and is ended one way; `how` is the child's last act, run when the
 * parent has seen the file. Resolves with the path, the exit code and the signal that ended it.
 */
async function endWithFile(tag: string, how: string, signal?: NodeJS.Signals) {
  const dir = join(root, tag);
  const script = `
    const d = require('./src/host/mcp-discovery.ts');
    d.writeDiscoveryFile({ pid: process.pid, port: 1, url: 'u', token: 't', workspace: [], startedAt: 1 }, ${JSON.stringify(dir)})
      .then((path) => {
        d.removeDiscoveryFileOnExit(path);
        setInterval(() => {}, 1000);
        process.stdin.once('data', () => { ${how} });
        console.log(path);
      });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const path = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
  assert.equal(existsSync(path), true, 'the file is there while the process runs');
  const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (code, sig) => resolve([code, sig])),
  );
  if (signal) child.kill(signal);
  else child.stdin.write('go\n');
  const [code, sig] = await ended;
  return { dir, path, code, sig };
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  test(`the discovery file is removed when the process is ended by ${signal}, which still ends it`, async () => {
    const { path, sig } = await endWithFile(`signal-${signal}`, '', signal);
    assert.equal(sig, signal, 'the signal still ended the process');
    assert.equal(existsSync(path), false, 'the file went first');
  });
}

for (const [label, how, exitCode] of [
  ['process.exit()', 'process.exit(3)', 3],
  ['an uncaught exception', "throw new Error('boom')", 1],
] as const) {
  test(`the discovery file is removed when the process ends by ${label}`, async () => {
    const { path, code } = await endWithFile(`exit-${exitCode}`, how);
    assert.equal(code, exitCode);
    assert.equal(existsSync(path), false);
  });
}

test('SIGKILL leaves the file (nothing can catch it): a client ignores it, and the prune removes it', async () => {
  const { dir, path, sig } = await endWithFile('sigkill', '', 'SIGKILL');
  assert.equal(sig, 'SIGKILL');
  assert.equal(existsSync(path), true, 'the killed process could not remove it');
  assert.deepEqual(await listDiscoveryFiles(dir), [], "a dead process's file is not offered to a client");
  assert.equal(await pruneStaleDiscoveryFiles(dir), 1);
  assert.equal(existsSync(path), false, 'the stale file (and its token) is gone');
});

test('client snippets: Claude Code .mcp.json carries the token; Codex reads it from the environment', () => {
  const json = JSON.parse(claudeCodeMcpJson('http://127.0.0.1:5000/mcp', 'secret'));
  assert.deepEqual(json, {
    mcpServers: {
      'retro-debug': { type: 'http', url: 'http://127.0.0.1:5000/mcp', headers: { Authorization: 'Bearer secret' } },
    },
  });
  const toml = codexConfigToml('http://127.0.0.1:5000/mcp');
  assert.match(toml, /^\[mcp_servers\.retro_debug\]$/m);
  assert.match(toml, /^url = "http:\/\/127\.0\.0\.1:5000\/mcp"$/m);
  assert.match(toml, new RegExp(`^bearer_token_env_var = "${MCP_TOKEN_ENV}"$`, 'm'));
  assert.doesNotMatch(toml, /secret/);
});

test('endpoint starts once on demand, reuses a free remembered port, and falls back when it is taken', async () => {
  let starts = 0;
  const start = (o: { port: number; token: string }) => {
    starts++;
    return listen(o.port, o.token);
  };
  const first = new LazyMcpEndpoint({ start, token: 'tok', choosePort: () => ({ port: 0, fixed: false }) });
  assert.equal(first.running, undefined);
  const [a, b] = await Promise.all([first.ensureStarted(), first.ensureStarted()]);
  assert.equal(a, b);
  assert.equal(starts, 1);
  assert.equal((await fetch(a.url)).status, 200);
  const remembered = a.port;
  await first.close();
  await assert.rejects(first.ensureStarted(), (e: RetroError) => e.code === 'target_lost');

  const started: number[] = [];
  const again = new LazyMcpEndpoint({
    start,
    token: 'tok',
    choosePort: () => ({ port: remembered, fixed: false }),
    onStarted: (s) => {
      started.push(s.port);
    },
  });
  assert.equal((await again.ensureStarted()).port, remembered, 'a free remembered port is reused');
  const squatter = new LazyMcpEndpoint({ start, token: 'tok', choosePort: () => ({ port: remembered, fixed: false }) });
  const moved = await squatter.ensureStarted();
  assert.notEqual(moved.port, remembered, 'a taken remembered port is replaced by a random one');
  const fixed = new LazyMcpEndpoint({ start, token: 'tok', choosePort: () => ({ port: remembered, fixed: true }) });
  await assert.rejects(
    fixed.ensureStarted(),
    (e: RetroError) => e instanceof RetroError && new RegExp(`127\\.0\\.0\\.1:${remembered}`).test(e.message),
  );
  assert.deepEqual(started, [remembered]);
  await Promise.all([again.close(), squatter.close(), fixed.close()]);
});
