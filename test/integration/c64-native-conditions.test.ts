// Breakpoint conditions on the built-in C64 with a cc65 program: one the VICE checkpoint language gets exactly
// right is compiled into the checkpoint and evaluated in the built-in's CPU loop, so its false hits never stop
// the CPU (counted at the target: stops and round trips); one it cannot express is the session's, at most 2
// round trips per false hit. With X64SC naming a real x64sc the same cases run there: the compiled text is VICE's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { SessionApi } from '../../src/session/types.js';
import type { ClientSession } from '../../src/session/client-session.js';
import { buildC64Fixture, type C64Fixture } from '../support/c64-fixture.js';
import { watchTarget, type TargetTraffic } from '../support/target-traffic.js';

const X64SC = process.env.X64SC;

for (const emulator of ['builtin', ...(X64SC ? ['vice' as const] : [])] as const) {
  describe(emulator, () => {
    let fx: C64Fixture;
    let manager: SessionManager;
    let session: SessionApi;
    let dap: ClientSession;
    let traffic: TargetTraffic;

    before(async () => {
      fx = await buildC64Fixture();
      manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 5000 });
      dap = manager.start(
        {
          machine: 'c64',
          emulator,
          program: fx.prg,
          cwd: fx.dir,
          ...(emulator === 'vice' ? { vicePath: X64SC } : {}),
        },
        { kind: 'dap', label: `VS Code debug session (${emulator})` },
      );
      session = dap.session;
      setInterval(() => dap.beat(), 300).unref();
      await session.waitForStop(60_000);
      traffic = watchTarget(session);
    });

    after(async () => {
      await manager?.closeAll();
    });

    const num = async (expression: string) => (await session.readVariable(expression)).numeric!;

    test(`${emulator}: a compiled condition never stops the CPU while false; a host-side one costs at most 2 round trips a hit`, async () => {
      const call = fx.markers.loop_call;
      const native = await dap.setLineBreakpoint(call.file, call.line, 'counter == 3');
      assert.equal(native.verified, true, native.message);
      // int counter: its two bytes as VICE reads them, equal to 3 exactly as C's signed int is
      assert.match(native.native_condition ?? '', /^\(@cpu:\$[0-9a-f]+ \+ \(@cpu:\$[0-9a-f]+ \* \+256\)\) == \$3$/);
      const printed = fx.markers.after_call;
      const host = await dap.setLineBreakpoint(printed.file, printed.line, 'counter * 2 == 6');
      assert.equal(host.native_condition, undefined);
      assert.match(host.condition_host ?? '', /not a global, a register or fixed memory/);

      traffic.reset();
      await dap.resume();
      let status = await session.waitForStop(30_000);
      assert.deepEqual(status.last_stop?.breakpoint_ids, [native.id]);
      // counter 1 and 2: loop_call never stopped, after_call stopped twice and resumed; then loop_call at 3
      assert.equal(traffic.stops, 3, JSON.stringify([...traffic.calls]));
      // beside the test's own resume: a read and a resume for each of the two false host-side hits, none for the true one
      assert.equal(traffic.requests - 1, 2 * 2, JSON.stringify([...traffic.calls]));
      assert.equal(await num('counter'), 3);

      await dap.resume();
      status = await session.waitForStop(30_000);
      assert.deepEqual(status.last_stop?.breakpoint_ids, [host.id]);
      const counts = new Map(session.listBreakpoints().map((b) => [b.id, b.hit_count]));
      assert.equal(counts.get(native.id), 1);
      assert.equal(counts.get(host.id), 1);
      for (const b of [native, host]) await dap.clearBreakpoint(b.id);
    });

    test(`${emulator}: a joined condition (a global && a cc65 local): its global part filters in the emulator`, async () => {
      // the loop runs counter 1..3 again; add_scaled's local `scaled` is counter * 10, on cc65's C stack
      await dap.setExpression('counter', '0');
      const at = fx.markers.add_return;
      const bp = await dap.setLineBreakpoint(at.file, at.line, 'counter != 1 && scaled == 30');
      assert.equal(bp.verified, true, bp.message);
      assert.equal(bp.native_condition, undefined);
      assert.match(
        bp.condition_host ?? '',
        /`scaled` lives in a stack frame, which VICE cannot address in a condition/,
      );
      // counter != 1 in VICE's language: the int's two bytes
      assert.match(bp.native_guard ?? '', /^\(@cpu:\$[0-9a-f]+ \+ \(@cpu:\$[0-9a-f]+ \* \+256\)\) != \$1$/);

      traffic.reset();
      await dap.resume();
      const status = await session.waitForStop(30_000);
      const order = [...traffic.order];
      const stops = traffic.stops;
      assert.deepEqual(status.last_stop?.breakpoint_ids, [bp.id]);
      assert.equal(await num('counter'), 3);
      assert.equal(await num('scaled'), 30);
      // counter 1: the guard is false, the CPU never stopped; counter 2: the guard held, the session read `scaled`
      // (20) and resumed; counter 3: it stopped
      assert.equal(stops, 2, order.join(' '));
      // the false hit, between the test's resume (exit, 0xaa) and the session's: cc65's C stack pointer and the
      // local (the registers came with the stop; the guard's global is not read again), then the resume: 3 trips
      const [first, second] = order.flatMap((name, i) => (name === 'vice.0xaa' ? [i] : []));
      assert.deepEqual(order.slice(first + 1, second), ['vice.0x1', 'vice.0x1'], order.join(' '));
      assert.equal(session.listBreakpoints().find((b) => b.id === bp.id)!.hit_count, 1);
      await dap.clearBreakpoint(bp.id);
    });

    test(`${emulator}: the registers that came with a stop are served without a request, until $00/$01 change`, async () => {
      const registers = async () => (await session.readRegisters()).find((r) => r.name === '01')!.value;
      traffic.reset();
      const port = await registers();
      assert.deepEqual(traffic.order, [], 'the stop brought them');
      // the 6510's port is memory and a register: a write there is read again (the KERNAL keeps bits 0-2 set)
      await dap.writeMemory({ space: 'cpu', offset: 0x01 }, Uint8Array.of(port & ~0x01));
      traffic.reset();
      assert.equal(await registers(), port & ~0x01);
      assert.ok(traffic.order.length >= 1, 'asked again');
      await dap.writeMemory({ space: 'cpu', offset: 0x01 }, Uint8Array.of(port));
    });

    test(`${emulator}: a compiled condition longer than VICE's protocol carries falls back to the session`, async () => {
      // VICE's binary monitor sends a condition with a one-byte length: at most 255 characters
      // the loop runs counter to 3: from 0 again, one false hit (1) on the way to 2
      await dap.setExpression('counter', '0');
      const stopAt = 2;
      const condition = [stopAt, ...Array.from({ length: 8 }, (_, k) => 200 + k)]
        .map((n) => `counter == ${n}`)
        .join(' || ');
      const call = fx.markers.loop_call;
      const bp = await dap.setLineBreakpoint(call.file, call.line, condition);
      assert.equal(bp.verified, true, bp.message);
      assert.ok((bp.native_condition ?? '').length > 255, bp.native_condition);
      const reason = /the emulator refused the compiled condition \(A VICE condition is at most 255 characters\.\)/;
      assert.match(bp.condition_host ?? '', reason);
      assert.match(bp.message ?? '', /^The debugger evaluates the condition at each hit: /);
      assert.match(bp.message ?? '', reason);

      traffic.reset();
      await dap.resume();
      const status = await session.waitForStop(30_000);
      assert.deepEqual(status.last_stop?.breakpoint_ids, [bp.id]);
      // one false hit on the way, decided by the session: the CPU stopped twice in all
      assert.equal(traffic.stops, 2, JSON.stringify([...traffic.calls]));
      // beside the test's own resume: the false hit's read of counter (once for all nine terms) and resume, the true one's read
      assert.equal(traffic.requests - 1, 3, JSON.stringify([...traffic.calls]));
      assert.equal(await num('counter'), stopAt, 'stopped where the condition first held, not before');
      await dap.clearBreakpoint(bp.id);
    });

    test(`${emulator}: a condition VICE refuses is never passed as text: a C error leaves the breakpoint unverified`, async () => {
      const bp = await dap.setLineBreakpoint(fx.markers.got_key.file, fx.markers.got_key.line, 'counter == nosuch');
      assert.equal(bp.verified, false);
      assert.equal(bp.native_condition, undefined);
      assert.match(bp.message ?? '', /no variable `nosuch`/);
      await dap.clearBreakpoint(bp.id);
    });
  });
}
