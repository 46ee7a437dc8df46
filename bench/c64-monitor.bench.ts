/**
 * The VICE client on the built-in C64's binary monitor (same process, loopback
 * TCP): a 64 KiB read and one C line step, as ratios to the floor measured in
 * the same run — a bare PING round trip on the same connection. Also the
 * 6502 core's speed on the functional test image.
 * Run: node --import tsx bench/c64-monitor.bench.ts [iterations]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cpu6502 } from '../src/cpu/6502/cpu6502.js';
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import { Cmd } from '../src/connectors/vice/protocol.js';
import { VICE_FEATURE } from '../src/connectors/vice/vice-target.js';
import type { MonitorClient } from '../src/connectors/vice/monitor-client.js';
import { buildC64Fixture, REPO_ROOT } from '../test/support/c64-fixture.js';
import { measure } from './measure.js';

const N = Number(process.argv[2] ?? 200);

function coreSpeed(): number {
  const mem = new Uint8Array(
    readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'c64', '6502', '6502_functional_test.bin')),
  );
  const cpu = new Cpu6502({
    read: (a) => mem[a],
    write: (a, v) => {
      mem[a] = v;
    },
  });
  cpu.pc = 0x400;
  const t0 = performance.now();
  cpu.run(30_000_000);
  return cpu.cycles / ((performance.now() - t0) / 1000) / 1e6;
}

async function main(): Promise<void> {
  const fx = await buildC64Fixture();
  const manager = new SessionManager({ connectors: CONNECTORS });
  const client = manager.start(
    { machine: 'c64', emulator: 'builtin', program: fx.prg, cwd: fx.dir },
    { kind: 'cli', label: 'bench' },
  );
  const { session } = client;
  try {
    await session.waitForStop(60_000);
    const target = session.feature(VICE_FEATURE);
    const monitor = (target as unknown as { client: MonitorClient }).client;
    const floor = await measure(() => monitor.request(Cmd.PING), N);
    const read64k = await measure(() => target.readBank(1, 0, 0x10000), Math.min(N, 100));
    // one C line step in add_scaled's body, repeated: PC goes back to the line's start between steps
    const bp = await client.setLineBreakpoint('util.c', fx.markers.scaled.line);
    await client.resume();
    await session.waitForStop(10_000);
    await client.clearBreakpoint(bp.id);
    const lineStart = bp.address!.offset;
    const vice = session.feature(VICE_FEATURE);
    const times: number[] = [];
    for (let i = 0; i < Math.min(N, 100); i++) {
      await vice.setRegisters([{ id: 0x03, value: lineStart }]);
      const t0 = performance.now();
      await client.stepOver();
      const st = await session.waitForStop(10_000);
      times.push(performance.now() - t0);
      if (st.location?.line !== fx.markers.add_return.line)
        throw new Error(`the step ended at ${JSON.stringify(st.location)}`);
    }
    times.sort((a, b) => a - b);
    const step = { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)] };
    const mcs = coreSpeed();
    const ms = (f: { median: number; p95: number }) => `median ${f.median.toFixed(3)} ms, p95 ${f.p95.toFixed(3)} ms`;
    console.log(`floor: PING round trip          ${ms(floor)}`);
    console.log(
      `64 KiB read (MEM_GET, bank ram) ${ms(read64k)}  = ${(read64k.median / floor.median).toFixed(1)}x floor`,
    );
    console.log(`C line step (step over)         ${ms(step)}  = ${(step.median / floor.median).toFixed(1)}x floor`);
    console.log(`6502 core: ${mcs.toFixed(0)}M cycles/s on the functional test`);
  } finally {
    await manager.closeAll();
  }
}

void main();
