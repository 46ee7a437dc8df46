/**
 * A debug-info file with bad records: the parser skips them, and the user
 * hears which — file and line — in the Debug Console (the session's output,
 * which the DAP shows) and in session_status (MCP), instead of nothing. On
 * real MAME with the SDCC-built ZX fixture, its .cdb with two bad lines
 * inserted.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, test } from 'node:test';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { buildZxFixture } from '../support/zx-fixture.js';
import { call, connectHttpClient, startHttpServerOn, waitUntilReady } from '../mcp/mcp-helpers.js';

const work = mkdtempSync(join(tmpdir(), 'retro-dbginfo-warn-'));
const manager = new SessionManager({ connectors: CONNECTORS });
let server: HttpMcpServer | undefined;
after(async () => {
  await server?.close();
  await manager.closeAll();
  rmSync(work, { recursive: true, force: true });
});

/** The fixture's program and sources, with a .cdb whose lines 2 and 4 are damaged. */
async function damagedFixture(): Promise<{ rom: string; cdb: string }> {
  const fx = await buildZxFixture();
  for (const source of fx.sources) copyFileSync(source, join(work, basename(source)));
  const rom = join(work, 'spectrum.rom');
  copyFileSync(fx.rom, rom);
  const lines = readFileSync(fx.cdb, 'latin1').split('\n');
  lines.splice(1, 0, 'Q:not a record');
  lines.splice(3, 0, 'L:G$broken$0_0$0:zz'); // a linker record without a hex address
  const cdb = join(work, 'fixture.cdb');
  writeFileSync(cdb, lines.join('\n'));
  return { rom, cdb };
}

test('the bad records of a .cdb reach the Debug Console and session_status, with file and line', async () => {
  const { rom, cdb } = await damagedFixture();
  const loaded = await loadDebugInfo(cdb);
  assert.equal(loaded.warnings?.length, 2, JSON.stringify(loaded.warnings));
  assert.match(loaded.warnings![0]!, /fixture\.cdb line 2: unknown record type "Q"/);
  assert.match(loaded.warnings![1]!, /fixture\.cdb line 4: linker record has no hex address/);
  assert.ok(
    loaded.functions.some((f) => f.name === 'main'),
    'the good records still load',
  );

  server = await startHttpServerOn(manager, { roots: () => [work] });
  const client = await connectHttpClient(server, 'warnings-agent');
  const started = await call(client, 'start_session', { machine: 'spectrum', program: rom, debugInfo: cdb, cwd: work });
  const session = manager.get(started.session_id);
  const printed: string[] = [];
  // output already queued is in eventsSince; the Debug Console gets the same events through the DAP
  const ready = await waitUntilReady(client, started.session_id);
  for (const q of session.eventsSince(0).events) if (q.event.type === 'output') printed.push(q.event.text);
  assert.deepEqual(ready.debug_info_warnings, loaded.warnings, 'session_status lists them');
  assert.ok(
    printed.some((t) => /^Debug info: .*fixture\.cdb line 2: unknown record type "Q"/.test(t)),
    `the Debug Console output says it: ${JSON.stringify(printed)}`,
  );
  await client.close();
});
