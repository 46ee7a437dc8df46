/**
 * DOS guest costs on each backend (native DOSBox 0.74 via /proc/PID/mem; the
 * embedded wasm DOSBox-X in its worker thread), each against a floor measured
 * in the same run on the same memory:
 *  - discovery scan (findGuestBase)  vs  reading the same regions in the same chunks, no parsing;
 *  - a mode-13h frame (64,000 pixels: read of the chain-4 span + decode)  vs  a bare read of the same span;
 *  - key to effect (ring write → KEYECHO's key counter moves)  vs  the bare ring write (two small writes).
 * Run: node --import tsx bench/dos-guest.bench.ts [iterations]
 */
import { join } from 'node:path';
import { launchDosboxTarget, type DosBackend } from '../src/connectors/dosbox/launcher.js';
import type { DosboxTarget } from '../src/connectors/dosbox/dosbox-target.js';
import { findGuestBase } from '../src/connectors/dosbox/discovery.js';
import { typeKeys } from '../src/connectors/dosbox/input.js';
import { wasmAvailable } from '../src/connectors/dosbox/wasm-launcher.js';
import type { HostMemory } from '../src/connectors/dosbox/host-memory.js';
import { MODE13_SPAN } from '../src/machines/dos/video.js';
import { charKey } from '../src/machines/dos/keys.js';
import { buildDosFixtures } from '../test/support/dos-fixture.js';
import { REPO_ROOT } from '../test/support/zx-fixture.js';
import { measure as measureN, type Figures } from './measure.js';

const N = Number(process.argv[2] ?? 30);
const CHUNK = 16 << 20;
const measure = (fn: () => Promise<unknown>, n = N) => measureN(fn, n);

/** The floor of a scan: every byte discovery looks at, read the same way, not parsed. */
async function sweep(mem: HostMemory): Promise<void> {
  for (const r of await mem.regions()) {
    if (r.end - r.start < 0x110000) continue;
    for (let at = r.start; at < r.end; at += CHUNK)
      await mem.read(at, Math.min(CHUNK + 4096, r.end - at)).catch(() => undefined);
  }
}

function row(name: string, f: Figures, floor: Figures): void {
  console.log(
    `  ${name.padEnd(48)} median ${f.median.toFixed(3).padStart(9)} ms  p95 ${f.p95.toFixed(3).padStart(9)} ms  x${(f.median / floor.median).toFixed(1).padStart(7)} floor`,
  );
}

async function launch(backend: DosBackend, program: string): Promise<DosboxTarget> {
  return launchDosboxTarget(
    { machine: 'dos', emulator: 'dosbox', program, dos: { backend } },
    { workDir: join(REPO_ROOT, '.test-work', 'bench-dos') },
  );
}

async function benchBackend(
  backend: DosBackend,
  programs: Record<string, { com: string; labels: Record<string, number> }>,
): Promise<void> {
  console.log(`\n${backend}`);
  const ke = await launch(backend, programs.keyecho.com);
  try {
    const m = ke.machine;
    const mem = m.guest.host;
    const scanFloor = await measure(() => sweep(mem), Math.min(N, 10));
    row('raw sweep of scanned regions (floor)', scanFloor, scanFloor);
    row('discovery scan (findGuestBase)', await measure(() => findGuestBase(mem), Math.min(N, 10)), scanFloor);

    const { programs: list } = await m.guest.programMap();
    const psp = list.find((p) => p.name === 'KEYECHO')!.psp;
    const countAt = psp * 16 + programs.keyecho.labels.count;
    const counter = async () => Buffer.from(await m.guest.read(countAt, 2)).readUInt16LE(0);
    const slot = 0x41e; // a ring slot: the floor writes the same two words typeKeys writes, without advancing the tail
    const ringFloor = await measure(async () => {
      await m.guest.write(slot, Uint8Array.of(0, 0));
      await m.guest.write(0x41c, await m.guest.read(0x41c, 2));
    });
    row('bare ring write (floor)', ringFloor, ringFloor);
    const key = charKey('k');
    const effect = await measure(
      async () => {
        const before = await counter();
        await typeKeys(m.guest, [key], { timeoutMs: 2000, drainMs: 0 });
        const deadline = Date.now() + 5000;
        while ((await counter()) === before) {
          if (Date.now() > deadline) throw new Error('KEYECHO did not count the key');
          await new Promise((r) => setImmediate(r));
        }
      },
      Math.min(N, 20),
    );
    row('key to effect (KEYECHO counts it)', effect, ringFloor);
  } finally {
    await ke.close();
  }

  const mo = await launch(backend, programs.mode13.com);
  try {
    const m = mo.machine;
    const screen = await m.screen();
    const deadline = Date.now() + 10_000;
    while ((await m.guest.bda()).videoMode !== 0x13) {
      if (Date.now() > deadline) throw new Error('MODE13 did not switch to mode 13h');
      await new Promise((r) => setTimeout(r, 50));
    }
    const spanFloor = await measure(() => m.guest.host.read(screen.where.address, MODE13_SPAN));
    const pixelFloor = await measure(() => m.guest.host.read(screen.where.address, 64000));
    row(`raw read of the chain-4 span, ${MODE13_SPAN} B (floor)`, spanFloor, spanFloor);
    row('raw read of 64,000 B', pixelFloor, spanFloor);
    row(
      'frame read + decode (64,000 pixels)',
      await measure(() => screen.frame({ allowUnconfirmed: true })),
      spanFloor,
    );
  } finally {
    await mo.close();
  }
}

async function main(): Promise<void> {
  const { programs } = await buildDosFixtures();
  console.log(
    `DOS guest benchmark, ${N} iterations (fewer for scans and keys); ratios are median / the floor named in that block`,
  );
  await benchBackend('native', programs);
  if (wasmAvailable()) await benchBackend('wasm-dosbox-x', programs);
  else console.log('\nwasm-dosbox-x: skipped (optional npm package "emulators" not installed)');
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
