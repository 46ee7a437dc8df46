/**
 * Counts what a session asks of its emulator: every request on MAME's bridge,
 * elsewhere every call into the target's memory, run-control and breakpoint
 * facets, is one request and its reply (a round trip), and every 'stopped' event the emulator sends is a stop of the
 * CPU, whether or not the session shows it. Wraps the live target in place.
 */
import type { Target } from '../../src/core/target.js';
import type { SessionApi } from '../../src/session/types.js';

export interface TargetTraffic {
  /** stops the emulator reported */
  stops: number;
  /** requests per facet method, e.g. `memory.read` */
  calls: Map<string, number>;
  /** all requests */
  readonly requests: number;
  reset(): void;
  /** puts the target's methods back and stops counting */
  stop(): void;
}

export function watchTarget(session: SessionApi): TargetTraffic {
  // the session keeps its target private: reached here only to count, never to drive it
  const target = (session as unknown as { target: Target }).target;
  const traffic: TargetTraffic = {
    stops: 0,
    calls: new Map(),
    get requests() {
      return [...this.calls.values()].reduce((a, b) => a + b, 0);
    },
    reset() {
      this.stops = 0;
      this.calls.clear();
    },
    stop() {
      unsubscribe();
      for (const undo of restore) undo();
    },
  };
  const restore: (() => void)[] = [];
  const unsubscribe = target.events.on((e) => {
    if (e.type === 'stopped') traffic.stops++;
  });
  // MAME: count the bridge's own requests (a facet call may be served without one, e.g. registers from the stop)
  const bridge = (target as unknown as { bridge?: { request: (...a: unknown[]) => unknown } }).bridge;
  if (bridge) {
    const request = bridge.request;
    restore.push(() => (bridge.request = request));
    bridge.request = (...args: unknown[]) => {
      traffic.calls.set(`bridge.${String(args[0])}`, (traffic.calls.get(`bridge.${String(args[0])}`) ?? 0) + 1);
      return request.apply(bridge, args);
    };
    return traffic;
  }
  for (const facet of ['memory', 'run', 'breakpoints', 'watch'] as const) {
    const object = target[facet] as unknown as Record<string, unknown> | undefined;
    if (!object) continue;
    for (const [name, fn] of Object.entries(object)) {
      if (typeof fn !== 'function') continue;
      restore.push(() => (object[name] = fn));
      object[name] = (...args: unknown[]) => {
        traffic.calls.set(`${facet}.${name}`, (traffic.calls.get(`${facet}.${name}`) ?? 0) + 1);
        return (fn as (...a: unknown[]) => unknown).apply(object, args);
      };
    }
  }
  return traffic;
}

/** The emulator's own clock (MAME reports emulated seconds in its status), for benchmarks. */
export async function emulatedSeconds(session: SessionApi): Promise<number | undefined> {
  return (await (session as unknown as { target: Target }).target.status()).time;
}
