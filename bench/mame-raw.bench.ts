/**
 * Raw MAME abilities: round trips of list_ports, read_port, a 32-instruction
 * disassembly, a read-only console command, list_shares and a full screen of
 * pixels, each against the floor (a bare `echo` over the same socket), with
 * the CPU held. Then a 3-frame key press while running (frame-paced: its
 * floor is 3 emulated frames at -nothrottle).
 * Run: node --import tsx bench/mame-raw.bench.ts [iterations]
 */
import { join } from 'node:path';
import { launchMameTarget } from '../src/connectors/mame/mame-target.js';
import { MAME_RAW_FEATURE } from '../src/connectors/mame/mame-raw.js';
import { buildZxFixture, REPO_ROOT } from '../test/support/zx-fixture.js';
import { measure as timeCalls, type Figures } from './measure.js';

const N = Number(process.argv[2] ?? 200);

/** Shared timing with this bench's own default iteration count. */
const measure = (fn: () => Promise<unknown>, n = N): Promise<Figures> => timeCalls(fn, n);

async function main(): Promise<void> {
  const fx = await buildZxFixture();
  const t = await launchMameTarget(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom },
    { workDir: join(REPO_ROOT, '.test-work', 'bench') },
  );
  const raw = t.features.get(MAME_RAW_FEATURE)!;
  try {
    const floor = await measure(() => t.echo());
    const rows: Array<[string, Figures]> = [
      ['list_ports (11 ports, 47 fields)', await measure(() => raw.listPorts())],
      ['read_port', await measure(() => raw.readPort(':LINE1'))],
      ['disassemble 32', await measure(() => raw.disassemble(0x100, 32), Math.min(N, 100))],
      ['console "print pc"', await measure(() => raw.console('print pc'))],
      ['list_shares', await measure(() => raw.listShares())],
      ['screen pixels 352x296', await measure(() => t.screenshot(), Math.min(N, 50))],
    ];
    const field = (await raw.listPorts()).find((p) => p.tag === ':LINE1')!.fields[0].name;
    await t.resume();
    const press = await measure(async () => {
      const { done } = await raw.enqueueInput([{ fields: [{ port: ':LINE1', field }], frames: 3 }]);
      await done;
    }, 20);
    await t.pause();
    console.log(`MAME raw-ops benchmark, ${N} iterations, spectrum -nothrottle, CPU held`);
    const row = (name: string, f: Figures) =>
      console.log(
        `${name.padEnd(34)} median ${f.median.toFixed(3).padStart(8)} ms  p95 ${f.p95.toFixed(3).padStart(8)} ms  x${(f.median / floor.median).toFixed(1).padStart(6)} floor`,
      );
    row('echo (floor)', floor);
    for (const [name, f] of rows) row(name, f);
    row('press_key 3 frames, running', press);
  } finally {
    await t.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
