/**
 * Counts what a session asks of its emulator: every request on MAME's bridge
 * or VICE's binary monitor (the built-in's too), elsewhere every call into the
 * target's memory, run-control and breakpoint facets, is one request and its reply (a round trip), and every 'stopped' event the emulator sends is a stop of the
 * CPU, whether or not the session shows it. Wraps the live target in place.
 */
import type { Target } from '../../src/core/target.js';
import type { SessionApi } from '../../src/session/types.js';

export interface TargetTraffic {
  /** stops the emulator reported */
  stops: number;
  /** requests per facet method, e.g. `memory.read` */
  calls: Map<string, number>;
  /** the wire's requests in order (MAME's bridge, VICE's monitor: `vice.0x1` is a memory read, `vice.0xaa` exit) */
  order: string[];
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
    order: [],
    get requests() {
      return [...this.calls.values()].reduce((a, b) => a + b, 0);
    },
    reset() {
      this.stops = 0;
      this.calls.clear();
      this.order.length = 0;
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
  // MAME's bridge and VICE's monitor client: count their own requests (a facet call may be served without one,
  // e.g. registers that came with the stop)
  type Wire = { request: (...a: unknown[]) => unknown };
  const t = target as unknown as { bridge?: Wire; vice?: { client?: Wire } };
  const wire = t.bridge ?? t.vice?.client;
  if (wire) {
    const prefix = t.bridge ? 'bridge' : 'vice';
    const request = wire.request;
    restore.push(() => (wire.request = request));
    wire.request = (...args: unknown[]) => {
      const name = `${prefix}.${typeof args[0] === 'number' ? `0x${args[0].toString(16)}` : String(args[0])}`;
      traffic.calls.set(name, (traffic.calls.get(name) ?? 0) + 1);
      traffic.order.push(name);
      return request.apply(wire, args);
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
