// cc65 debug info on a program with every declaration shape
// (test/fixtures/c64/types, built with -Oirs so `register` is honoured), in
// a session on the built-in C64: typed globals (several declarators, arrays
// sized by macro and initialiser, typedefs ours and the library's, structs,
// enums, pointers to pointers, an asm-defined extern), register locals read
// from the register bank, parameters of a function with register variables
// at the right offsets, each function's own `same`, and locals named X/Y.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { SessionApi, VariableValue } from '../../src/session/types.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';
import { readFile } from 'node:fs/promises';

let manager: SessionManager;
let session: SessionApi;
let dap: ClientSession;
let dir: string;

async function line(marker: string): Promise<number> {
  const text = await readFile(join(dir, 'types.c'), 'utf8');
  return text.split('\n').findIndex((l) => l.includes(`LINE:${marker}`)) + 1;
}

const byName = (vars: VariableValue[]) => Object.fromEntries(vars.map((v) => [v.name, v]));

before(async () => {
  dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'types'), ['types.c', 'counter.s'], '-Oirs');
  manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 5000 });
  dap = manager.start(
    { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), cwd: dir },
    { kind: 'dap', label: 'types' },
  );
  session = dap.session;
  setInterval(() => dap.beat(), 500).unref();
  const status = await session.waitForStop(30_000);
  assert.equal(status.location?.function, 'main', JSON.stringify(status));
});

after(async () => {
  await manager?.closeAll();
});

test('register locals and the parameters of a function with register variables read right', async () => {
  const bp = await dap.setLineBreakpoint('types.c', await line('sum_ret'));
  await dap.resume();
  const stop = await session.waitForStop(30_000);
  assert.equal(stop.location?.line, await line('sum_ret'));
  const locals = byName(await session.variables('locals', 0));
  assert.equal(locals.count?.value, '5', 'a register parameter, from the register bank');
  assert.equal(locals.base?.value, '9', 'helper(1) = 1 * 2 + 7: the parameter after the register-bank save');
  assert.equal(locals.i?.value, '5', 'a register local');
  assert.equal(locals.same?.value, '37', "sum's own `same` (2+3+5+7+11 + 9)");
  assert.equal(locals.same?.type, 'int');
  assert.equal(locals.p?.type, 'unsigned char *');
  const caller = byName(await session.variables('locals', 1));
  assert.equal(
    caller.X?.value.split(' ')[0],
    '3',
    "main's frame above sum's: the frame size counts the saved bank bytes",
  );
  assert.equal(caller.Y?.value.split(' ')[0], '4');
  await dap.clearBreakpoint(bp.id);
});

test('a C local named X is the local, not the register', async () => {
  const x = await session.readVariable('X', 1);
  assert.equal(x.type, 'unsigned char');
  assert.equal(x.value.split(' ')[0], '3');
});

test('globals typed from the declarations, the headers and an extern for an asm-defined label', async () => {
  const bp = await dap.setLineBreakpoint('types.c', await line('after_sum'));
  await dap.resume();
  await session.waitForStop(30_000);
  const g = byName(await session.variables('globals'));
  assert.equal(g.a?.type, 'unsigned char');
  assert.equal(g.b?.type, 'unsigned char');
  assert.equal(g.b?.value.split(' ')[0], '2');
  assert.equal(g.Sieve?.type, 'unsigned int[5]');
  assert.equal(g.table?.type, 'char[4][8]');
  assert.equal(g.temperature?.value, '-40');
  assert.equal(g.started?.type, 'clock_t');
  assert.equal(g.out?.type, 'FILE *');
  assert.equal(g.world?.type, 'entity_t[3]');
  assert.equal(g.names?.type, 'char **');
  assert.equal(g.big?.value, '100000');
  assert.equal(g.paint?.type, 'enum colour');
  assert.equal(g.asm_counter?.type, 'int');
  const sieve = await session.readVariable('Sieve[2]');
  assert.equal(sieve.value, '5');
  const world = g.world!.children![1];
  const fields = byName(world.children ?? []);
  assert.equal(byName(fields.pos.children ?? []).x?.value, '-5');
  assert.equal(byName(fields.pos.children ?? []).y?.value, '12');
  assert.equal(byName(fields.raw.children ?? []).word?.value, '4660');
  const y = await session.readVariable('cursor->y');
  assert.equal(y.value, '12');
  await dap.clearBreakpoint(bp.id);
});
