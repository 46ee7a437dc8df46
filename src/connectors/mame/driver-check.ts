/**
 * Whether a MAME binary has a driver (e.g. Debian's 0.251 has no `sprinter`):
 * asked once per binary and machine with `mame -listfull <machine>`, before
 * anything else of a launch (the program, the media) is looked at, so an
 * unknown name is refused with MAME's own close matches.
 */
import { execFile } from 'node:child_process';
import { incompatibleTarget, launchFailed } from '../../core/errors.js';
import { unknownSystemMessage } from './unknown-system.js';

const cache = new Map<string, Promise<boolean>>();
const LIST_TIMEOUT_MS = 20_000;

export function mameHasDriver(mamePath: string, machine: string): Promise<boolean> {
  const key = `${mamePath}\0${machine}`;
  let found = cache.get(key);
  if (!found) {
    found = new Promise((resolve) => {
      execFile(mamePath, ['-listfull', machine], { timeout: LIST_TIMEOUT_MS }, (err, stdout) => {
        resolve(!err && new RegExp(`^${machine}\\s`, 'm').test(stdout));
      });
    });
    cache.set(key, found);
  }
  return found;
}

/** Machines that only newer MAME builds carry: refuse early, with what to do. */
const NEWER_DRIVERS: Record<string, string> = {
  sprinter:
    "The Sprinter driver arrived after MAME 0.251 (Debian 12's package). Run bash scripts/setup.sh, which installs " +
    'Debian 13\'s MAME 0.276 beside it (scripts/install-mame.sh), or set mamePath to a MAME that lists "sprinter" (mame -listfull sprinter).',
};

export async function requireDriver(mamePath: string, machine: string): Promise<void> {
  if (await mameHasDriver(mamePath, machine)) return;
  if (machine in NEWER_DRIVERS) {
    throw incompatibleTarget(`${mamePath} has no "${machine}" driver. ${NEWER_DRIVERS[machine]}`, {
      machine,
      mamePath,
    });
  }
  const output = await unknownMachineOutput(mamePath, machine);
  const message = unknownSystemMessage(output);
  // MAME did not say "unknown system" (it could not list at all?): let the launch itself report what goes wrong
  if (message) throw launchFailed(message, { machine, output });
}

/**
 * What MAME says when asked to run a machine it does not have: "Unknown system" and the approximate matches.
 * Only asked once -listfull found no such machine, so MAME exits at once instead of starting one.
 */
function unknownMachineOutput(mamePath: string, machine: string): Promise<string> {
  return new Promise((resolve) => {
    const args = [machine, '-video', 'none', '-sound', 'none', '-nowindow', '-skip_gameinfo', '-seconds_to_run', '1'];
    execFile(mamePath, args, { timeout: LIST_TIMEOUT_MS }, (_err, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
  });
}
