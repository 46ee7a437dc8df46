/**
 * Real data from a live machine: the cc65-built art program runs on the
 * built-in C64 (VICE binary monitor protocol), and the C64 tools read its
 * sprite, charset, screen, colours and string out of the session's memory
 * (bank "cpu" and "ram"), applying the symbol profile to the session too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { SessionApi } from '../../src/session/types.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';
import { assertCharScreen, assertSprite, buildArtProgram, render, type ArtProgram } from './c64-toolkit-fixture.js';

let dir: string;
let art: ArtProgram;
let manager: SessionManager;
let server: HttpMcpServer;
let client: Client;
let session: SessionApi;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'c64-toolkit-live-'));
  art = buildArtProgram(dir);
  manager = new SessionManager({ connectors: CONNECTORS });
  ({ session } = manager.start(
    { machine: 'c64', emulator: 'builtin', program: join(dir, 'data.prg'), cwd: dir, stopOnEntry: true },
    { kind: 'cli', label: 'c64 toolkit test' },
  ));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const st = await session.status();
    if (st.phase === 'failed')
      assert.fail(`the built-in C64 failed to start: ${JSON.stringify(st.error)} ${st.progress.join(' | ')}`);
    if (st.phase === 'ready') break;
    if (Date.now() > deadline) assert.fail(`not ready: ${st.progress.join(' | ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  server = await startHttpServerOn(manager, { profile: 'static', outputDir: dir });
  client = await connectHttpClient(server, 'c64-live');
  await call(client, 'load_tool_group', { group: 'all' });
  await call(client, 'claim_control', { take_over: true });
  if ((await session.status()).state === 'running') await call(client, 'pause', { wait: true });
});

after(async () => {
  await client?.close();
  await server?.close();
  await manager?.closeAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
  // The built-in C64 (issue 4) currently leaves two loopback sockets open after its session stops, which would keep
  // this test process alive forever; end it once the results are out. Remove when that leak is fixed.
  setTimeout(() => process.exit(), 3000).unref();
});

const mem = (name: string, bank = 'cpu') => ({ kind: 'memory', bank, address: art.addresses[name] });

test('the loaded program in C64 memory is the .prg (sanity check of the source)', async () => {
  const read = await call(client, 'read_memory', {
    address: { space: 'cpu', bank: 'ram', offset: art.addresses.glyphs },
    length: 32,
  });
  assert.equal(
    read.hex,
    art.prg
      .subarray(art.offsets.glyphs, art.offsets.glyphs + 32)
      .toString('hex')
      .toUpperCase(),
  );
});

test('sprite, charset and text screen from live memory match the source art', async () => {
  const sprite = await render(client, 'decode_c64_sprites', {
    sprites: mem('sprite_hires'),
    background: 0,
    foreground: 1,
  });
  assertSprite(sprite.img, 0, 1);
  assert.equal(sprite.sc.session_id, session.id);
  const screen = await render(client, 'decode_c64_char_screen', {
    screen: mem('screen', 'ram'),
    charset: mem('glyphs'),
    color: mem('colours'),
    columns: 4,
    rows: 2,
    background: 6,
  });
  assertCharScreen(screen.img, 6);
  assert.deepEqual(screen.sc.warnings, [], 'stopped machine: the three reads are one snapshot');
});

test('the PETSCII string decodes from memory; the symbol profile labels the session', async () => {
  const text = await call(client, 'decode_c64_text', { source: mem('message'), terminator: 0, charset: 'lower_upper' });
  assert.equal(text.text, 'Hello c64');
  const found = await call(client, 'search_c64_text', {
    source: { kind: 'memory', bank: 'ram', address: 0x0801 },
    text: 'ello c64',
    charset: 'lower_upper',
    length: 0x2000,
  });
  assert.deepEqual(
    found.matches.map((m: { address: number }) => m.address),
    [art.addresses.message + 1],
  );
  await call(client, 'apply_c64_symbol_profile', { dry_run: false });
  assert.equal(
    (await call(client, 'read_memory', { address: { space: 'cpu', bank: 'io', offset: 0xd021 }, length: 1 })).symbol,
    'BGCOL0',
  );
  // the same address differs per bank: the KERNAL ROM under "rom", RAM under "ram"
  await callExpectingError(
    client,
    'decode_c64_text',
    { source: { kind: 'memory', bank: 'no-such-bank', address: 0xe000 }, length: 4 },
    'bad_address',
  );
});
