/**
 * What a false breakpoint condition costs the running program, as ratios to the floor measured in the same run:
 * the program running with no breakpoint. The measure is wall time per emulated second (a loop iteration is a
 * fixed number of emulated cycles, so this is the time per iteration up to a constant): on real MAME with the
 * SDCC ZX fixture, a breakpoint in the main loop; on the built-in C64 with the cc65 fixture waiting for a key, a
 * breakpoint on the KERNAL's IRQ entry (60 hits an emulated second). Each condition is false throughout: compiled
 * into the emulator's breakpoint, or the session's (a stop, a read, a resume per hit). Also the CPU stops counted
 * at the target. Last, a host-side condition on a cc65 local (read through cc65's C stack pointer) on the built-in
 * C64 over its VICE protocol: the monitor's requests and round trips per false hit (requests sent back to back,
 * before any is answered, are one round trip: test/support/target-traffic.ts), and the time a hit costs as a ratio
 * to one raw monitor round trip (a 1-byte read while stopped) measured in the same run; with X64SC naming a real
 * x64sc, the same on it over TCP.
 * Run: node --import tsx bench/conditions.bench.ts [seconds per case]
 */
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import type { ClientSession } from '../src/session/client-session.js';
import { sleep } from '../src/core/async.js';
import { buildZxFixture } from '../test/support/zx-fixture.js';
import { join } from 'node:path';
import { buildC64Fixture, buildCc65Program, findMarkers, REPO_ROOT } from '../test/support/c64-fixture.js';
import { measure } from './measure.js';
import { emulatedSeconds, watchTarget } from '../test/support/target-traffic.js';

const SECONDS = Number(process.argv[2] ?? 2);

interface Case {
  name: string;
  condition?: string;
  /** no breakpoint at all: the floor */
  none?: boolean;
}

/** Wall seconds per emulated second while running `SECONDS` with the breakpoint of `c`, and the stops seen. */
async function run(
  client: ClientSession,
  place: (condition?: string) => Promise<{ id: number; native?: string }>,
  emulated: () => Promise<number>,
  c: Case,
) {
  const { session } = client;
  const bp = c.none ? undefined : await place(c.condition);
  if (bp && c.condition && (bp.native !== undefined) !== c.name.includes('compiled'))
    throw new Error(`${c.name}: the condition ${bp.native ? 'compiled' : 'did not compile'}`);
  const traffic = watchTarget(session);
  const e0 = await emulated();
  const t0 = performance.now();
  await client.resume();
  await sleep(SECONDS * 1000);
  await client.nextStop(30_000, () => client.pause());
  const wall = (performance.now() - t0) / 1000;
  const dt = (await emulated()) - e0;
  traffic.stop();
  if (bp) await client.clearBreakpoint(bp.id);
  return { perEmulated: wall / dt, stops: traffic.stops, dt };
}

async function bench(
  title: string,
  client: ClientSession,
  place: (condition?: string) => Promise<{ id: number; native?: string }>,
  emulated: () => Promise<number>,
  cases: Case[],
): Promise<void> {
  const results = [];
  for (const c of cases) {
    results.push({ c, ...(await run(client, place, emulated, c)) });
    process.stderr.write('.');
  }
  const floor = results[0].perEmulated;
  console.log(title);
  for (const r of results)
    console.log(
      `  ${r.c.name.padEnd(34)} ${r.perEmulated.toFixed(3)} s wall per emulated s = ${(r.perEmulated / floor).toFixed(2)}x floor` +
        `  (${r.stops} CPU stops in ${r.dt.toFixed(2)} emulated s` +
        (r.stops > 10 ? `, ${(((r.perEmulated - floor) * r.dt * 1000) / r.stops).toFixed(2)} ms a hit)` : ')'),
    );
}

