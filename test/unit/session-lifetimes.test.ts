/**
 * Nothing a SessionManager makes outlives what it is for: a session's scratch
 * folder goes when the session ends, the manager's temp folder with the
 * manager (or with the process, when nobody closed it), and ended sessions
 * leave the list after a bound. On the toy connector, whose launcher writes a
 * file into its folder as an emulator would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { LaunchConfig } from '../../src/core/launch.js';
import type { ConnectorDescriptor } from '../../src/connectors/descriptor.js';
import { SessionManager } from '../../src/session/manager.js';
import { toyConnector } from '../support/toy-connector/descriptor.js';
import { launchToyTarget } from '../support/toy-connector/toy-target.js';

/** The toy, writing into its work folder like MAME or DOSBox do; remembers the folders it got. */
function scribblingToy(): { connector: ConnectorDescriptor; dirs: string[] } {
  const dirs: string[] = [];
  const connector: ConnectorDescriptor = {
    ...toyConnector,
    launch: async (_config, opts) => {
      dirs.push(opts.workDir);
      await mkdir(opts.workDir, { recursive: true });
      await writeFile(join(opts.workDir, 'emulator.cfg'), 'scratch\n');
      return launchToyTarget();
    },
  };
  return { connector, dirs };
}

const toy = (program: string) => ({ machine: 'toy', emulator: 'toy', program }) as unknown as LaunchConfig;
const starter = { kind: 'cli' as const, label: 'test' };

test("a session's folder goes when it ends; the manager's temp folder goes with the manager", async () => {
  const { connector, dirs } = scribblingToy();
  const manager = new SessionManager({ connectors: [connector] });
  const a = manager.start(toy('a.bin'), starter);
  const b = manager.start(toy('b.bin'), starter);
  await a.whenReady(5_000);
  await b.whenReady(5_000);
  assert.equal(dirs.length, 2);
  assert.ok(dirs.every((d) => existsSync(join(d, 'emulator.cfg'))));
  const base = dirname(dirs[0]!);
  assert.match(base, /retro-debug-/);
  await (a.session as unknown as { stop(): Promise<void> }).stop();
  for (let i = 0; i < 50 && existsSync(dirs[0]!); i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(existsSync(dirs[0]!), false, "the ended session's folder was removed");
  assert.equal(existsSync(dirs[1]!), true, 'the live session keeps its own');
  await manager.closeAll();
  assert.equal(existsSync(base), false, "the manager's temp folder was removed with it");
});

test("a caller's own work folder is kept; only the session folders made in it go", async () => {
  const { connector, dirs } = scribblingToy();
  const own = join(dirname(require.resolve('../../package.json')), '.test-work', `lifetimes-${process.pid}`);
  await mkdir(own, { recursive: true });
  const manager = new SessionManager({ connectors: [connector], workDir: own });
  await manager.start(toy('a.bin'), starter).whenReady(5_000);
  await manager.closeAll();
  assert.equal(existsSync(dirs[0]!), false);
  assert.equal(existsSync(own), true);
  await rm(own, { recursive: true, force: true });
});

test('ended sessions leave the list after endedKeepMs, and at most 8 ended ones stay meanwhile', async () => {
  const { connector } = scribblingToy();
  const manager = new SessionManager({ connectors: [connector], endedKeepMs: 60_000 });
  for (let i = 0; i < 11; i++) {
    const c = manager.start(toy(`p${i}.bin`), starter);
    await c.whenReady(5_000);
    await (c.session as unknown as { stop(): Promise<void> }).stop();
  }
  assert.equal(manager.list().length, 8, 'the oldest ended sessions were dropped');
  await manager.closeAll();

  const quick = new SessionManager({ connectors: [connector], endedKeepMs: 100 });
  const c = quick.start(toy('q.bin'), starter);
  await c.whenReady(5_000);
  await (c.session as unknown as { stop(): Promise<void> }).stop();
  assert.equal(quick.list().length, 1, 'an ended session is still listed at first (its status, its last stop)');
  for (let i = 0; i < 100 && quick.list().length; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(quick.list().length, 0, 'then it goes');
  await quick.closeAll();
});

test('a process that exits without closing its manager removes its folders on exit', () => {
  const script = `
    const { SessionManager } = require('./src/session/manager.ts');
    const { toyConnector } = require('./test/support/toy-connector/descriptor.ts');
    const { launchToyTarget } = require('./test/support/toy-connector/toy-target.ts');
    const { mkdirSync } = require('node:fs');
    let dir;
    const connector = { ...toyConnector, launch: async (_c, o) => { dir = o.workDir; mkdirSync(dir, { recursive: true }); return launchToyTarget(); } };
    const m = new SessionManager({ connectors: [connector] });
    m.start({ machine: 'toy', emulator: 'toy', program: 'x.bin' }, { kind: 'cli', label: 't' }).whenReady(5000).then(() => {
      console.log(dir);
      process.exit(0);
    });`;
  const root = dirname(require.resolve('../../package.json'));
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8' });
  const dir = out.trim().split('\n').at(-1)!;
  assert.match(dir, /retro-debug-.*\/s-/);
  assert.equal(existsSync(dir), false, 'the session folder is gone');
  assert.equal(existsSync(dirname(dir)), false, 'and the temp folder');
});
