// A caller's locals on cc65's C stack, read from a callee's stop, on the built-in C64 and through the VICE
// connector on the built-in's VICE binary monitor: the caller had pushed operands of the statement before the call
// (the address `squares[i]` stores into; earlier arguments and a call's result), so its locals sit that many bytes
// above the stack pointer at the call. Frame 1's locals must be what the program holds, in list and evaluate alike.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import { SessionManager } from '../../src/session/manager.js';
import type { ClientSession } from '../../src/session/types.js';
import { buildCc65Program, findMarkers, REPO_ROOT } from '../support/c64-fixture.js';

const SOURCE = join(REPO_ROOT, 'test', 'fixtures', 'c64', 'frames');

for (const where of ['builtin', 'vice-on-builtin-monitor'] as const) {
  describe(where, () => {
    let manager: SessionManager;
    let server: BuiltinMonitorServer | undefined;
    let dap: ClientSession;
    let markers: Awaited<ReturnType<typeof findMarkers>>;

    before(async () => {
      const dir = await buildCc65Program(SOURCE, ['frames.c']);
      markers = await findMarkers([join(dir, 'frames.c')]);
      manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 60_000 });
      let emulator: { emulator: 'builtin' | 'vice'; viceMonitor?: string } = { emulator: 'builtin' };
      if (where !== 'builtin') {
        server = new BuiltinMonitorServer();
        emulator = { emulator: 'vice', viceMonitor: `127.0.0.1:${await server.listen()}` };
      }
      dap = manager.start(
        { machine: 'c64', program: join(dir, 'program.prg'), cwd: dir, ...emulator },
        { kind: 'dap', label: `caller frames (${where})` },
      );
      await dap.whenReady(60_000);
    });

    after(async () => {
      await manager?.closeAll();
      await server?.close();
    });

    /** frame 1's local: by evaluate, by the locals list, and the memory at its address */
    async function callerLocal(name: string): Promise<number[]> {
      const session = dap.session;
      const evaluated = (await session.readVariable(name, 1)).numeric!;
      const listed = (await session.variables('locals', 1)).find((v) => v.name === name)?.numeric;
      const at = await session.locateLvalue(name, 1);
      const bytes = await session.readMemory({ space: 'cpu', offset: at.address }, at.length);
      const memory = bytes.reduce((v, b, k) => v | (b << (8 * k)), 0);
      return [evaluated, listed ?? -1, memory];
    }

    async function runTo(marker: string, condition?: string) {
      const m = markers[marker];
      const bp = await dap.setLineBreakpoint('frames.c', m.line, condition);
      assert.equal(bp.verified, true, bp.message);
      const status = await dap.nextStop(30_000, () => dap.resume());
      assert.deepEqual(status.last_stop?.breakpoint_ids, [bp.id]);
      await dap.clearBreakpoint(bp.id);
    }

    test(`${where}: stopped in square(7) from squares[i] = square(i), main's i is 7`, async () => {
      await runTo('square', 'n == 7');
      const frames = await dap.session.backtrace();
      assert.deepEqual(
        frames.slice(0, 2).map((f) => f.function),
        ['square', 'main'],
      );
      assert.equal((await dap.session.readVariable('n')).numeric, 7);
      assert.deepEqual(await callerLocal('i'), [7, 7, 7]);
      assert.deepEqual(await callerLocal('marker'), [0x1234, 0x1234, 0x1234]);
    });

    test(`${where}: main's locals are typed from cc65's headers and the #if branch taken (mousedemo's shape)`, async () => {
      const locals = await dap.session.variables('locals', 1);
      const type = (name: string) => locals.find((v) => v.name === name)?.type;
      assert.equal(type('info'), 'struct mouse_info');
      assert.equal(type('done'), '_Bool');
      const read = async (e: string) => (await dap.session.readVariable(e, 1)).numeric;
      assert.deepEqual(
        [await read('info.pos.x'), await read('info.pos.y'), await read('info.buttons')],
        [300, -2, 0x10],
      );
      assert.equal(await read('done'), 1);
      // int main(int argc, char *argv[]) is the branch cc65 compiled for the C64
      assert.equal(await read('argc'), 1, 'cc65 passes the program name: argc 1');
    });

    test(`${where}: stopped in leaf from add3(marker, twice(i), leaf(i)): 4 bytes pushed, another call skipped`, async () => {
      await runTo('leaf');
      assert.equal((await dap.session.readVariable('v')).numeric, 8);
      assert.deepEqual(await callerLocal('i'), [8, 8, 8]);
      assert.deepEqual(await callerLocal('marker'), [0x1234, 0x1234, 0x1234]);
    });
  });
}
