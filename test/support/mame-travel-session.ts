// A MAME time-travel test's session and its probes (spectrum and Sprinter tests share them): the machine's 64 KiB and
// registers as one hash, where the last stop is, a move that waits for its stop, and the refusals at the history's start.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { SessionManager } from '../../src/session/manager.js';
import { CONNECTORS } from '../../src/connectors/registry.js';
import type { ClientSession } from '../../src/session/client-session.js';
import type { LaunchConfig } from '../../src/core/launch.js';
import { reverseContinue, stepBackTarget, timeTravel, travelTo } from '../../src/session/time-travel.js';

export interface TravelSession {
  manager: SessionManager;
  me: ClientSession;
  /** Stops the heartbeat and closes every session of the manager. */
  close(): Promise<void>;
}

/** Starts a session of `launch` with a heartbeat and waits for its first stop (ready). */
export async function openTravelSession(launch: LaunchConfig, label: string): Promise<TravelSession> {
  const manager = new SessionManager({ connectors: CONNECTORS });
  const me = manager.start(launch, { kind: 'cli', label });
  const beat = setInterval(() => me.beat(), 300);
  const st = await me.session.waitForStop(60_000);
  assert.equal(st.phase, 'ready', JSON.stringify(st.error ?? st.progress));
  return {
    manager,
    me,
    close: async () => {
      clearInterval(beat);
      await manager.closeAll();
    },
  };
}

/** The 64 KiB the CPU sees and every register, as one hash. */
export async function machineHash(me: ClientSession): Promise<string> {
  const h = createHash('sha256');
  h.update(await me.session.readMemory({ space: 'cpu', offset: 0 }, 0x10000));
  for (const r of await me.session.readRegisters()) h.update(`${r.name}=${r.value};`);
  return h.digest('hex');
}

/** The last stop's C line, pc and whether it is in the past. */
export async function where(me: ClientSession): Promise<{ line?: number; pc: number; inPast: boolean }> {
  const stop = (await me.session.status()).last_stop;
  const pc = stop?.pc ?? -1;
  return { line: me.session.locationAt(pc)?.line, pc, inPast: stop?.inPast === true };
}

/** The last stop's C line and whether it is in the past (for comparing with a line alone). */
export async function lineWhere(me: ClientSession): Promise<{ line?: number; inPast: boolean }> {
  const { line, inPast } = await where(me);
  return { line, inPast };
}

/** Runs `move` and waits for the stop it makes. */
export const stopAfter = (me: ClientSession, move: () => Promise<unknown>) =>
  me.nextStop(60_000, async () => void (await move()));

const refusedAtStart = (e: Error & { code?: string }) =>
  e.code === 'bad_request' && /start of its recorded history/.test(e.message);

/** At the history's first moment Step Back (by `unit`) and Reverse Continue are refused, a moment before it too, and
 *  the session stays where it was; then it returns to the present. */
export async function checkHistoryStartRefused(me: ClientSession, unit: 'line' | 'instruction'): Promise<void> {
  const span = timeTravel(me.session).span();
  await stopAfter(me, () => travelTo(me, span.startCycle));
  const here = await where(me);
  assert.equal(here.inPast, true);
  const hash = await machineHash(me);
  await assert.rejects(stepBackTarget(me.session, unit), refusedAtStart);
  await assert.rejects(reverseContinue(me), refusedAtStart);
  await assert.rejects(
    travelTo(me, span.startCycle - 1),
    (e: Error & { code?: string }) => e.code === 'bad_request' && /outside the recorded history/.test(e.message),
  );
  assert.deepEqual(await where(me), here);
  assert.equal(await machineHash(me), hash);
  await stopAfter(me, () => travelTo(me, span.endCycle));
  assert.equal((await where(me)).inPast, false);
}
