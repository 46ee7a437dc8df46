/**
 * Real data: a C program built with cc65 for the C64 holds a sprite, a
 * multicolor sprite, a small character set, a screen with colour RAM and a
 * PETSCII string. The C64 tools read them out of the .prg (workspace-file
 * source, offsets from cc65's label file) over MCP and must render exactly
 * the pictures the C source was written from.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { call, connectHttpClient, startHttpServerOn } from '../mcp/mcp-helpers.js';
import { GLYPHS, MC_SPRITE, assertCharScreen, assertSprite, buildArtProgram, render } from './c64-toolkit-fixture.js';

let dir: string;
let prg: Buffer;
let offsets: Record<string, number>;
let manager: SessionManager;
let server: HttpMcpServer;
let client: Client;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'c64-toolkit-real-'));
  ({ prg, offsets } = buildArtProgram(dir));
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'static', outputDir: dir });
  client = await connectHttpClient(server, 'c64-real');
});

after(async () => {
  await client?.close();
  await server?.close();
  await manager?.closeAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => ({ kind: 'file', path: 'data.prg', offset: offsets[name] });

test('hires sprite from the cc65 program matches its source art', async () => {
  const { sc, img } = await render(client, 'decode_c64_sprites', {
    sprites: file('sprite_hires'),
    background: 6,
    foreground: 7,
  });
  assertSprite(img, 6, 7);
  assert.deepEqual(sc.bytes_read, { sprites: 63 });
  assert.deepEqual(sc.used_indices, [6, 7]);
});

test('multicolor sprite: pairs map to background, $D025, sprite colour, $D026, two pixels wide', async () => {
  const { img } = await render(client, 'decode_c64_sprites', {
    sprites: file('sprite_mc'),
    multicolor: true,
    background: 0,
    foreground: 2,
    multicolor1: 5,
    multicolor2: 8,
  });
  const colour = [0, 5, 2, 8];
  for (let y = 0; y < 21; y++)
    for (let x = 0; x < 24; x++) assert.equal(img.at(x, y), colour[Number(MC_SPRITE[y][x >> 1])], `pixel ${x},${y}`);
});

test('charset sheet and text screen with colour RAM match the source', async () => {
  const sheet = await render(client, 'decode_c64_charset', {
    charset: file('glyphs'),
    count: 4,
    sheet_columns: 2,
    background: 0,
    foreground: 1,
  });
  assert.deepEqual([sheet.img.width, sheet.img.height], [16, 16]);
  for (let g = 0; g < 4; g++)
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < 8; x++) {
        assert.equal(
          sheet.img.at((g % 2) * 8 + x, Math.floor(g / 2) * 8 + y),
          GLYPHS[g][y][x] === '#' ? 1 : 0,
          `glyph ${g} ${x},${y}`,
        );
      }
  const scr = await render(client, 'decode_c64_char_screen', {
    screen: file('screen'),
    charset: file('glyphs'),
    color: file('colours'),
    columns: 4,
    rows: 2,
    background: 6,
  });
  assertCharScreen(scr.img, 6);
  assert.deepEqual(
    scr.sc.bytes_read,
    { screen: 8, charset: 32, color: 8 },
    'only glyphs up to the highest screen code are read',
  );
});

test('the PETSCII string cc65 compiled decodes back to the source text', async () => {
  const lower = await call(client, 'decode_c64_text', {
    source: file('message'),
    terminator: 0,
    charset: 'lower_upper',
  });
  assert.equal(lower.text, 'Hello c64');
  assert.equal(lower.consumed, 10);
  assert.equal(
    lower.consumed_bytes,
    Buffer.from(prg.subarray(offsets.message, offsets.message + 10))
      .toString('hex')
      .toUpperCase(),
  );
  assert.match(lower.lossless, /^\{H:\$C8\}\{e:\$45\}/);
  const upper = await call(client, 'decode_c64_text', { source: file('message'), terminator: 0 });
  assert.equal(upper.text.slice(-8), 'ELLO C64');
  assert.ok(
    upper.text.codePointAt(0)! >= 0x2500,
    'in the upper/graphics set $C8 (shifted H) is a graphic, not a letter',
  );
  const found = await call(client, 'search_c64_text', {
    source: { kind: 'file', path: join(dir, 'data.prg'), offset: 0 },
    text: 'ello',
    charset: 'lower_upper',
  });
  assert.deepEqual(
    found.matches.map((m: { offset: number }) => m.offset),
    [offsets.message + 1],
  );
});
