/**
 * The bounded fuzz run in `npm test`: every target, a fixed seed, zero
 * findings (crashes, uncaught errors, hangs). 20,000 inputs per target; the
 * two debug-info parsers re-parse a whole real file per input, so they get
 * 4,000 to keep CI well under its 30 minutes. FUZZ_COUNT=N overrides both;
 * `npm run fuzz` runs long, with a fresh seed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzz } from './engine.js';
import { TARGETS } from './targets.js';

const override = process.env.FUZZ_COUNT ? Number(process.env.FUZZ_COUNT) : undefined;
const WHOLE_FILE = new Set(['sdcc-cdb', 'cc65-dbg']);

for (const target of TARGETS) {
  const count = override ?? (WHOLE_FILE.has(target.name) ? 4_000 : 20_000);
  test(`fuzz ${target.name}: ${count} inputs, no crash, no hang`, { timeout: 600_000 }, async () => {
    const report = await fuzz(target, count, 20261201);
    assert.deepEqual(
      report.findings.map((f) => `${f.problem}\n  input (base64): ${f.input.slice(0, 300)}`),
      [],
      `${target.name}: findings after ${report.inputs} inputs`,
    );
  });
}
