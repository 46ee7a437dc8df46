// The VICE client joins a reply's chunks once it is whole (not on every chunk): the same bytes come out however
// the stream cuts them, a byte at a time included, and a reply after a big one in the same chunks is not lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { MonitorClient } from '../../src/connectors/vice/monitor-client.js';
import { chunkedPeer } from '../support/vice-peer.js';

const BODY = randomBytes(256 * 1024);

for (const chunk of [1, 5, 12, 13, 4096, Infinity]) {
  test(`a 256 KiB reply cut into ${chunk === Infinity ? 'one chunk' : `${chunk}-byte chunks`} arrives whole`, async () => {
    const client = MonitorClient.over(chunkedPeer((command) => (command === 0x01 ? BODY : Buffer.of(command)), chunk));
    try {
      const [big, small] = await Promise.all([client.request(0x01), client.request(0x81)]);
      assert.ok(big.equals(BODY));
      assert.deepEqual([...small], [0x81]);
    } finally {
      client.close();
    }
  });
}
