/**
 * The C64 tools over MCP (SDK client, HTTP): bad input refused before any
 * side effect, output files, and live memory sources on a real session.
 * The live part runs on the MAME ZX fixture: the byte-source, atomicity and
 * label rules are machine-independent, and MAME is the real emulator here.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { SessionApi } from '../../src/session/types.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { serveDap } from '../../src/dap/serve.js';
import { RecordingClient } from '../dap/dap-client.js';
import { buildZxFixture } from '../support/zx-fixture.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn, waitUntilReady } from '../mcp/mcp-helpers.js';

let dir: string;
let manager: SessionManager;
let server: HttpMcpServer;
let client: Client;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'c64-toolkit-tools-'));
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: 'full', outputDir: dir });
  client = await connectHttpClient(server, 'c64-tools');
});

after(async () => {
  await client?.close();
  await server?.close();
  await manager?.closeAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const inline = (hex: string) => ({ kind: 'inline', hex });
const zeros = (n: number) => '00'.repeat(n);

test('bad input: malformed hex, two framings, no framing, short sources, bad palette — all before any output', async () => {
  const out = 'never.png';
  let e = await callExpectingError(client, 'decode_c64_text', { source: inline('41 4G'), length: 1 }, 'bad_request');
  assert.match(e.message, /not hex bytes/);
  e = await callExpectingError(
    client,
    'decode_c64_text',
    { source: inline('414200'), length: 2, terminator: 0 },
    'bad_request',
  );
  assert.match(e.message, /exactly one framing.*length and terminator/);
  await callExpectingError(client, 'decode_c64_text', { source: inline('4142') }, 'bad_request');
  await callExpectingError(
    client,
    'decode_c64_text',
    { source: inline('4142'), length: 2, high_bit: 'annotate_reverse' },
    'bad_request',
  );
  e = await callExpectingError(
    client,
    'decode_c64_hires_bitmap',
    { bitmap: inline(zeros(8)), screen: inline('01'), columns: 2, rows: 1, output_path: out },
    'bad_request',
  );
  assert.match(e.message, /bitmap has 8 bytes; this geometry needs 16/);
  e = await callExpectingError(
    client,
    'decode_c64_sprites',
    { sprites: inline(zeros(64)), count: 2, output_path: out },
    'bad_request',
  );
  assert.match(e.message, /needs 127/);
  e = await callExpectingError(
    client,
    'decode_c64_charset',
    { charset: inline(zeros(8)), count: 1, palette: ['#000000', 'blue'], output_path: out },
    'bad_request',
  );
  assert.match(e.message, /Palette entry 1 \("blue"\) is not a colour/);
  await callExpectingError(
    client,
    'decode_c64_char_screen',
    { screen: inline('00'), charset: inline(zeros(8)), columns: 1, rows: 1, multicolor: true },
    'bad_request',
  );
  await callExpectingError(
    client,
    'decode_c64_charset',
    { charset: { kind: 'file', path: 'missing.bin' }, count: 1 },
    'not_found',
  );
  e = await callExpectingError(
    client,
    'decode_c64_charset',
    { charset: { kind: 'memory', bank: 'cpu', address: 0x1000 }, count: 1 },
    'no_session',
  );
  assert.ok(!existsSync(join(dir, out)), 'no refused call wrote its output file');
});

test('output files: written atomically, an existing file is refused and kept unless overwrite', async () => {
  const args = { charset: inline('FF' + zeros(7)), count: 1, foreground: 1, output_path: 'glyph.png' };
  const first = await call(client, 'decode_c64_charset', args);
  assert.equal(first.path, join(dir, 'glyph.png'));
  const before = readFileSync(first.path);
  assert.equal(before.length, first.png_bytes);
  const e = await callExpectingError(
    client,
    'decode_c64_charset',
    { ...args, charset: inline(zeros(8)) },
    'file_exists',
  );
  assert.match(e.message, /already exists; pass overwrite: true/);
  assert.ok(readFileSync(first.path).equals(before), 'the existing file is untouched');
  const again = await call(client, 'decode_c64_charset', { ...args, charset: inline(zeros(8)), overwrite: true });
  assert.ok(!readFileSync(again.path).equals(before), 'overwrite: true replaced it');
  // extra inline bytes are counted, not an error; short palettes are reported
  const extra = await call(client, 'decode_c64_charset', {
    charset: inline('FF' + zeros(9)),
    count: 1,
    foreground: 5,
    palette: ['#000000', [255, 255, 255]],
  });
  assert.deepEqual(extra.extra_inline_bytes, { charset: 2 });
  assert.deepEqual(extra.unmapped_indices, [5]);
  assert.equal(extra.palette, 'caller');
});

test('symbol profile without a session: get, and export as a VICE label file', async () => {
  const profile = await call(client, 'get_c64_symbol_profile', { groups: ['kernal_jump_table'] });
  assert.equal(profile.groups.length, 1);
  assert.equal(profile.groups[0].symbols.length, 39);
  assert.match(profile.sha256, /^[0-9a-f]{64}$/);
  const dry = await call(client, 'apply_c64_symbol_profile', { target: 'vice_label_file', output_path: 'c64.lbl' });
  assert.equal(dry.dry_run, true);
  assert.ok(!existsSync(join(dir, 'c64.lbl')), 'dry run writes nothing');
  const done = await call(client, 'apply_c64_symbol_profile', {
    target: 'vice_label_file',
    output_path: 'c64.lbl',
    dry_run: false,
  });
  const text = readFileSync(done.path, 'utf8');
  assert.match(text, /^al C:ffd2 \.CHROUT$/m);
  assert.match(text, /^al C:d020 \.EXTCOL$/m);
  assert.equal(text.trim().split('\n').length, done.labels);
  await callExpectingError(
    client,
    'apply_c64_symbol_profile',
    { target: 'vice_label_file', output_path: 'c64.lbl', dry_run: false },
    'file_exists',
  );
  await callExpectingError(client, 'get_c64_symbol_profile', { groups: ['nope'] }, 'bad_request');
});

test('live memory sources, atomic reads and session labels on a real session', { timeout: 240_000 }, async () => {
  const fx = await buildZxFixture();
  const started = await call(client, 'start_session', { program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir });
  await waitUntilReady(client, started.session_id);
  await call(client, 'claim_control');
  const session: SessionApi = manager.get(started.session_id);
  let reads = 0;
  const realRead = session.readMemory.bind(session);
  (session as { readMemory: SessionApi['readMemory'] }).readMemory = (a, n) => {
    reads++;
    return realRead(a, n);
  };

  // a memory source reads what read_memory sees
  const mem = await call(client, 'read_memory', { address: 0x0100, length: 16 });
  const text = await call(client, 'decode_c64_text', {
    source: { kind: 'memory', bank: 'cpu', address: 0x0100 },
    length: 16,
    encoding: 'screen',
  });
  assert.equal(text.consumed_bytes, mem.hex);
  assert.equal(text.session_id, started.session_id);
  assert.equal(text.state, 'stopped');

  // refusals come before any read
  reads = 0;
  await callExpectingError(
    client,
    'decode_c64_hires_bitmap',
    { bitmap: { kind: 'memory', bank: 'cpu', address: 0x4000 }, screen: inline('01'), columns: 2, rows: 1 },
    'bad_request',
  );
  let e = await callExpectingError(
    client,
    'decode_c64_sprites',
    { sprites: { kind: 'memory', bank: 'cpu', address: 0xfff0 } },
    'bad_request',
  );
  assert.match(e.message, /16 bytes before \$FFFF \(reads do not wrap\)/);
  await callExpectingError(
    client,
    'decode_c64_text',
    { source: { kind: 'memory', bank: 'cpu', address: 0x10000 }, length: 1 },
    'bad_address',
  );
  assert.equal(reads, 0, 'no memory was read for refused requests');

  // two memory sources while the machine runs: refused, or allowed with a warning
  await call(client, 'resume', { wait: false });
  e = await callExpectingError(
    client,
    'decode_c64_hires_bitmap',
    {
      bitmap: { kind: 'memory', bank: 'cpu', address: 0x4000 },
      screen: { kind: 'memory', bank: 'cpu', address: 0x5800 },
      columns: 2,
      rows: 1,
    },
    'not_stopped',
  );
  assert.match(e.message, /allow_non_atomic_reads/);
  assert.equal(reads, 0);
  const loose = await call(client, 'decode_c64_hires_bitmap', {
    bitmap: { kind: 'memory', bank: 'cpu', address: 0x4000 },
    screen: { kind: 'memory', bank: 'cpu', address: 0x5800 },
    columns: 2,
    rows: 1,
    allow_non_atomic_reads: true,
  });
  assert.match(loose.warnings[0], /^non_atomic_reads: bitmap, screen/);
  assert.equal(reads, 2);
  const single = await call(client, 'decode_c64_charset', {
    charset: { kind: 'memory', bank: 'cpu', address: 0x3d00 },
    count: 8,
  });
  assert.deepEqual(single.warnings, [], 'one memory source is one read: no warning');
  await call(client, 'pause', { wait: true });

  // labels: dry run, apply, idempotent re-apply, conflicts, shown by read_memory
  const dry = await call(client, 'apply_c64_symbol_profile', {});
  assert.equal(dry.applied, false);
  assert.equal((await call(client, 'list_c64_labels')).total, 0);
  const applied = await call(client, 'apply_c64_symbol_profile', { dry_run: false });
  assert.equal(applied.added, applied.labels);
  const again = await call(client, 'apply_c64_symbol_profile', { dry_run: false });
  assert.deepEqual([again.added, again.unchanged], [0, applied.labels]);
  assert.equal((await call(client, 'read_memory', { address: 0xd020, length: 1 })).symbol, 'EXTCOL');
  assert.equal((await call(client, 'read_memory', { address: 0xd805, length: 1 })).symbol, 'COLRAM+5');

  const defined = await call(client, 'define_c64_text', {
    address: 0x0100,
    bank: 'cpu',
    length: 16,
    encoding: 'screen',
    name: 'BOOT_TEXT',
  });
  assert.equal(defined.dry_run, true);
  assert.equal(defined.added, 1);
  const real = await call(client, 'define_c64_text', {
    address: 0x0100,
    bank: 'cpu',
    length: 16,
    encoding: 'screen',
    name: 'BOOT_TEXT',
    dry_run: false,
  });
  assert.equal(real.applied, true);
  const listed = await call(client, 'list_c64_labels', { name_contains: 'boot' });
  assert.deepEqual(
    listed.labels.map((l: { name: string; size: number }) => [l.name, l.size]),
    [['BOOT_TEXT', 16]],
  );
  assert.match(listed.labels[0].comment, /^screen upper_graphics text: /);
  e = await callExpectingError(
    client,
    'define_c64_text',
    { address: 0x0100, bank: 'cpu', length: 4, name: 'OTHER', dry_run: false },
    'bad_request',
  );
  assert.match(e.message, /conflict.*OTHER at 0x0100 vs existing BOOT_TEXT/);
  assert.equal(
    (await call(client, 'list_c64_labels', { name_contains: 'other' })).total,
    0,
    'nothing applied on conflict',
  );

  // VS Code sees the same labels: a Labels scope, and evaluate/hover on a label name
  const dap = await serveDap(manager);
  const dc = new RecordingClient();
  try {
    await dc.start(dap.port);
    await dc.initialize();
    await dc.attachRequest({ cwd: fx.dir } as DebugProtocol.AttachRequestArguments);
    const frame = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    const scopes = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
    const labelsScope = scopes.find((sc) => sc.name === 'Labels');
    assert.ok(labelsScope, `a Labels scope among ${scopes.map((sc) => sc.name).join(', ')}`);
    const vars = (await dc.variablesRequest({ variablesReference: labelsScope.variablesReference })).body.variables;
    assert.equal(vars.find((v) => v.name === 'EXTCOL')?.value, '$D020 border colour');
    assert.equal(
      vars.find((v) => v.name === 'BOOT_TEXT')?.value.startsWith('$0100-$010F screen upper_graphics text: '),
      true,
    );
    const hover = await dc.evaluateRequest({ expression: 'CHROUT', context: 'hover', frameId: frame.id });
    assert.equal(hover.body.result, '$FFD2-$FFD4 output a character');
    await assert.rejects(dc.evaluateRequest({ expression: 'NO_SUCH_NAME', context: 'hover', frameId: frame.id }));
  } finally {
    await dc.stop().catch(() => undefined);
    await dap.close();
  }
});
