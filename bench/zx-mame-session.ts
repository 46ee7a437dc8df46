/** The SDCC Spectrum fixture on MAME with a breakpoint on its loop body, as the MAME time benches start it. */
import { SessionManager } from '../src/session/manager.js';
import { CONNECTORS } from '../src/connectors/registry.js';
import type { ClientSession } from '../src/session/client-session.js';
import type { LaunchConfig } from '../src/core/launch.js';
import { buildZxFixture } from '../test/support/zx-fixture.js';

/** Runs `body` with the session stopped at entry and the loop breakpoint set (`history`: its budget); closed after. */
export async function withZxMameLoop(
  body: (me: ClientSession) => Promise<void>,
  history?: LaunchConfig['history'],
): Promise<void> {
  const fx = await buildZxFixture();
  const manager = new SessionManager({ connectors: CONNECTORS });
  const me = manager.start(
    { machine: 'spectrum', emulator: 'mame', program: fx.rom, debugInfo: fx.cdb, cwd: fx.dir, history },
    { kind: 'cli', label: 'bench' },
  );
  const beat = setInterval(() => me.beat(), 300);
  try {
    await me.session.waitForStop(60_000);
    const m = fx.markers.loop_body;
    await me.setLineBreakpoint(m.file, m.line);
    await body(me);
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
