/**
 * MCP resources with the official SDK client over HTTP: the machine knowledge
 * (generated from src/machines/ data) listed and read, and a live session's
 * screen (PNG) and source files on the built-in C64 with a cc65 program.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { KNOWLEDGE } from '../../src/mcp/resources.js';
import { ZX_MEMORY } from '../../src/machines/zx/hardware.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { call, connectHttpClient, startHttpServerOn } from './mcp-helpers.js';

let fx: C64Fixture;
let manager: SessionManager;
let server: HttpMcpServer;
let client: Client;

before(async () => {
  fx = await buildC64Fixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager);
  client = await connectHttpClient(server, 'reader');
});

after(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
  await manager?.closeAll();
});

const text = (r: { contents: unknown[] }) => String((r.contents[0] as { text?: unknown }).text);

test('machine knowledge: every resource listed, read as JSON from the data the decoders use', async () => {
  const listed = (await client.listResources()).resources.map((r) => r.uri);
  for (const k of KNOWLEDGE) assert.ok(listed.includes(`retro-debug://${k.path}`), `${k.path} listed`);
  const vic = JSON.parse(text(await client.readResource({ uri: 'retro-debug://c64/vic-ii' })));
  assert.equal(vic.groups[0].id, 'vic_ii');
  assert.ok(JSON.stringify(vic).includes('D020') || JSON.stringify(vic).includes('53280'), 'the border colour');
  const zx = JSON.parse(text(await client.readResource({ uri: 'retro-debug://zx/memory-map' })));
  assert.deepEqual(zx, JSON.parse(JSON.stringify(ZX_MEMORY)));
  const ints = JSON.parse(text(await client.readResource({ uri: 'retro-debug://dos/interrupts' })));
  assert.ok(ints['0x21'].functions['0x09'], 'INT 21h AH=09h');
  const ports = JSON.parse(text(await client.readResource({ uri: 'retro-debug://sprinter/ports' })));
  assert.ok(Object.keys(ports).length > 3);
});

test('a session: its screen as a PNG resource and its source files', async () => {
  const started = await call(client, 'start_session', { machine: 'c64', program: fx.prg, cwd: fx.dir, wait: true });
  const id = started.session_id;
  const listed = (await client.listResources()).resources.map((r) => r.uri);
  assert.ok(listed.includes(`retro-debug://session/${id}/screen`));
  const main = listed.find((u) => u.startsWith(`retro-debug://session/${id}/source/`) && u.endsWith('main.c'));
  assert.ok(main, `main.c listed: ${JSON.stringify(listed)}`);
  const screen = await client.readResource({ uri: `retro-debug://session/${id}/screen` });
  const png = Buffer.from(String((screen.contents[0] as { blob?: string }).blob), 'base64');
  assert.equal(screen.contents[0].mimeType, 'image/png');
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  const source = text(await client.readResource({ uri: main }));
  assert.equal(
    source,
    readFileSync(
      fx.sources.find((s) => s.endsWith('main.c'))!,
      'utf8',
    ),
  );
  await assert.rejects(client.readResource({ uri: `retro-debug://session/${id}/source/nope.c` }), /no source file/);
  await call(client, 'stop_session', {});
});
