/**
 * Snapshot save and load on the built-in C64 and MAME spectrum, through the session (what save_state/load_state
 * do, less the slot file's write), each as a ratio to a 64 KiB memory read in the same run, timed in alternation.
 * Targets: save ≤ ×20, load ≤ ×20. Run: node --import tsx bench/snapshot.bench.ts [iterations]
 */
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import type { LaunchConfig } from '../src/core/launch.js';
import { buildC64Fixture } from '../test/support/c64-fixture.js';
import { buildZxFixture } from '../test/support/zx-fixture.js';
import { measurePaired } from './measure.js';

const N = Number(process.argv[2] ?? 30);
const TARGET = 20;

async function machine(name: string, config: LaunchConfig): Promise<boolean> {
  const manager = new SessionManager({ connectors: CONNECTORS });
  try {
    const me = manager.start(config, { kind: 'cli', label: 'snapshot bench' });
    await me.whenReady(120_000);
    const read = () => me.session.readMemory({ space: 'cpu', offset: 0 }, 0x10000);
    const file = await me.saveState();
    const save = await measurePaired(read, () => me.saveState(), N);
    const load = await measurePaired(read, () => me.loadState(file), N);
    const ms = (f: { median: number; p95: number }) => `${f.median.toFixed(2)} ms (p95 ${f.p95.toFixed(2)})`;
    console.log(`${name}: snapshot ${file.length} bytes; 64 KiB read ${ms(save.a)}`);
    console.log(`  save ${ms(save.b)} = x${save.ratio.toFixed(1)} the read (target <= x${TARGET})`);
    console.log(`  load ${ms(load.b)} = x${load.ratio.toFixed(1)} the read (target <= x${TARGET})`);
    return save.ratio <= TARGET && load.ratio <= TARGET;
  } finally {
    await manager.closeAll();
  }
}

async function main(): Promise<void> {
  const c64 = await buildC64Fixture();
  const zx = await buildZxFixture();
  const ok = [
    await machine('built-in C64', { machine: 'c64', emulator: 'builtin', program: c64.prg }),
    await machine('MAME spectrum', { machine: 'spectrum', emulator: 'mame', program: zx.rom }),
  ];
  if (!ok.every(Boolean)) process.exitCode = 1;
}

void main();
