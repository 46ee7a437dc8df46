/**
 * VICE's launch options reach x64sc's command line, and no launch option is ever dropped: through MCP
 * start_session (the user allowed agents' launch options) a drive8 folder and extraArgs are on the command line an
 * x64sc stand-in records (a script that writes its arguments and exits); an option of another emulator, or of none,
 * is refused with a sentence saying whose it is; VS Code's own attributes of a launch request are not options;
 * drive8/extraArgs when attaching to a running VICE are refused, not ignored.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { viceArgs } from '../../src/connectors/vice/launcher.js';
import { parseLaunchArgs } from '../../src/dap/launch-args.js';
import type { HttpMcpServer } from '../../src/mcp/http.js';
import { SessionManager } from '../../src/session/manager.js';
import { parseLaunchConfig } from '../../src/session/launch-options.js';
import { call, callExpectingError, connectHttpClient, startHttpServerOn } from './mcp-helpers.js';
import { ODD_NAMES } from '../support/odd-names.js';

let dir: string;
let manager: SessionManager;
let server: HttpMcpServer;
let agent: Client;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vice-launch-options-'));
  mkdirSync(join(dir, 'disk'));
  writeFileSync(join(dir, 'program.prg'), Buffer.from([0x01, 0x08, 0x00, 0x00]));
  // x64sc's stand-in: records its arguments, one a line, and exits (the launch then fails: no monitor)
  writeFileSync(join(dir, 'x64sc'), `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(dir, 'args.txt')}"\nexit 3\n`);
  chmodSync(join(dir, 'x64sc'), 0o755);
  manager = new SessionManager({ connectors: CONNECTORS });
  server = await startHttpServerOn(manager, {
    profile: 'full',
    roots: () => [dir],
    launchPolicy: { allowAgentLaunchOptions: true },
  });
  agent = await connectHttpClient(server, 'vice-options-agent');
});

after(async () => {
  await agent?.close();
  await server?.close();
  await manager?.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

async function failedLaunch(sessionId: string): Promise<unknown> {
  for (let i = 0; i < 400; i++) {
    const st = await call(agent, 'session_status', { session_id: sessionId });
    if (st.phase === 'failed') return st.failure;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail('the launch did not end');
}

test("start_session: drive8 and extraArgs are on x64sc's command line, in order, after the defaults", async () => {
  const started = await call(agent, 'start_session', {
    machine: 'c64',
    emulator: 'vice',
    program: join(dir, 'program.prg'),
    cwd: dir,
    vicePath: join(dir, 'x64sc'),
    drive8: 'disk',
    extraArgs: ['-truedrive', '-fs9', join(dir, 'disk')],
  });
  await failedLaunch(started.session_id);
  assert.ok(existsSync(join(dir, 'args.txt')), 'the stand-in ran');
  const args = readFileSync(join(dir, 'args.txt'), 'utf8').trimEnd().split('\n');
  assert.equal(args[0], '-default');
  assert.ok(args.includes('-binarymonitor'));
  const tail = args.slice(args.indexOf('-iecdevice8'));
  assert.deepEqual(tail, [
    '-iecdevice8',
    '-device8',
    '1',
    '-fs8',
    join(dir, 'disk'),
    '-truedrive',
    '-fs9',
    join(dir, 'disk'),
  ]);
});

test('a .d64 as drive8 is attached to drive 8 (launch.json: relative to cwd)', () => {
  const { config } = parseLaunchArgs(
    { type: 'retro', machine: 'c64', emulator: 'vice', program: 'a.prg', drive8: 'games.d64', cwd: dir },
    CONNECTORS,
  );
  const args = viceArgs(6502, config);
  assert.deepEqual(args.slice(args.indexOf('-8')), ['-8', join(dir, 'games.d64')]);
  assert.equal(args.includes('-fs8'), false);
});

test("an option of another emulator or of none is refused, saying whose it is; VS Code's attributes are not options", async () => {
  const media = await callExpectingError(
    agent,
    'start_session',
    { machine: 'c64', emulator: 'vice', program: join(dir, 'program.prg'), rompath: dir },
    'bad_request',
  );
  assert.match(media.message, /"rompath" is an option of emulator "mame", not of "vice"/);
  const unknown = await callExpectingError(
    agent,
    'start_session',
    { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), turbo: true },
    'bad_request',
  );
  assert.match(unknown.message, /turbo/);
  assert.throws(
    () => parseLaunchConfig(CONNECTORS, { machine: 'c64', emulator: 'builtin', extraArgs: ['-x'] }),
    /"extraArgs" is an option of emulator "mame", "vice", not of "builtin"/,
  );
  const dap = parseLaunchArgs(
    {
      type: 'retro',
      request: 'launch',
      name: 'C64',
      __sessionId: 'x',
      preLaunchTask: 'build',
      machine: 'c64',
      emulator: 'vice',
      program: 'a.prg',
      drive8: 'disk',
    },
    CONNECTORS,
  );
  assert.deepEqual([dap.config.emulator, dap.config.drive8], ['vice', 'disk']);
  assert.throws(
    () =>
      parseLaunchArgs({ type: 'retro', machine: 'c64', emulator: 'vice', program: 'a.prg', drvie8: 'x' }, CONNECTORS),
    /"drvie8" is not a launch option/,
  );
  assert.equal(manager.list().length <= 1, true, 'nothing started for a refused launch');
});

test('drive8 or extraArgs when attaching to a running VICE: refused, not ignored', async () => {
  const client = manager.start(
    { machine: 'c64', emulator: 'vice', viceMonitor: '127.0.0.1:1', drive8: dir, program: join(dir, 'program.prg') },
    { kind: 'cli', label: 'attach with drive8' },
  );
  await assert.rejects(client.whenReady(10_000), /drive8 start x64sc with them/);
});

// the odd names that test/integration/odd-paths.test.ts runs live on the built-in C64 (whose monitor is VICE's): here they must reach x64sc itself, as the executable, the program's folder and drive 8, byte for byte
for (const { label, folder } of ODD_NAMES) {
  test(`x64sc under ${label}, with drive8 and extraArgs there: started with those paths as they are`, async () => {
    const odd = join(dir, folder);
    mkdirSync(join(odd, 'disk Ж "q"'), { recursive: true });
    const x64sc = join(odd, 'x64sc $y');
    writeFileSync(x64sc, readFileSync(join(dir, 'x64sc')));
    chmodSync(x64sc, 0o755);
    writeFileSync(join(odd, 'p "q".prg'), Buffer.from([0x01, 0x08, 0x00, 0x00]));
    rmSync(join(dir, 'args.txt'), { force: true });
    const started = await call(agent, 'start_session', {
      machine: 'c64',
      emulator: 'vice',
      program: join(odd, 'p "q".prg'),
      cwd: odd,
      vicePath: x64sc,
      drive8: 'disk Ж "q"',
      extraArgs: ['-fs9', join(odd, 'disk Ж "q"')],
    });
    await failedLaunch(started.session_id);
    const args = readFileSync(join(dir, 'args.txt'), 'utf8').trimEnd().split('\n');
    assert.deepEqual(args.slice(args.indexOf('-fs8')), [
      '-fs8',
      join(odd, 'disk Ж "q"'),
      '-fs9',
      join(odd, 'disk Ж "q"'),
    ]);
  });
}
