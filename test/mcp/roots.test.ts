/**
 * Tools read and write only inside the allowed roots (output folder, workspace,
 * the client's declared roots), on real paths: an SDK client over HTTP.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn } from './mcp-helpers.js';

let base: string;
let manager: SessionManager;
let server: HttpMcpServer;
let plain: Client;
const dirs = { out: '', workspace: '', declared: '', outside: '' };

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'roots-test-'));
  for (const k of Object.keys(dirs) as (keyof typeof dirs)[]) mkdirSync((dirs[k] = join(base, k)));
  writeFileSync(join(dirs.outside, 'secret.bin'), 'HELLO');
  writeFileSync(join(dirs.outside, 'not-json.txt'), 'root:x:0:0:TOPSECRET');
  writeFileSync(join(dirs.declared, 'text.bin'), 'HI');
  writeFileSync(join(dirs.workspace, 'text.bin'), 'WS');
  symlinkSync(dirs.outside, join(dirs.out, 'escape'));
  symlinkSync('/dev/zero', join(dirs.out, 'zero.prg'));
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'full', outputDir: dirs.out, roots: () => [dirs.workspace] });
  plain = await connectHttpClient(server, 'no-roots');
});

after(async () => {
  await plain?.close();
  await server?.close();
  await manager?.closeAll();
  rmSync(base, { recursive: true, force: true });
});

const fileSource = (path: string) => ({ source: { kind: 'file', path }, length: 2 });

test('reads outside the roots are outside_roots, also through a symlinked folder in the output folder', async () => {
  const e = await callExpectingError(
    plain,
    'decode_c64_text',
    fileSource(join(dirs.outside, 'secret.bin')),
    'outside_roots',
  );
  assert.match(e.message, /outside the folders/);
  await callExpectingError(plain, 'decode_c64_text', fileSource('escape/secret.bin'), 'outside_roots');
  await callExpectingError(plain, 'decode_c64_text', fileSource('zero.prg'), 'outside_roots');
  await callExpectingError(plain, 'decode_c64_text', fileSource('a\u0000b'), 'bad_request');
  assert.equal((await call(plain, 'decode_c64_text', fileSource(join(dirs.workspace, 'text.bin')))).text_length, 2);
  await callExpectingError(plain, 'decode_c64_text', fileSource(join(dirs.declared, 'text.bin')), 'outside_roots');
});

test('dosbox_validate_profile: outside the roots refused; a non-JSON file is never echoed', async () => {
  await callExpectingError(
    plain,
    'dosbox_validate_profile',
    { path: join(dirs.outside, 'not-json.txt') },
    'outside_roots',
  );
  writeFileSync(join(dirs.out, 'bad.json'), 'root:x:0:0:TOPSECRET');
  const e = await callExpectingError(plain, 'dosbox_validate_profile', { path: 'bad.json' }, 'bad_request');
  assert.doesNotMatch(JSON.stringify(e), /TOPSECRET|root:x/);
  await callExpectingError(plain, 'dosbox_validate_profile', { path: 'zero.prg' }, 'outside_roots');
  writeFileSync(
    join(dirs.out, 'dump.json'),
    JSON.stringify({ name: 'x', marker: { source_dump: join(dirs.outside, 'secret.bin'), offset: 0, length: 4 } }),
  );
  await callExpectingError(plain, 'dosbox_validate_profile', { path: 'dump.json' }, 'outside_roots');
});

test("a client's declared roots are allowed to it, and only to it", async () => {
  const client = new Client(
    { name: 'with-roots', version: '1.0.0' },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: pathToFileURL(dirs.declared).href, name: 'declared' }],
  }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  );
  try {
    await client.listTools();
    assert.equal((await call(client, 'decode_c64_text', fileSource(join(dirs.declared, 'text.bin')))).text_length, 2);
    await callExpectingError(client, 'decode_c64_text', fileSource(join(dirs.outside, 'secret.bin')), 'outside_roots');
    await callExpectingError(plain, 'decode_c64_text', fileSource(join(dirs.declared, 'text.bin')), 'outside_roots');
  } finally {
    await client.close();
  }
});

test('a session loads no file from outside the roots: program, debug info, ROM folders, a DOS program', async () => {
  // loaded into the machine, a file's bytes could be read back as memory: the same rule as for file reads
  const prg = Uint8Array.from([0x01, 0x08, 0x60]);
  writeFileSync(join(dirs.outside, 'secret.prg'), prg);
  writeFileSync(join(dirs.workspace, 'ok.prg'), prg);
  symlinkSync(join(dirs.outside, 'secret.prg'), join(dirs.out, 'link.prg'));
  const c64 = { machine: 'c64', emulator: 'builtin' };
  await callExpectingError(
    plain,
    'start_session',
    { ...c64, program: join(dirs.outside, 'secret.prg') },
    'outside_roots',
  );
  await callExpectingError(plain, 'start_session', { ...c64, program: join(dirs.out, 'link.prg') }, 'outside_roots');
  await callExpectingError(
    plain,
    'start_session',
    { ...c64, program: join(dirs.workspace, 'ok.prg'), debugInfo: join(dirs.outside, 'secret.prg') },
    'outside_roots',
  );
  await callExpectingError(
    plain,
    'start_session',
    { machine: 'spectrum', emulator: 'mame', program: join(dirs.workspace, 'ok.prg'), rompath: [dirs.outside] },
    'outside_roots',
  );
  await callExpectingError(plain, 'dosbox_launch', { program: join(dirs.outside, 'secret.prg') }, 'outside_roots');
  assert.equal(manager.list().length, 0, 'nothing was started');
  const started = await call(plain, 'start_session', { ...c64, program: join(dirs.workspace, 'ok.prg') });
  assert.match(started.phase, /starting|ready/);
  await call(plain, 'stop_session', {});
});
