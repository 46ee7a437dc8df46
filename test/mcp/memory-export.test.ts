// dump_memory and search_memory on the built-in C64 and real MAME (spectrum),
// through the real MCP client: the dump's SHA-256 equals the SHA-256 of the
// bytes read_memory answers for the same range, the file holds exactly those
// bytes (a .prg with its load address first), paths outside the output folder
// are refused, and search finds bytes taken from memory at their address.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildC64Fixture } from '../support/c64-fixture.js';
import { buildZxFixture } from '../support/zx-fixture.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn, waitUntilReady } from './mcp-helpers.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const outputDir = mkdtempSync(join(tmpdir(), 'mem-export-out-'));
let manager: SessionManager;
let server: HttpMcpServer;
let agent: Client;

before(async () => {
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { outputDir, profile: 'raw' });
  agent = await connectHttpClient(server, 'dump-agent');
});

after(async () => {
  await agent?.close().catch(() => undefined);
  await server?.close();
  await manager?.closeAll();
});

async function readHex(start: number, length: number): Promise<Buffer> {
  return Buffer.from((await call(agent, 'read_memory', { address: start, length })).hex, 'hex');
}

/** The checks every machine must pass, on a stopped machine whose memory does not move. */
async function checkMachine(tag: string, start: number, length: number, at: number): Promise<void> {
  await call(agent, 'pause', { wait: true, timeout_ms: 10_000 }).catch(() => undefined);
  const bytes = await readHex(start, length);
  const dry = await call(agent, 'dump_memory', { start, length, dry_run: true });
  assert.equal(dry.bytes, length);
  assert.equal(dry.sha256, sha(bytes), 'dry run hash = hash of the bytes read');
  assert.equal(dry.file, undefined);

  const dumped = await call(agent, 'dump_memory', { start, length, file: `${tag}.bin` });
  assert.equal(dumped.sha256, sha(bytes));
  const onDisk = readFileSync(dumped.file);
  assert.deepEqual(onDisk, bytes, 'the file holds exactly the bytes read');
  assert.equal(dumped.file_sha256, sha(onDisk));
  await callExpectingError(agent, 'dump_memory', { start, length, file: `${tag}.bin` }, 'file_exists');
  const escape = await callExpectingError(
    agent,
    'dump_memory',
    { start, length, file: '../escape.bin' },
    'bad_request',
  );
  assert.match(escape.message, /inside the output folder/);
  await callExpectingError(agent, 'dump_memory', { start, length }, 'bad_request');
  await callExpectingError(agent, 'dump_memory', { start, length: 0x200000, dry_run: true }, 'too_large');

  // a pattern cut from the range (at `at`, in code) is found at its address, and every hit holds it
  const needle = bytes.subarray(at, at + 6);
  const found = await call(agent, 'search_memory', { hex: needle.toString('hex'), start, length });
  assert.ok(
    found.hits.some((h: { offset: number }) => h.offset === start + at),
    `${found.hits.length} hits, none at ${start + at}`,
  );
  for (const h of found.hits) assert.deepEqual(await readHex(h.offset, 6), needle);
  assert.equal(found.searched, length);
  await callExpectingError(agent, 'search_memory', { start, length }, 'bad_request');
  await callExpectingError(agent, 'search_memory', { hex: 'AB', text: 'x' }, 'bad_request');
}

describe('built-in C64', () => {
  test('dump = read, .prg with its load address, search finds memory bytes', async () => {
    const c64 = await buildC64Fixture();
    const started = await call(agent, 'start_session', { machine: 'c64', program: c64.prg, cwd: c64.dir, wait: true });
    await call(agent, 'claim_control', {});
    await checkMachine('c64', 0x0801, 0x1000, 0x800);
    const prg = await call(agent, 'dump_memory', { start: '$0801', length: 0x100, file: 'c64.prg', format: 'prg' });
    const file = readFileSync(prg.file);
    assert.deepEqual([...file.subarray(0, 2)], [0x01, 0x08], 'load address first');
    assert.deepEqual(file.subarray(2), await readHex(0x0801, 0x100));
    // the program as loaded from disk: its bytes are in memory at its load address
    const disk = readFileSync(c64.prg);
    assert.deepEqual(await readHex(0x0801, 16), disk.subarray(2, 18));
    const text = await call(agent, 'search_memory', { hex: disk.subarray(2, 10).toString('hex'), length: 0x10000 });
    assert.ok(text.hits.some((h: { offset: number }) => h.offset === 0x0801));
    await callExpectingError(
      agent,
      'dump_memory',
      { start: 0xff00, length: 0x200, file: 'x.prg', format: 'prg' },
      'bad_request',
    );
    await call(agent, 'stop_session', { session_id: started.session_id });
  });
});

describe('MAME spectrum', () => {
  test('dump = read across 64 KiB, search finds memory bytes', async () => {
    const zx = await buildZxFixture();
    const started = await call(agent, 'start_session', {
      machine: 'spectrum',
      program: zx.rom,
      debugInfo: zx.cdb,
      cwd: zx.dir,
    });
    await waitUntilReady(agent, started.session_id);
    await call(agent, 'claim_control', {});
    await checkMachine('zx', 0, 0x10000, 0x10);
    await call(agent, 'stop_session', { session_id: started.session_id });
  });
});
