/** Pure parts of the MCP front end: request guard, input parsing, atomic output files, PNG encoding. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { RetroError } from '../../src/core/errors.js';
import { checkRequest, isAllowedOrigin, isLoopbackHost } from '../../src/mcp/http-guard.js';
import { asciiPreview, parseAddress, parseHex } from '../../src/mcp/format.js';
import { resolveOutputPath, writeOutputFile } from '../../src/core/files.js';
import { encodePng } from '../../src/core/png.js';
import { findTool } from '../../src/connectors/registry.js';
import { invokeTool, type ToolContext } from '../../src/mcp/tool-kit.js';
import { catalogTools } from '../../src/mcp/tools/catalog.js';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as RetroError).code;
  }
  return 'none';
};

test('guard: loopback Host only, Origin absent or loopback, bearer token exact', () => {
  for (const h of ['127.0.0.1:5000', 'localhost', 'LOCALHOST:1', '[::1]:80']) assert.ok(isLoopbackHost(h), h);
  for (const h of [undefined, 'evil.com', '127.0.0.1.evil.com:80', '10.0.0.1', ''])
    assert.ok(!isLoopbackHost(h), String(h));
  assert.ok(isAllowedOrigin(undefined));
  assert.ok(isAllowedOrigin('http://127.0.0.1:3000'));
  assert.ok(isAllowedOrigin('vscode-webview://x') === false);
  assert.ok(!isAllowedOrigin('https://evil.example'));
  assert.ok(!isAllowedOrigin('null'));
  const token = 'a'.repeat(43);
  const ok = { host: '127.0.0.1:1', authorization: `Bearer ${token}` };
  assert.deepEqual(checkRequest(ok, token), { ok: true });
  assert.equal((checkRequest({ host: '127.0.0.1:1' }, token) as { status: number }).status, 401);
  assert.equal((checkRequest({ ...ok, authorization: `Bearer ${token}x` }, token) as { status: number }).status, 401);
  assert.equal((checkRequest({ ...ok, authorization: token }, token) as { status: number }).status, 401);
  assert.equal((checkRequest({ ...ok, host: 'evil.com' }, token) as { status: number }).status, 403);
  assert.equal((checkRequest({ ...ok, origin: 'https://evil.example' }, token) as { status: number }).status, 403);
});

test('addresses: numbers and strings mean the CPU view; typed ones pass; junk is bad_address', () => {
  assert.deepEqual(parseAddress(0x8000), { space: 'cpu', offset: 0x8000 });
  assert.deepEqual(parseAddress('0x4000'), { space: 'cpu', offset: 0x4000 });
  assert.deepEqual(parseAddress('$FF'), { space: 'cpu', offset: 255 });
  assert.deepEqual(parseAddress('100'), { space: 'cpu', offset: 100 });
  assert.deepEqual(parseAddress({ space: 'program', offset: 5, bank: 2 }), { space: 'program', offset: 5, bank: 2 });
  assert.equal(
    code(() => parseAddress(-1)),
    'bad_address',
  );
  assert.equal(
    code(() => parseAddress('main')),
    'bad_address',
  );
  assert.equal(
    code(() => parseAddress({ space: 'cpu', offset: -4 })),
    'bad_address',
  );
});

test('hex input and ASCII preview', () => {
  assert.deepEqual([...parseHex('de ad BE ef')], [0xde, 0xad, 0xbe, 0xef]);
  assert.deepEqual([...parseHex('0x0102')], [1, 2]);
  assert.equal(
    code(() => parseHex('abc')),
    'bad_request',
  );
  assert.equal(
    code(() => parseHex('zz')),
    'bad_request',
  );
  assert.equal(asciiPreview(Uint8Array.from([0x52, 0x45, 0x00, 0x7f, 0x7e])), 'RE..~');
});

test('output files: stay inside the folder, atomic, refuse to overwrite unless asked', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-out-'));
  assert.equal(
    code(() => resolveOutputPath(dir, '../escape.png')),
    'bad_request',
  );
  assert.equal(
    code(() => resolveOutputPath(dir, '/etc/passwd')),
    'bad_request',
  );
  assert.equal(
    code(() => resolveOutputPath(dir, '.')),
    'bad_request',
  );
  const path = await writeOutputFile(dir, 'sub/a.bin', Uint8Array.from([1, 2, 3]));
  assert.equal(path, join(dir, 'sub', 'a.bin'));
  assert.deepEqual([...readFileSync(path)], [1, 2, 3]);
  await assert.rejects(
    writeOutputFile(dir, 'sub/a.bin', Uint8Array.from([9])),
    (e: RetroError) => e.code === 'file_exists',
  );
  assert.deepEqual([...readFileSync(path)], [1, 2, 3], 'refused write left the file alone');
  await writeOutputFile(dir, 'sub/a.bin', Uint8Array.from([9]), true);
  assert.deepEqual([...readFileSync(path)], [9]);
  assert.deepEqual(readdirSync(join(dir, 'sub')), ['a.bin'], 'no temp files left behind');
  assert.ok(existsSync(path));
});

test('PNG encoding round-trips the RGBA pixels', () => {
  const rgba = Buffer.alloc(3 * 2 * 4);
  rgba.writeUInt32BE(0xff000080, 0);
  rgba.writeUInt32BE(0x00ff00ff, 20);
  const png = PNG.sync.read(encodePng({ width: 3, height: 2, rgba, maybeStale: false }));
  assert.equal(png.width, 3);
  assert.equal(png.height, 2);
  assert.deepEqual(png.data, rgba);
  assert.equal(
    code(() => encodePng({ width: 4, height: 4, rgba, maybeStale: false })),
    'internal',
  );
});

test('tool kit: direct calls validate arguments, map errors to {error}, and carry the envelope', async () => {
  const ctx = {
    manager: undefined,
    connection: undefined,
    outputDir: tmpdir(),
    groups: () => [{ name: 'raw', description: 'd', tools: ['read_memory'], loaded: true }],
  } as unknown as ToolContext;
  const bad = await invokeTool(findTool('read_memory')!, { address: 0, length: 'many' }, ctx);
  assert.equal(bad.isError, true);
  assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'bad_request');
  assert.match((bad.content[0] as { text: string }).text, /^bad_request: /);
  const groups = await invokeTool(catalogTools[0], {}, ctx);
  assert.ok(!groups.isError);
  assert.deepEqual(groups.structuredContent, {
    session_id: null,
    build_id: null,
    generation: null,
    state: null,
    groups: [{ name: 'raw', description: 'd', tools: ['read_memory'], loaded: true }],
  });
});
