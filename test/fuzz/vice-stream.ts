/**
 * The VICE connection under a stream of malformed frames (issue 30: a million of them): the real client and target
 * (MonitorClient, ViceTarget) on the built-in C64's monitor, each input pushed as if VICE had sent it. Checked per
 * input: nothing thrown into the event loop; a frame whose header is bad (no STX, a body over the limit) ends the
 * connection, and any end is a named protocol error with the target told (`exited`) and a request after it refused
 * at once as target_lost; the next input gets a fresh connection. `onSample` sees the heap (after a full GC when the
 * process allows one) every `sampleEvery` inputs.
 */
import type { Duplex } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { asRetroError } from '../../src/core/errors.js';
import { BuiltinMonitorServer } from '../../src/connectors/builtin-c64/monitor-server.js';
import { MAX_RESPONSE_BODY, MonitorClient } from '../../src/connectors/vice/monitor-client.js';
import { ViceTarget } from '../../src/connectors/vice/vice-target.js';
import { Cmd, RESPONSE_HEADER, STX } from '../../src/connectors/vice/protocol.js';
import { rng } from './mutate.js';
import { mutateFrame, viceSeeds } from './targets.js';

export interface ViceStreamReport {
  inputs: number;
  /** connections the inputs ended (each a named protocol error) */
  ended: number;
  /** of them, by a bad header the check predicted */
  badHeaders: number;
  /** inputs that left a frame cut short (its connection closed by us, the next input on a fresh one) */
  cut: number;
  ms: number;
  problems: string[];
}

interface Conn {
  server: BuiltinMonitorServer;
  stream: Duplex;
  client: MonitorClient;
  target: ViceTarget;
  exited: boolean;
}

async function open(): Promise<Conn> {
  const server = new BuiltinMonitorServer();
  const stream = server.connectInProcess();
  const client = MonitorClient.over(stream, { requestTimeoutMs: 2000 });
  const target = await ViceTarget.open(client, { kind: 'builtin', shutdown: () => server.close() });
  const conn: Conn = { server, stream, client, target, exited: false };
  target.events.on((e) => {
    if (e.type === 'exited') conn.exited = true;
  });
  return conn;
}

/** Bytes the client holds of a frame not yet whole (0: the next input starts a frame). */
const heldBytes = (client: MonitorClient) => (client as unknown as { inboxBytes: number }).inboxBytes;

/** A header the client must refuse: the input starts a frame, and it is not VICE's. */
function badHeader(input: Buffer): boolean {
  if (input.length < RESPONSE_HEADER) return false;
  return input[0] !== STX || input.readUInt32LE(2) > MAX_RESPONSE_BODY;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

export function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export async function fuzzViceStream(
  count: number,
  seed: number,
  sample?: { every: number; onSample: (inputs: number, heapMb: number) => void },
): Promise<ViceStreamReport> {
  const r = rng(seed);
  const seeds = viceSeeds();
  const problems: string[] = [];
  const uncaught = (err: unknown) => problems.push(`uncaught: ${(err as Error)?.stack ?? String(err)}`);
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', uncaught);
  const gc = sample ? fullGc() : undefined;
  let conn = await open();
  let ended = 0;
  let badHeaders = 0;
  let cut = 0;
  const t0 = performance.now();
  try {
    for (let i = 0; i < count && problems.length < 5; i++) {
      const input = i < seeds.length ? seeds[i] : mutateFrame(r, seeds);
      const mustEnd = heldBytes(conn.client) === 0 && badHeader(input);
      conn.stream.push(input);
      await tick();
      const reason = conn.client.closed;
      const at = `input ${i} (${input.toString('base64').slice(0, 120)})`;
      if (mustEnd && !reason) problems.push(`${at}: a bad header left the connection open`);
      if (reason) {
        ended++;
        if (mustEnd) badHeaders++;
        if (!reason.startsWith('protocol error: ')) problems.push(`${at}: the connection ended unnamed: ${reason}`);
        if (!conn.exited) problems.push(`${at}: the target was not told the connection ended`);
        const refused = await conn.client.request(Cmd.PING).then(
          () => 'answered',
          (err) => asRetroError(err).code,
        );
        if (refused !== 'target_lost') problems.push(`${at}: a request after the end: ${refused}`);
        await conn.target.close().catch(() => undefined);
        conn = await open();
      } else if (heldBytes(conn.client) > 0) {
        // a frame cut short waits for its body (up to 8 MiB): the next input would only feed it
        cut++;
        await conn.target.close().catch(() => undefined);
        conn = await open();
      }
      if (sample && (i + 1) % sample.every === 0) {
        gc!();
        sample.onSample(i + 1, process.memoryUsage().heapUsed / 2 ** 20);
      }
    }
  } finally {
    await conn.target.close().catch(() => undefined);
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', uncaught);
  }
  return { inputs: count, ended, badHeaders, cut, ms: performance.now() - t0, problems };
}
