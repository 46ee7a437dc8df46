/**
 * Counts what a session asks of its emulator: every request on MAME's bridge
 * or VICE's binary monitor (the built-in's too), elsewhere every call into the
 * target's memory, run-control and breakpoint facets, is one request, and every
 * 'stopped' event the emulator sends is a stop of the CPU, whether or not the
 * session shows it. Wraps the live target in place.
 *
 * Round trips are counted as flights, on the wire itself (when a request's
 * bytes are written, when its reply is taken): a request written while an
 * earlier one is still unanswered joins that one's flight, since both wait out
 * the same latency; one written when none is outstanding starts a new flight.
 * Off the wire (facet calls) every request is its own flight. A request that
 * timed out stays outstanding here (its reply never came): later ones join
 * its flight, so count only runs without timeouts.
 */
import type { Target } from '../../src/core/target.js';
import type { SessionApi } from '../../src/session/types.js';
import { EVENT_ID, STX } from '../../src/connectors/vice/protocol.js';

export interface TargetTraffic {
  /** stops the emulator reported */
  stops: number;
  /** requests per facet method, e.g. `memory.read` */
  calls: Map<string, number>;
  /** the wire's requests in order (MAME's bridge, VICE's monitor: `vice.0x1` is a memory read, `vice.0xaa` exit) */
  order: string[];
  /** the requests grouped into flights, each in the order written (names as in `order`) */
  flights: string[][];
  /** all requests */
  readonly requests: number;
  /** round trips: the flights */
  readonly roundTrips: number;
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
    flights: [],
    get requests() {
      return [...this.calls.values()].reduce((a, b) => a + b, 0);
    },
    get roundTrips() {
      return this.flights.length;
    },
    reset() {
      this.stops = 0;
      this.calls.clear();
      this.order.length = 0;
      this.flights.length = 0;
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
    watchFlights(traffic, t, restore);
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
        traffic.flights.push([`${facet}.${name}`]);
        return (fn as (...a: unknown[]) => unknown).apply(object, args);
      };
    }
  }
  return traffic;
}

type Writable = { write: (chunk: unknown, ...rest: unknown[]) => boolean };

/** Groups the wire's requests into flights, from the bytes written and the replies taken (see the file's head). */
function watchFlights(
  traffic: TargetTraffic,
  t: { bridge?: unknown; vice?: { client?: unknown } },
  restore: (() => void)[],
): void {
  const outstanding = new Set<number>();
  const sent = (id: number, name: string) => {
    const flight = traffic.flights.at(-1);
    if (outstanding.size && flight) flight.push(name);
    else traffic.flights.push([name]);
    outstanding.add(id);
  };
  const hook = <T extends object, K extends keyof T>(object: T, key: K, wrap: (original: T[K]) => T[K]) => {
    const original = object[key];
    object[key] = wrap(original);
    restore.push(() => (object[key] = original));
  };
  // the clients keep these private: reached here only to watch them
  if (t.bridge) {
    const bridge = t.bridge as { socket?: Writable; onMessage: (msg: { id?: unknown }, binary?: unknown) => void };
    if (!bridge.socket) throw new Error('watchTarget: the MAME bridge is not connected yet');
    hook(bridge.socket, 'write', (write) => (chunk, ...rest) => {
      // a request is its JSON line, then any binary payload
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      const head = JSON.parse(bytes.subarray(0, bytes.indexOf(0x0a)).toString()) as { id: number; op: string };
      sent(head.id, `bridge.${head.op}`);
      return write.call(bridge.socket, chunk, ...rest);
    });
    // the bridge's own events (no id) are not replies
    hook(bridge, 'onMessage', (onMessage) => (msg, binary) => {
      if (typeof msg.id === 'number') outstanding.delete(msg.id);
      onMessage.call(bridge, msg, binary);
    });
    return;
  }
  const client = t.vice!.client as { socket: Writable; dispatch: (r: { requestId: number }) => void };
  hook(client.socket, 'write', (write) => (chunk, ...rest) => {
    const frame = chunk as Buffer;
    if (frame[0] === STX && frame.length >= 11) sent(frame.readUInt32LE(6), `vice.0x${frame[10].toString(16)}`);
    return write.call(client.socket, chunk, ...rest);
  });
  // taken before the client acts on it: a request it sends only once this reply came starts a new flight
  hook(client, 'dispatch', (dispatch) => (r) => {
    if (r.requestId !== EVENT_ID) outstanding.delete(r.requestId);
    dispatch.call(client, r);
  });
}

/** The emulator's own clock (MAME reports emulated seconds in its status), for benchmarks. */
export async function emulatedSeconds(session: SessionApi): Promise<number | undefined> {
  return (await (session as unknown as { target: Target }).target.status()).time;
}
