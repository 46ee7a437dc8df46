/**
 * The canonical agent task in the default profile, counted in calls, with the
 * official SDK client over HTTP and over stdio (one body, transports.ts):
 * start (waiting) -> run_to a C line -> read a value -> type a key ->
 * screenshot, at most 6 calls, on the built-in C64 with a cc65 program and on
 * real MAME with the SDCC-built Spectrum ROM; then the typed key is shown to
 * have reached the program (run_to where it is read). A DOS guest (real
 * DOSBox, a nasm program) has no CPU debugger and no C level: run_to answers
 * `unsupported` at once, and the variable is read with read_memory where
 * start_session said the program runs (its segment), the key seen there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { DEFAULT_PROFILE } from '../../src/mcp/groups.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { buildZxFixture, type ZxFixture } from '../support/zx-fixture.js';
import { buildDosFixtures, until, type DosFixtures } from '../support/dos-fixture.js';
import { call, callExpectingError, type Structured } from './mcp-helpers.js';
import { TRANSPORTS, connectAgent, type ConnectedAgent } from './transports.js';

let c64: C64Fixture;
let zx: ZxFixture;
let dos: DosFixtures;
let manager: SessionManager;
let workDir: string;

before(async () => {
  [c64, zx, dos] = await Promise.all([buildC64Fixture(), buildZxFixture(), buildDosFixtures()]);
  workDir = mkdtempSync(join(tmpdir(), 'mcp-canonical-'));
  manager = new SessionManager({ connectors: CONNECTORS, workDir });
});

after(async () => {
  await manager?.closeAll();
  rmSync(workDir, { recursive: true, force: true });
});

/** Calls through here are counted. */
function counted(agent: Client) {
  let calls = 0;
  return {
    call: (name: string, args: Record<string, unknown>, timeoutMs = 90_000): Promise<Structured> => {
      calls++;
      return call(agent, name, args, timeoutMs);
    },
    error: (name: string, args: Record<string, unknown>, code: string): Promise<Structured> => {
      calls++;
      return callExpectingError(agent, name, args, code);
    },
    get calls() {
      return calls;
    },
  };
}

