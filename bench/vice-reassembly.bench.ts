/**
 * VICE reply reassembly (issue 30's figure): a 4 MiB reply delivered a byte at a time against the same reply in one
 * chunk, through the real client; target <= x3. Run: node --import tsx bench/vice-reassembly.bench.ts [MiB]
 */
import { randomBytes } from 'node:crypto';
import { MonitorClient } from '../src/connectors/vice/monitor-client.js';
import { chunkedPeer } from '../test/support/vice-peer.js';

const BODY = randomBytes(Number(process.argv[2] ?? 4) * 1024 * 1024);

async function timed(chunk: number): Promise<number> {
  const client = MonitorClient.over(
    chunkedPeer(() => BODY, chunk),
    { requestTimeoutMs: 600_000 },
  );
  try {
    const t0 = performance.now();
    const reply = await client.request(0x01);
    if (!reply.equals(BODY)) throw new Error('the reply came back different');
    return performance.now() - t0;
  } finally {
    client.close();
  }
}

/** The floor: the same reply pushed a byte at a time to a reader that only counts the bytes. */
async function floor(): Promise<number> {
  const peer = chunkedPeer(() => BODY, 1);
  let got = 0;
  const done = new Promise<void>((resolve) =>
    peer.on('data', (b: Buffer) => {
      got += b.length;
      if (got >= BODY.length) resolve();
    }),
  );
  const t0 = performance.now();
  peer.write(Buffer.from([2, 2, 0, 0, 0, 0, 1, 0, 0, 0, 1]));
  await done;
  return performance.now() - t0;
}

async function main(): Promise<void> {
  await timed(Infinity); // warm up
  const whole = await timed(Infinity);
  const bytes = await timed(1);
  const base = await floor();
  const mib = BODY.length / 2 ** 20;
  console.log(`${mib} MiB reply in one chunk: ${whole.toFixed(1)} ms`);
  console.log(
    `${mib} MiB reply a byte at a time: ${bytes.toFixed(1)} ms; the stream alone (a reader counting the bytes): ` +
      `${base.toFixed(1)} ms; reassembly = x${(bytes / base).toFixed(2)} the stream's own cost (target <= x3)`,
  );
}

void main();
