/**
 * Long fuzz runs: `npm run fuzz -- [--count N] [--seed S] [--target NAME]`.
 * Prints one line per target and the first findings; exits 1 on any finding.
 */
import { parseArgs } from 'node:util';
import { fuzz } from './engine.js';
import { TARGETS } from './targets.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '200000' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
    target: { type: 'string' },
  },
});
async function main(): Promise<boolean> {
  let failed = false;
  for (const target of TARGETS.filter((t) => !values.target || t.name === values.target)) {
    const report = await fuzz(target, Number(values.count), Number(values.seed));
    process.stdout.write(
      `${target.name}: ${report.inputs} inputs in ${report.ms} ms (seed ${values.seed}), ${report.findings.length} findings\n`,
    );
    for (const f of report.findings)
      process.stdout.write(`  ${f.problem}\n  input (base64): ${f.input.slice(0, 400)}\n`);
    failed ||= report.findings.length > 0;
  }
  return failed;
}

void main().then((failed) => process.exit(failed ? 1 : 0));
