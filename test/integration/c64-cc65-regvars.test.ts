// cc65 register variables and block-scoped locals, live on the built-in C64
// (test/fixtures/c64/regvars, built with -Or): a register variable is shown
// only where its function has the register bank (after the prologue saved the
// caller's bytes, before the exit restored them) and says why not elsewhere; a
// caller's register variable is read from where its callee saved it; locals
// of nested blocks (no .dbg record) at their C-stack places, not yet there
// before their block allocated them, and the enclosing frame right inside
// blocks, a block's local initialised from I/O at its first statement.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { loadDebugInfo } from '../../src/debuginfo/load.js';
import type { SessionApi, VariableValue } from '../../src/session/types.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { buildCc65Program, REPO_ROOT } from '../support/c64-fixture.js';

let manager: SessionManager;
let session: SessionApi;
let dap: ClientSession;
let dir: string;

async function line(marker: string): Promise<number> {
  const text = await readFile(join(dir, 'regvars.c'), 'utf8');
  const n = text.split('\n').findIndex((l) => l.includes(`LINE:${marker}`)) + 1;
  assert.ok(n > 0, marker);
  return n;
}

const byName = (vars: VariableValue[]) => Object.fromEntries(vars.map((v) => [v.name, v]));
const first = (v: VariableValue | undefined) => v?.value.split(' ')[0];
/** 'A' as cc65 stores it for the C64 (PETSCII): the C source's 'A' read back from the program's own constant */
const A = 0xc1;

async function runTo(marker: string): Promise<void> {
  const bp = await dap.setLineBreakpoint('regvars.c', await line(marker));
  await dap.resume();
  const stop = await session.waitForStop(30_000);
  assert.equal(stop.location?.line, await line(marker), JSON.stringify(stop));
  await dap.clearBreakpoint(bp.id);
}

before(async () => {
  dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'regvars'), ['regvars.c'], '-Or');
  manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 5000 });
  dap = manager.start(
    { machine: 'c64', emulator: 'builtin', program: join(dir, 'program.prg'), cwd: dir },
    { kind: 'dap', label: 'regvars' },
  );
  session = dap.session;
  setInterval(() => dap.beat(), 500).unref();
  const status = await session.waitForStop(30_000);
  assert.equal(status.location?.function, 'main', JSON.stringify(status));
});

after(async () => {
  await manager?.closeAll();
});

test("a block's local before its first statement allocated it; the frame around it still right", async () => {
  await runTo('block_first');
  const locals = byName(await session.variables('locals', 0));
  assert.match(locals.c?.value ?? '', /^<not available here: .*not allocated/);
  assert.equal(first(locals.x), '1');
  assert.equal(first(locals.r), String(0x1234), 'main has its register variable from its declaration on');
});

test('a register local before its declaration saved the bank is not available; a register parameter is', async () => {
  await runTo('decl_i');
  const locals = byName(await session.variables('locals', 0));
  assert.equal(first(locals.count), '3');
  assert.match(locals.i?.value ?? '', /^<not available here: the register bank still holds the caller's value/);
  assert.match(locals.p?.value ?? '', /^<not available here: /);
  await assert.rejects(session.readVariable('i + 1'), /`i` is not available here: the register bank still holds/);
  const main = byName(await session.variables('locals', 1));
  assert.equal(first(main.r), String(0x1234), "main's r: one byte still in the bank, one in count's stack slot");
  assert.equal(first(main.c), String(A), "main's block local at the call");
  assert.equal(first(main.x), '1');
});

test('inside nested blocks: their locals, the register variables, and the caller through both', async () => {
  await runTo('inner');
  let locals = byName(await session.variables('locals', 0));
  assert.equal(first(locals.i), '0');
  assert.equal(first(locals.k), '40', 'a block local');
  assert.equal(first(locals.total), String(A), 'the function local, inside the block');
  assert.equal((await session.readVariable('*p')).value.split(' ')[0], '0', 'p points at hits');
  assert.equal(locals.deep, undefined, 'a deeper block is not in scope here');
  const main = byName(await session.variables('locals', 1));
  assert.equal(first(main.r), String(0x1234), "main's r from i's and count's saves");
  assert.equal(first(main.x), '1');
  await runTo('deep'); // i = 0 and 1 have sq <= 3
  locals = byName(await session.variables('locals', 0));
  assert.equal(first(locals.i), '2');
  assert.equal(first(locals.sq), '4');
  assert.equal(first(locals.k), '42');
  assert.equal(first(locals.deep), '46');
  assert.equal((await session.readVariable('*q')).value, String(A + 2), 'q points at total (193 + 0 + 2)');
  assert.equal((await session.readVariable('total')).value, String(A + 2));
});

test("after the exit restored the bank, scan's register variables are the caller's again", async () => {
  await runTo('scan_ret');
  const locals = byName(await session.variables('locals', 0));
  assert.equal(first(locals.i), '3');
  assert.equal(first(locals.total), String(A + 2 + 46 + 8));
  const info = await loadDebugInfo(join(dir, 'program.dbg'));
  const scan = info.functions.find((f) => f.name === 'scan')!;
  const code = await session.readMemory({ space: 'cpu', offset: scan.start }, scan.end - scan.start + 1);
  assert.equal(code[code.length - 3], 0x4c, 'scan ends with its jmp to the runtime');
  const bp = await dap.setAddressBreakpoint({ space: 'cpu', offset: scan.end - 2 });
  await dap.resume();
  await session.waitForStop(30_000);
  await dap.clearBreakpoint(bp.id);
  const gone = byName(await session.variables('locals', 0));
  for (const name of ['i', 'p', 'count'])
    assert.match(gone[name]?.value ?? '', /^<not available here: scan has given the register bank back/, name);
  const main = byName(await session.variables('locals', 1));
  assert.equal(first(main.r), String(0x1234), 'the bank itself again');
});

test('out of the block its local is gone; the register local still reads', async () => {
  await runTo('after');
  const locals = byName(await session.variables('locals', 0));
  assert.equal(locals.c, undefined);
  assert.equal(first(locals.x), String(A + 2 + 46 + 8));
  assert.equal(first(locals.r), String(0x1234));
});

test("at a line's start a block's locals count from its declarations, without running their code (it reads I/O)", async () => {
  await runTo('io_init');
  const locals = byName(await session.variables('locals', 0));
  const border = (await session.readMemory({ space: 'cpu', offset: 0xd020 }, 1))[0] & 15;
  assert.equal(first(locals.border), String(border));
  assert.equal(first(locals.x), String(A + 2 + 46 + 8));
  assert.equal(first(locals.r), String(0x1234));
});
