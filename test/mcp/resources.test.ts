/**
 * MCP resources with the official SDK client over HTTP and over stdio (one
 * body, transports.ts): the machine knowledge (generated from src/machines/
 * data) listed and read within a byte budget; a live session's screen (PNG)
 * and source files on the built-in C64 with a cc65 program; a file a tool
 * wrote (screenshot output_path) linked in its reply and read back through
 * the link, and nothing outside the allowed roots readable that way.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { KNOWLEDGE } from '../../src/mcp/resources.js';
import { fileResourceUri } from '../../src/mcp/file-resources.js';
import { ZX_MEMORY } from '../../src/machines/zx/hardware.js';
import { INT33_FUNCTIONS } from '../../src/machines/dos/reference.js';
import { SETVMOD_MODES } from '../../src/machines/sprinter/video.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { call, callRaw } from './mcp-helpers.js';
import { TRANSPORTS, connectAgent, type ConnectedAgent } from './transports.js';

/** What resources/list may cost with no session (the machine knowledge and the templates' lists). */
const LIST_BUDGET = 2_500;

let fx: C64Fixture;
let manager: SessionManager;
let outDir: string;

before(async () => {
  fx = await buildC64Fixture();
  manager = new SessionManager({ connectors: CONNECTORS });
  outDir = mkdtempSync(join(tmpdir(), 'mcp-resources-'));
});

after(async () => {
  await manager?.closeAll();
  rmSync(outDir, { recursive: true, force: true });
});

const text = (r: { contents: unknown[] }) => String((r.contents[0] as { text?: unknown }).text);
const blob = (r: { contents: unknown[] }) => Buffer.from(String((r.contents[0] as { blob?: string }).blob), 'base64');

for (const over of TRANSPORTS)
  describe(`over ${over}`, () => {
    let connected: ConnectedAgent;
    let client: Client;
    before(async () => {
      connected = await connectAgent(over, manager, { name: `reader-${over}`, outputDir: outDir });
      client = connected.client;
    });
    after(() => connected?.close());

    test('machine knowledge: every resource listed within budget, read as JSON from the data the decoders use', async () => {
      const list = await client.listResources();
      const bytes = JSON.stringify(list.resources).length;
      console.log(`resources/list over ${over}: ${bytes} bytes, ${list.resources.length} resources`);
      assert.ok(bytes <= LIST_BUDGET, `resources/list ${bytes} bytes > budget ${LIST_BUDGET}`);
      const listed = list.resources.map((r) => r.uri);
      for (const k of KNOWLEDGE) assert.ok(listed.includes(`retro-debug://${k.path}`), `${k.path} listed`);
      const vic = JSON.parse(text(await client.readResource({ uri: 'retro-debug://c64/vic-ii' })));
      assert.equal(vic.groups[0].id, 'vic_ii');
      assert.ok(JSON.stringify(vic).includes('D020') || JSON.stringify(vic).includes('53280'), 'the border colour');
      const zx = JSON.parse(text(await client.readResource({ uri: 'retro-debug://zx/memory-map' })));
      assert.deepEqual(zx, JSON.parse(JSON.stringify(ZX_MEMORY)));
      const ints = JSON.parse(text(await client.readResource({ uri: 'retro-debug://dos/interrupts' })));
      assert.ok(ints['0x21'].functions['0x09'], 'INT 21h AH=09h');
      assert.equal(ints['0x33'].selector, 'AX', 'the mouse driver is selected by AX');
      assert.deepEqual(ints['0x33'].functions['0x03'], INT33_FUNCTIONS[3], 'INT 33h AX=0003h: position and buttons');
      const ports = JSON.parse(text(await client.readResource({ uri: 'retro-debug://sprinter/ports' })));
      assert.ok(Object.keys(ports).length > 3);
      const video = JSON.parse(text(await client.readResource({ uri: 'retro-debug://sprinter/video-modes' })));
      assert.deepEqual(video.setvmod['0x81'], SETVMOD_MODES[0x81], 'SETVMOD #81: 320×256, 256 colours');
      assert.equal(video.vram.mode_table_column, 0x300);
    });

    test('a session: its screen as a PNG resource, its source files, and a written file linked and read back', async () => {
      const started = await call(client, 'start_session', {
        machine: 'c64',
        program: fx.prg,
        cwd: fx.dir,
        wait: true,
      });
      const id = started.session_id;
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      assert.ok(listed.includes(`retro-debug://session/${id}/screen`));
      const main = listed.find((u) => u.startsWith(`retro-debug://session/${id}/source/`) && u.endsWith('main.c'));
      assert.ok(main, `main.c listed: ${JSON.stringify(listed)}`);
      const screen = await client.readResource({ uri: `retro-debug://session/${id}/screen` });
      assert.equal(screen.contents[0].mimeType, 'image/png');
      assert.equal(blob(screen).subarray(1, 4).toString(), 'PNG');
      const source = text(await client.readResource({ uri: main }));
      assert.equal(
        source,
        readFileSync(
          fx.sources.find((s) => s.endsWith('main.c'))!,
          'utf8',
        ),
      );
      await assert.rejects(client.readResource({ uri: `retro-debug://session/${id}/source/nope.c` }), /no source file/);

      // a screenshot saved to a file: the reply links it, the link reads the same bytes, the list shows it
      const shot: CallToolResult = await callRaw(client, 'screenshot', { output_path: `shot-${over}.png` });
      const path = (shot.structuredContent as { path: string }).path;
      const link = shot.content.find((c) => c.type === 'resource_link');
      assert.ok(
        link && link.type === 'resource_link',
        `a resource_link in ${JSON.stringify(shot.content.map((c) => c.type))}`,
      );
      assert.deepEqual([link.uri, link.mimeType], [fileResourceUri(path), 'image/png']);
      const back = await client.readResource({ uri: link.uri });
      assert.deepEqual(blob(back), readFileSync(path));
      assert.ok(
        (await client.listResources()).resources.some((r) => r.uri === link.uri),
        'listed once written',
      );
      await call(client, 'stop_session', {});
    });

    test('a file link reads only inside the allowed roots', async () => {
      const outside = mkdtempSync(join(tmpdir(), 'mcp-outside-'));
      try {
        writeFileSync(join(outside, 'secret.txt'), 'not for agents');
        await assert.rejects(
          client.readResource({ uri: fileResourceUri(join(outside, 'secret.txt')) }),
          /outside|root/i,
        );
        await assert.rejects(client.readResource({ uri: fileResourceUri('/etc/passwd') }), /outside|root/i);
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    });
  });
