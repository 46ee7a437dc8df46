// A program rebuilt under a running session is noticed (issue 25): on the built-in C64, once program.prg on disk
// is another build, set_breakpoint and set_watchpoint are refused with stale_build naming the files (placing them
// from the loaded debug info could be wrong); the session goes on; the same bytes again (a touch) are accepted.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ToolDriver } from '../support/dos-fixture.js';
import { REPO_ROOT } from '../support/c64-fixture.js';
import { buildWatchC64 } from '../support/watch-fixture.js';

const d = new ToolDriver();
const dir = join(REPO_ROOT, '.test-work', `stale-build-${process.pid}`);
after(async () => {
  await d.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a rebuilt program: breakpoints and watchpoints refused with stale_build, the session goes on', async () => {
  const fx = await buildWatchC64();
  cpSync(dirname(fx.program), dir, { recursive: true });
  const program = join(dir, 'program.prg');
  const { session_id, build_id } = await d.call('start_session', {
    machine: 'c64',
    emulator: 'builtin',
    program,
    wait: true,
  });
  const line = fx.markers.scores_write.line;
  const first = await d.call('set_breakpoint', { session_id, file: 'lives.c', line });
  const original = readFileSync(program);
  const rebuilt = Buffer.concat([original, Buffer.from([0xea])]);
  writeFileSync(program, rebuilt);

  const bp = await d.fail('set_breakpoint', { session_id, file: 'lives.c', line: fx.markers.refill.line });
  assert.equal(bp.code, 'stale_build');
  assert.match(
    bp.message,
    new RegExp(`rebuilt since this session loaded it \\(build ${build_id}, on disk now [0-9a-f]{16}`),
  );
  assert.ok(bp.message.includes(program), bp.message);
  assert.equal((await d.fail('set_watchpoint', { session_id, variable: 'lives' })).code, 'stale_build');
  // what was placed stays, and the session answers
  assert.deepEqual(
    (await d.call('list_breakpoints', { session_id })).breakpoints.map((b: { id: number }) => b.id),
    [first.breakpoint.id],
  );
  assert.ok((await d.call('evaluate', { session_id, expression: 'lives' })).result);

  writeFileSync(program, original); // the same build again: only the file's time moved
  await d.call('set_watchpoint', { session_id, variable: 'lives' });
});
