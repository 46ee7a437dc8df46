/**
 * Brings a freshly connected VICE (or the built-in C64) to the first
 * instruction of a PRG: stale checkpoints deleted (they survive reconnects),
 * an exec checkpoint at the program's entry armed BEFORE autostart, then
 * autostart and wait for that stop. The session then arms its breakpoints
 * and runs to main with the machine never having run the program unwatched.
 */
import { badRequest, tooLarge, launchFailed, timedOut } from '../../core/errors.js';
import { readRegularFileSync } from '../../core/files.js';
import { resolve } from 'node:path';
import type { LaunchConfig } from '../../core/launch.js';
import type { StopInfo } from '../../core/target.js';
import type { ViceTarget } from './vice-target.js';
import { monitorPath } from './monitor-path.js';
import { peerName } from './vice-feature.js';
import { basicSysAddress } from '../../core/basic-stub.js';

/** A PRG holds at most 64 KiB of data plus its 2-byte load address. */
export const MAX_PRG_BYTES = 0x10000 + 2;

export interface PrgInfo {
  load: number;
  end: number;
  entry: number;
}

/** Load address, end, and the entry point: the BASIC stub's SYS address, else the load address. */
export function inspectPrg(path: string): PrgInfo {
  const prg = readRegularFileSync(path, { maxBytes: MAX_PRG_BYTES, what: 'program' });
  if (prg.length < 3)
    throw badRequest(`${path} is ${prg.length} bytes: not a PRG (2-byte load address, then data).`, {
      path,
    });
  const load = prg[0] | (prg[1] << 8);
  const end = load + prg.length - 2;
  if (end > 0x10000) {
    throw tooLarge(
      `${path} loads at $${load.toString(16)} and is ${prg.length - 2} bytes long, so it would run past $FFFF.`,
      { path, load },
    );
  }
  return { load, end, entry: basicSysAddress(prg.subarray(2), load) ?? load };
}

export async function startProgram(target: ViceTarget, path: string, timeoutMs: number): Promise<PrgInfo> {
  const prg = inspectPrg(path);
  // checkpoints left from earlier clients survive reconnects (and a reload's own are armed again by the session)
  for (const cp of await target.vice.listCheckpoints()) await target.vice.deleteCheckpoint(cp.number);
  const entry = await target.breakpoints.set({ space: 'cpu', offset: prg.entry });
  const stopped = nextStop(target, timeoutMs);
  try {
    await target.vice.autostart(path, true);
    const stop = await stopped.promise;
    if (stop.pc !== prg.entry) {
      throw launchFailed(
        `The program did not start at $${prg.entry.toString(16)} (the machine stopped at $${stop.pc.toString(16)}: ${stop.reason}).`,
      );
    }
  } finally {
    stopped.cancel();
    await target.breakpoints.clear(entry).catch(() => undefined);
  }
  return prg;
}

/** The next stop the target reports from now on (armed before the command that runs the machine). */
function nextStop(target: ViceTarget, timeoutMs: number): { promise: Promise<StopInfo>; cancel: () => void } {
  let cancel = () => {};
  const promise = new Promise<StopInfo>((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(
        timedOut(`${peerName(target.vice.connector)} did not stop within ${timeoutMs} ms; it is still running.`, {
          timeout_ms: timeoutMs,
        }),
      );
    }, timeoutMs);
    const off = target.events.on((e) => {
      if (e.type !== 'stopped') return;
      cancel();
      resolve(e.stop);
    });
    cancel = () => {
      clearTimeout(timer);
      off();
    };
  });
  promise.catch(() => undefined);
  return { promise, cancel };
}

/** The launchers' last step: autostart config.program (when given) and stop at its entry. */
export async function startConfiguredProgram(
  target: ViceTarget,
  config: LaunchConfig,
  timeoutMs: number,
  onProgress?: (message: string) => void,
): Promise<void> {
  if (!config.program) return;
  const program = resolve(config.cwd ?? process.cwd(), config.program);
  onProgress?.(`Autostarting ${program}`);
  const sent = monitorPath(program);
  if (sent.note) onProgress?.(sent.note);
  await startProgram(target, sent.path, timeoutMs);
}