async function main(): Promise<void> {
  const manager = new SessionManager({ connectors: CONNECTORS, leaseMs: 60_000 });
  try {
    const zx = await buildZxFixture();
    const mame = manager.start(
      { machine: 'spectrum', emulator: 'mame', program: zx.rom, debugInfo: zx.cdb, cwd: zx.dir },
      { kind: 'cli', label: 'bench' },
    );
    await mame.session.waitForStop(60_000);
    const loop = zx.markers.loop_body;
    await bench(
      'MAME (SDCC), breakpoint in the main loop:',
      mame,
      async (condition) => {
        const b = await mame.setLineBreakpoint(loop.file, loop.line, condition);
        return { id: b.id, native: b.native_condition };
      },
      async () => (await emulatedSeconds(mame.session)) ?? NaN,
      [
        { name: 'no breakpoint (floor)', none: true },
        { name: 'false compiled: origin.x == 99', condition: 'origin.x == 99' },
        { name: 'false host-side: (origin.x ^ 1) == 99', condition: '(origin.x ^ 1) == 99' },
      ],
    );

    const c64 = await buildC64Fixture();
    const builtin = manager.start(
      { machine: 'c64', emulator: 'builtin', program: c64.prg, cwd: c64.dir },
      { kind: 'cli', label: 'bench' },
    );
    await builtin.session.waitForStop(60_000);
    // run to the key wait: the program then sits in cgetc, the KERNAL's IRQ ticking 60 times a second
    const wait = await builtin.setLineBreakpoint(c64.markers.wait_key.file, c64.markers.wait_key.line);
    await builtin.resume();
    await builtin.session.waitForStop(60_000);
    await builtin.clearBreakpoint(wait.id);
    // the jiffy clock at $A0-$A2 counts emulated 1/60 s
    const jiffies = async () => {
      const b = await builtin.session.readMemory({ space: 'cpu', offset: 0xa0 }, 3);
      return ((b[0] << 16) | (b[1] << 8) | b[2]) / 60;
    };
    await bench(
      'Built-in C64 (cc65), breakpoint on the IRQ entry $EA31:',
      builtin,
      async (condition) => {
        const b = await builtin.setAddressBreakpoint({ space: 'cpu', offset: 0xea31 }, condition);
        return { id: b.id, native: b.native_condition };
      },
      jiffies,
      [
        { name: 'no breakpoint (floor)', none: true },
        { name: 'false compiled: counter == 99', condition: 'counter == 99' },
        { name: 'false host-side: counter * 2 == 99', condition: 'counter * 2 == 99' },
      ],
    );

    await cc65Local(manager, 'builtin');
    // with X64SC naming a real x64sc, the same over TCP to VICE, where a round trip is what a hit waits for
    if (process.env.X64SC) await cc65Local(manager, 'vice');
  } finally {
    await manager.closeAll();
  }
}

/** A false host-side condition on a cc65 local at every call of `step`: round trips a hit, and a hit's time. */
async function cc65Local(manager: SessionManager, emulator: 'builtin' | 'vice'): Promise<void> {
  const dir = await buildCc65Program(join(REPO_ROOT, 'test', 'fixtures', 'c64', 'locals'), ['locals.c']);
  const at = (await findMarkers([join(dir, 'locals.c')])).step_return;
  const client = manager.start(
    {
      machine: 'c64',
      emulator,
      program: join(dir, 'program.prg'),
      cwd: dir,
      ...(emulator === 'vice' ? { vicePath: process.env.X64SC } : {}),
    },
    { kind: 'cli', label: 'bench' },
  );
  await client.session.waitForStop(60_000);
  const raw = await measure(() => client.session.readMemory({ space: 'cpu', offset: 0xa0 }, 1), 200);
  const bp = await client.setLineBreakpoint(at.file, at.line, 'y == 200');
  if (bp.native_condition !== undefined || !bp.verified) throw new Error(`y == 200: ${bp.message ?? 'compiled'}`);
  const traffic = watchTarget(client.session);
  traffic.reset();
  const t0 = performance.now();
  await client.resume();
  await sleep(SECONDS * 1000);
  await client.nextStop(30_000, () => client.pause());
  const wall = performance.now() - t0;
  traffic.stop();
  await client.clearBreakpoint(bp.id);
  // beside the bench's own resume and pause (one request and one round trip each), each false hit's
  const hits = traffic.stops - 1;
  const perHit = (traffic.requests - 2) / hits;
  const tripsPerHit = (traffic.roundTrips - 2) / hits;
  const msPerHit = wall / hits;
  const machine = emulator === 'vice' ? 'VICE x64sc (cc65) over TCP' : 'Built-in C64 (cc65) over its VICE protocol';
  console.log(`${machine}, false host-side condition on a C-stack local (y == 200):`);
  console.log(
    `  ${hits} hits in ${(wall / 1000).toFixed(2)} s: ${perHit.toFixed(2)} monitor requests and ` +
      `${tripsPerHit.toFixed(2)} round trips a hit (target <= 2); ` +
      `${msPerHit.toFixed(2)} ms a hit = ${(msPerHit / raw.median).toFixed(1)}x a raw monitor round trip ` +
      `(1-byte read while stopped: median ${raw.median.toFixed(3)} ms, p95 ${raw.p95.toFixed(3)} ms)`,
  );
}

void main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