for (const over of TRANSPORTS)
  describe(`over ${over}`, () => {
    let connected: ConnectedAgent;
    let agent: Client;
    before(async () => {
      connected = await connectAgent(over, manager, {
        name: `canonical-${over}`,
        outputDir: workDir,
        profile: DEFAULT_PROFILE,
      });
      agent = connected.client;
    });
    after(() => connected?.close());

    test('built-in C64 (cc65): start -> run_to -> read -> key -> screenshot in 5 calls; the key reaches cgetc', async () => {
      const t = counted(agent);
      const started = await t.call('start_session', { machine: 'c64', program: c64.prg, cwd: c64.dir, wait: true });
      assert.equal(started.timed_out, false);
      assert.equal(started.phase, 'ready');
      const at = await t.call('run_to', { file: 'util.c', line: c64.markers.scaled.line, timeout_ms: 30_000 });
      assert.equal(at.reached, true);
      assert.equal(at.location.line, c64.markers.scaled.line);
      assert.equal((await t.call('evaluate', { expression: 'value' })).result.value, '1');
      const typed = await t.call('type_keys', { text: 'q' });
      assert.equal(typed.typed, 1);
      const shot = await t.call('screenshot', {});
      assert.ok(shot.width > 0 && shot.png_bytes > 0);
      assert.ok(t.calls <= 6, `${t.calls} calls`);

      // the temporary breakpoint is gone; the key typed while stopped is read by cgetc
      assert.deepEqual((await call(agent, 'list_breakpoints', {})).breakpoints, []);
      const got = await call(agent, 'run_to', { file: 'main.c', line: c64.markers.got_key.line, timeout_ms: 30_000 });
      assert.equal(got.reached, true);
      assert.match((await call(agent, 'evaluate', { expression: 'key' })).result.value, /81/);
      await call(agent, 'stop_session', {});
    });

    test('run_to and type_keys refuse bad input clearly and leave no breakpoint behind', async () => {
      await call(agent, 'start_session', { machine: 'c64', program: c64.prg, cwd: c64.dir, wait: true });
      await callExpectingError(agent, 'run_to', { file: 'util.c' }, 'bad_request');
      await callExpectingError(agent, 'run_to', { function: 'main', file: 'util.c', line: 3 }, 'bad_request');
      const unknown = await callExpectingError(agent, 'run_to', { function: 'no_such_function' }, 'bad_request');
      assert.match(unknown.message, /no_such_function/);
      assert.deepEqual((await call(agent, 'list_breakpoints', {})).breakpoints, []);
      const key = await callExpectingError(agent, 'type_keys', { text: '{RETRUN}' }, 'bad_request');
      assert.match(key.message, /did you mean RETURN/);
      await callExpectingError(agent, 'type_keys', { text: '{F11}' }, 'unsupported');

      // set_breakpoint where no code can be is an error naming the nearest places
      const file = await callExpectingError(agent, 'set_breakpoint', { file: 'utl.c', line: 5 }, 'bad_request');
      assert.match(file.message, /No file utl\.c .*did you mean util\.c/);
      const fn = await callExpectingError(agent, 'set_breakpoint', { function: 'add_scaeld' }, 'bad_request');
      assert.match(fn.message, /did you mean add_scaled/);
      const past = await callExpectingError(agent, 'set_breakpoint', { file: 'util.c', line: 9999 }, 'bad_request');
      assert.match(
        past.message,
        /util\.c:9999: its last line with code is \d+; nearest lines with code: .*util\.c:\d+/,
      );
      assert.deepEqual((await call(agent, 'list_breakpoints', {})).breakpoints, [], 'none left behind');
      await call(agent, 'stop_session', {});
    });

    test('a mistyped MAME machine is named with close matches before anything starts', async () => {
      const before = manager.list().length;
      const err = await callExpectingError(
        agent,
        'start_session',
        { machine: 'spectrun', program: zx.rom },
        'launch_failed',
      );
      assert.match(err.message, /does not know the machine "spectrun"\. Close matches: .*spectrum/);
      assert.equal(manager.list().length, before, 'no session was started');
    });

    test('real MAME (SDCC Spectrum ROM): the same task in 5 calls; the typed key reaches the key scanner', async () => {
      const t = counted(agent);
      const started = await t.call('start_session', {
        machine: 'spectrum',
        program: zx.rom,
        debugInfo: zx.cdb,
        cwd: zx.dir,
        wait: true,
        timeout_ms: 50_000,
      });
      assert.equal(started.phase, 'ready');
      const at = await t.call('run_to', { file: 'main.c', line: zx.markers.loop_body.line, timeout_ms: 30_000 });
      assert.equal(at.reached, true, JSON.stringify(at));
      const counter = (await t.call('evaluate', { expression: 'counter' })).result.numeric;
      assert.ok(counter >= 0);
      const typed = await t.call('type_keys', { text: 'q' });
      assert.deepEqual([typed.typed, typed.pending], [1, true], 'stopped: queued until it runs');
      const shot = await t.call('screenshot', {});
      assert.ok(shot.width >= 256 && shot.png_bytes > 0);
      assert.ok(t.calls <= 6, `${t.calls} calls`);

      const seen = await call(agent, 'run_to', { file: 'keys.c', line: zx.markers.key_seen.line, timeout_ms: 30_000 });
      assert.equal(seen.reached, true, JSON.stringify(seen));
      assert.equal((await call(agent, 'evaluate', { expression: 'c' })).result.numeric, 'q'.charCodeAt(0));
      await call(agent, 'stop_session', {});
    });

    test('DOS (nasm in real DOSBox): start -> read the variable -> key -> screenshot, run_to unsupported at once: 5 calls', async () => {
      const ke = dos.programs.keyecho;
      const t = counted(agent);
      const started = await t.call('start_session', {
        machine: 'dos',
        program: ke.com,
        dos: { backend: 'native' },
        wait: true,
        timeout_ms: 50_000,
      });
      assert.deepEqual([started.phase, started.state], ['ready', 'running']);
      const at = /KEYECHO runs in segment ([0-9A-F]{4}) \(its PSP\)/.exec((started.progress as string[]).join('\n'));
      assert.ok(at, `start_session says where the program runs: ${JSON.stringify(started.progress)}`);
      const base = parseInt(at[1], 16) * 16;
      const t0 = Date.now();
      const cannot = await t.error('run_to', { function: 'mainloop' }, 'unsupported');
      assert.match(cannot.message, /always runs and never stops.*read_memory/);
      assert.ok(Date.now() - t0 < 5000, 'at once, not after a wait');
      const tag = await t.call('read_memory', { address: base + ke.labels.tag, length: 1 });
      assert.equal(tag.hex, '41', "the program's variable tag is 'A'");
      const typed = await t.call('type_keys', { text: 'q' });
      assert.equal(typed.typed, 1);
      const shot = await t.call('screenshot', {});
      assert.ok(shot.width >= 320 && shot.png_bytes > 0);
      assert.ok(t.calls <= 6, `${t.calls} calls`);

      // the key reached the program: it stored INT 16h's answer (ASCII q, scan code 10h) and counted it
      const lastkey = () => call(agent, 'read_memory', { address: base + ke.labels.lastkey, length: 4 });
      await until('KEYECHO to read the key', async () => (await lastkey()).hex === '71100100', 10_000);
      for (const [tool, args] of [
        ['evaluate', { expression: 'lastkey' }],
        ['wait_for_stop', { timeout_ms: 30_000 }],
        ['set_breakpoint', { address: base + ke.labels.mainloop }],
      ] as const)
        assert.match((await callExpectingError(agent, tool, args, 'unsupported')).message, /never stops/, tool);
      // nor can DOSBox be reset or snapshotted from outside: a typed refusal saying what to do instead
      await call(agent, 'load_tool_group', { group: 'state' });
      for (const [tool, args] of [
        ['reset', { kind: 'hard' }],
        ['save_state', { slot: 'one' }],
        ['load_state', { slot: 'never-saved' }], // unsupported, not a missing file: DOSBox could take none
      ] as const)
        assert.match(
          (await callExpectingError(agent, tool, args, 'unsupported')).message,
          /DOSBox offers no reset or save state.*stop_session and start it again/,
          tool,
        );
      await call(agent, 'stop_session', {});
    });
  });
