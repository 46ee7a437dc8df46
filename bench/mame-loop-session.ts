/**
 * A MAME machine's SDCC fixture with a breakpoint on a C line of its endless loop, as the MAME time benches start it:
 * the spectrum fixture ROM (its loop body) or the Sprinter fixture .EXE on the open ROM (its key loop).
 */
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import type { ClientSession } from '../src/session/client-session.js';
import type { LaunchConfig } from '../src/core/launch.js';
import { buildZxFixture } from '../test/support/zx-fixture.js';
import { buildSprinterFixture } from '../test/support/sprinter-fixture.js';

export const LOOP_MACHINES = ['spectrum', 'sprinter'] as const;
export type LoopMachine = (typeof LOOP_MACHINES)[number];

/** What a bench needs of the fixture: the launch, the loop line, and a global the loop writes each turn. */
interface LoopFixture {
  launch: Pick<LaunchConfig, 'machine' | 'program' | 'debugInfo' | 'cwd'>;
  loop: { file: string; line: number };
  written: string;
}

async function loopFixture(machine: LoopMachine): Promise<LoopFixture> {
  if (machine === 'sprinter') {
    const fx = await buildSprinterFixture();
    const launch = { machine, program: fx.exe, debugInfo: fx.cdb, cwd: fx.dir };
    return { launch, loop: fx.markers.key, written: 'counter' };
  }
  const fx = await buildZxFixture();
  const launch = { machine, program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir };
  return { launch, loop: fx.markers.loop_body, written: 'total' };
}

/** The machine named on the command line (`argv[index]`), spectrum when absent; a clear error for another name. */
export function loopMachineArg(index: number): LoopMachine {
  const name = process.argv[index] ?? 'spectrum';
  const machine = LOOP_MACHINES.find((m) => m === name);
  if (!machine) throw new Error(`machine '${name}': expected one of ${LOOP_MACHINES.join(', ')}`);
  return machine;
}

/**
 * Runs `body` with the session stopped at entry and the loop breakpoint set (`history`: its budget); closed after.
 * `written`: the global the loop writes each turn.
 */
export async function withMameLoop(
  machine: LoopMachine,
  body: (me: ClientSession, written: string) => Promise<void>,
  history?: LaunchConfig['history'],
): Promise<void> {
  const fx = await loopFixture(machine);
  const manager = new SessionManager({ connectors: CONNECTORS });
  const me = manager.start({ ...fx.launch, emulator: 'mame', history }, { kind: 'cli', label: 'bench' });
  const beat = setInterval(() => me.beat(), 300);
  try {
    await me.session.waitForStop(60_000);
    await me.setLineBreakpoint(fx.loop.file, fx.loop.line);
    await body(me, fx.written);
  } finally {
    clearInterval(beat);
    await manager.closeAll();
  }
}

/** The milliseconds from `move` until the stop it leads to. */
export async function timedStop(me: ClientSession, move: () => Promise<unknown>, timeoutMs = 60_000): Promise<number> {
  const t0 = performance.now();
  const stop = me.nextStop(timeoutMs);
  await move();
  await stop;
  return performance.now() - t0;
}
