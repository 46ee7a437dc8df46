/**
 * A fourth emulator is one folder plus one registry line: the toy connector (test/support/toy-connector/, a fake
 * CPU-less machine with one feature and one MCP tool) is added to the real registry by one array entry and then
 * reaches every place a connector should — launch.json attributes, DAP launch parsing, start_session's schema, the
 * SessionManager's boot, the MCP tool groups and the guarded mutation path — with no other file touched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CONNECTORS, toolGroupsOf } from '../../src/connectors/registry.js';
import { allLaunchOptions, launchJsonAttributes, parseLaunchConfig } from '../../src/session/launch-options.js';
import { SessionManager } from '../../src/session/manager.js';
import { toyConnector } from '../support/toy-connector/descriptor.js';
import { startHttpServerOn, connectHttpClient, call, callExpectingError } from '../mcp/mcp-helpers.js';

const REGISTRY = [...CONNECTORS, toyConnector]; // the one registry line
const TOY_FOLDER = join(__dirname, '../support/toy-connector');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('the toy connector is small: one folder, a few files', () => {
  const files = filesUnder(TOY_FOLDER);
  const lines = files.reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').length, 0);
  console.log(
    `toy connector: ${files.length} files, ${lines} lines (${files.map((f) => relative(TOY_FOLDER, f)).join(', ')}) + 1 registry line`,
  );
  assert.ok(files.length <= 4 && lines <= 120, `the toy connector grew to ${files.length} files, ${lines} lines`);
});

test('launch.json attributes, DAP launch parsing and start_session offer the new emulator', () => {
  const emulator = launchJsonAttributes(REGISTRY).properties.emulator as { enum: string[] };
  assert.ok(emulator.enum.includes('toy'), `launch.json emulator enum: ${emulator.enum.join(', ')}`);
  assert.ok(!(launchJsonAttributes(CONNECTORS).properties.emulator as { enum: string[] }).enum.includes('toy'));
  const { connector, config } = parseLaunchConfig(REGISTRY, { machine: 'toy' });
  assert.equal(connector, toyConnector, 'machine "toy" defaults to the toy connector');
  assert.equal(config.emulator, 'toy');
  assert.throws(() => parseLaunchConfig(REGISTRY, { machine: 'c64', emulator: 'toy' }), /not supported for machine/);
  const agentSchema = allLaunchOptions(REGISTRY, true).emulator;
  assert.equal(agentSchema.safeParse('toy').success, true);
  assert.equal(allLaunchOptions(CONNECTORS, true).emulator.safeParse('toy').success, false);
});

test('a session on the toy boots through the SessionManager and its tool mutates on the guarded path', async () => {
  const manager = new SessionManager({ connectors: REGISTRY });
  const server = await startHttpServerOn(manager, { groups: toolGroupsOf(REGISTRY) });
  const agent = await connectHttpClient(server, 'toy-agent');
  const other = await connectHttpClient(server, 'toy-bystander');
  try {
    const started = await call(agent, 'start_session', { machine: 'toy', wait: true });
    assert.equal(started.state, 'stopped');
    const memory = await call(agent, 'read_memory', { address: 0x0100, length: 3 });
    assert.match(JSON.stringify(memory), /0x0*100|256/, 'generic raw tools work on the new target');
    const loaded = await call(agent, 'load_tool_group', { group: 'toy' });
    assert.ok(loaded.visible_groups.includes('toy'), `load_tool_group toy: ${JSON.stringify(loaded)}`);
    assert.ok(
      (await agent.listTools()).tools.some((t) => t.name === 'toy_lamp'),
      'toy_lamp is listed',
    );
    assert.equal((await call(agent, 'toy_lamp', { on: true })).lit, true);
    await call(other, 'load_tool_group', { group: 'toy' });
    await callExpectingError(other, 'toy_lamp', { on: false }, 'lease_held');
  } finally {
    await agent.close();
    await other.close();
    await server.close();
    await manager.closeAll();
  }
});
