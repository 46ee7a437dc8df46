/**
 * drive8 from an agent (MCP start_session) under the roots rule: a folder
 * inside the client's roots serves device 8 to a real cc65 program (it reads
 * a file and writes one there); a folder outside them, also through a
 * symlink in the output folder, is refused `outside_roots` before anything starts.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn } from './mcp-helpers.js';

let base: string;
let manager: SessionManager;
let server: HttpMcpServer;
let agent: Client;
const dirs = { out: '', workspace: '', outside: '' };
let disk: string;
let line: number;

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'drive8-roots-'));
  for (const k of Object.keys(dirs) as (keyof typeof dirs)[]) mkdirSync((dirs[k] = join(base, k)));
  const src = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'drive8');
  const built = await buildCc65Program(src, ['drive8.c']);
  disk = join(dirs.workspace, 'disk');
  mkdirSync(disk);
  for (const f of ['program.prg', 'program.dbg']) copyFileSync(join(built, f), join(disk, f));
  copyFileSync(join(src, 'drive8.c'), join(disk, 'drive8.c'));
  writeFileSync(join(disk, 'greeting.txt'), Buffer.from('HELLO AGENT\r', 'latin1'));
  writeFileSync(join(dirs.outside, 'greeting.txt'), 'SECRET');
  symlinkSync(dirs.outside, join(dirs.out, 'escape'));
  line =
    readFileSync(join(src, 'drive8.c'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('LINE:done')) + 1;
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'full', outputDir: dirs.out, roots: () => [dirs.workspace] });
  agent = await connectHttpClient(server, 'drive8-agent');
});

after(async () => {
  await agent?.close();
  await server?.close();
  await manager?.closeAll();
  rmSync(base, { recursive: true, force: true });
});

test('a drive8 folder outside the roots is refused before a session starts, also through a symlink', async () => {
  const program = join(disk, 'program.prg');
  for (const drive8 of [dirs.outside, join(dirs.out, 'escape'), '../../outside']) {
    const e = await callExpectingError(
      agent,
      'start_session',
      { machine: 'c64', program, cwd: disk, drive8, wait: true },
      'outside_roots',
    );
    assert.match(e.message, /outside the folders/);
  }
  assert.equal(manager.list().length, 0, 'no session was started');
});

test('a drive8 folder inside the roots: the program reads a file from device 8 and writes one there', async () => {
  const started = await call(agent, 'start_session', {
    machine: 'c64',
    program: 'program.prg',
    cwd: disk,
    drive8: '.',
    wait: true,
  });
  assert.equal(started.phase, 'ready');
  const at = await call(agent, 'run_to', { file: 'drive8.c', line, timeout_ms: 30_000 });
  assert.equal(at.reached, true);
  const mem = await call(agent, 'read_memory', { address: 0x0340, length: 9 });
  const bytes = Buffer.from(mem.hex.replace(/\s+/g, ''), 'hex');
  assert.equal(bytes[0], 8, 'eight bytes read from greeting.txt');
  assert.equal(bytes.subarray(1, 9).toString('latin1'), 'HELLO AG');
  // cc65 writes PETSCII: "WROTE" in upper case is $D7 $D2 $CF $D4 $C5
  assert.deepEqual([...readFileSync(join(disk, 'written.txt'))], [0xd7, 0xd2, 0xcf, 0xd4, 0xc5]);
  await call(agent, 'stop_session', {});
});
