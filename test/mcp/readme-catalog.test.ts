// README.md and docs/ cannot drift from the tool catalog: every tool they name (a backticked verb_noun such as
// `read_memory`) exists in some group, the README's list of the default profile's tools is exactly what a client
// gets, its profile table is PROFILES, and the default tools/list result stays within the 16,000-byte budget
// measured as a client receives it (JSON.stringify of the result).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS, TOOL_GROUPS } from '../../src/connectors/registry.js';
import { DEFAULT_PROFILE, PROFILES } from '../../src/mcp/groups.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { connectHttpClient, startHttpServerOn } from './mcp-helpers.js';
import { REPO_ROOT } from '../support/zx-fixture.js';

const CATALOG_TOOLS = ['list_tool_groups', 'load_tool_group'];
const ALL_TOOLS = new Set([...CATALOG_TOOLS, ...TOOL_GROUPS.flatMap((g) => g.tools.map((t) => t.name))]);
/** words shaped like a tool name that are something else (a result field, a launch option) */
const NOT_TOOLS = new Set(['read_only', 'set_value', 'list_media']); // a result field; MAME's Lua field method; a bridge op
const TOOL_SHAPED =
  /^(list|load|unload|search|read|write|set|clear|get|start|stop|claim|release|step|run|dump|save|press|move|click|decode|apply|wait|take|type)_[a-z0-9_]+$/;

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const DOCS = readdirSync(join(REPO_ROOT, 'docs'))
  .filter((n) => n.endsWith('.md'))
  .map((n) => ({ name: `docs/${n}`, text: readFileSync(join(REPO_ROOT, 'docs', n), 'utf8') }));

let manager: SessionManager;
let server: HttpMcpServer;
let client: Client;

before(async () => {
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, { profile: DEFAULT_PROFILE });
  client = await connectHttpClient(server, 'readme-check');
});
after(async () => {
  await client?.close();
  await server?.close();
  await manager?.closeAll();
});

const ticked = (text: string) => [...text.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]);

test('every tool named in README.md and docs/ exists', () => {
  const unknown: string[] = [];
  for (const { name, text } of [{ name: 'README.md', text: README }, ...DOCS])
    for (const word of ticked(text))
      if (TOOL_SHAPED.test(word) && !NOT_TOOLS.has(word) && !ALL_TOOLS.has(word)) unknown.push(`${name}: ${word}`);
  assert.deepEqual(unknown, []);
});

test("the README's list of the default profile's tools is what a client gets, and its profiles are PROFILES", async () => {
  const listed = /Tools of the default profile:([\s\S]*?)\n\n/.exec(README)?.[1];
  assert.ok(listed, 'README has the sentence "Tools of the default profile: …"');
  const got = (await client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual([...new Set(ticked(listed).filter((w) => ALL_TOOLS.has(w)))].sort(), got);
  for (const [profile, groups] of Object.entries(PROFILES)) {
    if (profile === 'full') continue;
    const said = new RegExp('`' + profile + '` \\(([^)]*)\\)').exec(README)?.[1];
    assert.ok(said, `README describes the profile ${profile}`);
    const named = said
      .replace(/—.*$/, '')
      .replace(/`/g, '')
      .split(/,\s*|\s+\+\s+/)
      .map((s) => s.trim())
      .filter(Boolean)
      .flatMap((g) => (g === 'live' ? PROFILES.live : [g]));
    assert.deepEqual([...named].sort(), [...groups].sort(), `README's ${profile}`);
  }
});

test('the default tools/list result is within 16,000 bytes as a client receives it', async () => {
  const result = await client.listTools();
  const bytes = JSON.stringify(result).length;
  assert.ok(bytes <= 16_000, `${bytes} bytes`);
});
