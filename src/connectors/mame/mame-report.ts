/**
 * For the diagnostics report: every MAME on this computer with its version, and which one runs each machine the
 * project's programs target (mame-finder.ts's choice, the same a launch without mamePath makes), or that none can.
 */
import { execFile } from 'node:child_process';
import { mameHasDriver } from './driver-check.js';
import { mameCandidates } from './mame-finder.js';

/** The drivers the project's C debugging is built for (test fixtures, the open Sprinter ROM). */
export const PROJECT_DRIVERS = ['spectrum', 'sprinter'] as const;
const VERSION_TIMEOUT_MS = 10_000;

function versionOf(mame: string): Promise<string> {
  return new Promise((done) =>
    execFile(mame, ['-version'], { timeout: VERSION_TIMEOUT_MS }, (err, stdout) =>
      done(err ? `does not run (${err.message.split('\n')[0]})` : stdout.trim().split(/\s/)[0] || 'no version printed'),
    ),
  );
}

export async function mameDriverReport(): Promise<string[]> {
  const mames = mameCandidates();
  if (!mames.length) return ['MAME: none found (no "mame" on PATH, no scripts/install-mame.sh install)'];
  const versions = await Promise.all(mames.map(versionOf));
  const lines = mames.map((m, i) => `MAME ${versions[i]}: ${m}`);
  for (const driver of PROJECT_DRIVERS) {
    let runs: string | undefined;
    for (const m of mames) if (!runs && (await mameHasDriver(m, driver))) runs = m;
    lines.push(
      runs
        ? `${driver} runs on ${runs} (MAME ${versions[mames.indexOf(runs)]})`
        : `${driver}: no MAME here has the driver; run bash scripts/setup.sh (it installs one) or set mamePath`,
    );
  }
  return lines;
}
