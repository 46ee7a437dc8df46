/**
 * A short, fixed-seed run of the VICE stream fuzzer (vice-stream.ts; `bench/vice-fuzz.bench.ts` runs a million):
 * nothing thrown into the event loop, every bad header ends its connection, every end named and clean.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzzViceStream } from './vice-stream.js';

test('5,000 malformed VICE frames: each bad header ends its connection cleanly, nothing escapes', async () => {
  const report = await fuzzViceStream(5_000, 20261204);
  assert.deepEqual(report.problems, []);
  // the run reached the checks: connections were ended by bad headers and by refused bodies
  assert.ok(report.badHeaders > 50, JSON.stringify(report));
  assert.ok(report.ended > report.badHeaders, JSON.stringify(report));
});
