// File statics scoped to their file, on a real cc65 program of two files
// (test/fixtures/c64/statics: `count` and `tag` are statics of different
// types in a.c and b.c, `shared` a global): stopped in a.c, `count` is a.c's;
// stopped in b.c, b.c's; the globals list holds both. On the built-in C64
// (the VICE client over its monitor), and on a real x64sc when X64SC names one.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';

const X64SC = process.env.X64SC;
const manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 60_000 });
after(() => manager.closeAll());

async function lineOf(dir: string, file: string, marker: string): Promise<number> {
  const text = await readFile(join(dir, file), 'utf8');
  return text.split('\n').findIndex((l) => l.includes(`LINE:${marker}`)) + 1;
}

for (const emulator of ['builtin', ...(X64SC ? ['vice' as const] : [])] as const) {
  test(`${emulator}: a static is seen from its own file's frames, the same name in the other file is that file's`, async () => {
    const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'statics'), ['a.c', 'b.c']);
    const dap = manager.start(
      {
        machine: 'c64',
        emulator,
        program: join(dir, 'program.prg'),
        cwd: dir,
        ...(emulator === 'vice' ? { vicePath: X64SC } : {}),
      },
      { kind: 'dap', label: `statics-${emulator}` },
    );
    const beat = setInterval(() => dap.beat(), 500);
    try {
      const session = dap.session;
      const start = await session.waitForStop(60_000);
      assert.equal(start.location?.function, 'main', JSON.stringify(start));

      await dap.setLineBreakpoint('a.c', await lineOf(dir, 'a.c', 'in_a'));
      await dap.setLineBreakpoint('b.c', await lineOf(dir, 'b.c', 'in_b'));
      await dap.resume();
      let stop = await session.waitForStop(60_000);
      assert.equal(stop.location?.file?.endsWith('a.c'), true, JSON.stringify(stop.location));
      let count = await session.readVariable('count', 0);
      assert.deepEqual([count.type, count.value.split(' ')[0]], ['int', '11'], "a.c's count from bump_a");
      const tagA = await session.readVariable('tag[2]', 0);
      assert.deepEqual([tagA.type, tagA.value.split(' ')[0]], ['unsigned char', '3'], "a.c's tag is an array");

      await dap.resume();
      stop = await session.waitForStop(60_000);
      assert.equal(stop.location?.file?.endsWith('b.c'), true, JSON.stringify(stop.location));
      count = await session.readVariable('count', 0);
      assert.deepEqual([count.type, count.value.split(' ')[0]], ['long', '70000'], "b.c's count from bump_b");
      const tagB = await session.readVariable('tag', 0);
      assert.deepEqual([tagB.type, tagB.value.split(' ')[0]], ['int', '-4'], "b.c's tag");
      // main's frame (a.c) above bump_b's: a.c's count, already bumped by shared (5)
      const outer = await session.readVariable('count', 1);
      assert.deepEqual([outer.type, outer.value.split(' ')[0]], ['int', '16'], "a.c's count from main's frame");
      const shared = await session.readVariable('shared', 0);
      assert.equal(shared.value.split(' ')[0], '5', 'the global, from either file');

      const globals = (await session.variables('globals')).filter((g) => g.name === 'count');
      assert.deepEqual(globals.map((g) => g.type).sort(), ['int', 'long'], 'both statics are listed');
    } finally {
      clearInterval(beat);
      dap.close();
    }
  });
}
