/**
 * Agents cannot choose executables or raw emulator options unless the user
 * allowed it; the user's configured executables apply to agents' sessions.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { agentLaunchConfig, USER_ONLY_LAUNCH_OPTIONS } from '../../src/session/launch-policy.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn, REPO_ROOT } from './mcp-helpers.js';

const open: { client: Client; server: HttpMcpServer; manager: SessionManager }[] = [];
after(async () => {
  for (const o of open) {
    await o.client.close();
    await o.server.close();
    await o.manager.closeAll();
  }
});

async function agent(allow: boolean, mamePath?: string) {
  const manager = new SessionManager({ connectors: CONNECTORS });
  const server = await startHttpServerOn(manager, {
    profile: 'full',
    launchPolicy: { allowAgentLaunchOptions: allow, mamePath },
  });
  const client = await connectHttpClient(server, 'policy-agent');
  open.push({ client, server, manager });
  return { manager, client };
}

const base = { machine: 'spectrum', emulator: 'mame', program: '/nonexistent/program.rom' };

test('refused by default: each user-only option, with the way to allow it in the sentence', async () => {
  const { client, manager } = await agent(false);
  const attempts: Record<string, unknown>[] = [
    { ...base, mamePath: '/bin/sh' },
    { ...base, vicePath: '/bin/sh', machine: 'c64', emulator: 'vice' },
    { ...base, media: { autoboot_script: '/tmp/evil.lua' } },
    { ...base, extraArgs: ['-autoboot_script', '/tmp/evil.lua'] },
    { machine: 'dos', emulator: 'dosbox', program: '/x/GAME.COM', dos: { executable: '/bin/sh' } },
    { machine: 'dos', emulator: 'dosbox', program: '/x/GAME.COM', dos: { conf: '/tmp/evil.conf' } },
  ];
  for (const args of attempts) {
    const e = await callExpectingError(client, 'start_session', args, 'not_allowed');
    assert.match(e.message, /allowAgentLaunchOptions.*--allow-agent-launch-options/s);
    assert.equal(e.details.options.length, 1);
  }
  await callExpectingError(client, 'dosbox_launch', { program: '/x/GAME.COM', executable: '/bin/sh' }, 'not_allowed');
  await callExpectingError(client, 'dosbox_launch', { program: '/x/GAME.COM', conf: '/tmp/x.conf' }, 'not_allowed');
  assert.equal(manager.list().length, 0, 'nothing was started');
});

test('allowed by the user: the options pass through to the launcher', async () => {
  const { client, manager } = await agent(true);
  mkdirSync(join(REPO_ROOT, '.test-work'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.test-work', 'launch-policy-')); // inside the agent's roots
  writeFileSync(join(dir, 'program.rom'), Buffer.alloc(16384));
  const started = await call(client, 'start_session', {
    ...base,
    program: join(dir, 'program.rom'),
    mamePath: '/nonexistent/mame',
  });
  let st = await call(client, 'session_status', { session_id: started.session_id });
  for (let i = 0; i < 200 && st.phase !== 'failed'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    st = await call(client, 'session_status', { session_id: started.session_id });
  }
  assert.equal(st.phase, 'failed', 'the launch failed at the missing MAME, not at the policy');
  assert.match(JSON.stringify(st.failure), /nonexistent\/mame/);
  rmSync(dir, { recursive: true, force: true });
  assert.ok(manager.list().length <= 1);
});

test("the user's executables fill in what an agent's launch leaves out", () => {
  const policy = {
    allowAgentLaunchOptions: false,
    mamePath: '/opt/mame',
    vicePath: '/opt/x64sc',
    dosExecutable: '/opt/dx',
  };
  const cfg = agentLaunchConfig({ machine: 'dos', emulator: 'dosbox', dos: { backend: 'native' } }, policy);
  assert.equal(cfg.mamePath, '/opt/mame');
  assert.equal(cfg.vicePath, '/opt/x64sc');
  assert.equal(cfg.dos?.executable, '/opt/dx');
  assert.deepEqual(agentLaunchConfig({ machine: 'c64', emulator: 'builtin', media: {}, extraArgs: [] }, undefined), {
    machine: 'c64',
    emulator: 'builtin',
    media: {},
    extraArgs: [],
  });
  assert.ok(USER_ONLY_LAUNCH_OPTIONS.includes('dos.conf'));
});
