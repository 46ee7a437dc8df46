/**
 * Reset, reload and snapshots on MAME through the bridge's debugger console. A soft reset is scheduled and happens
 * once the CPU runs (breakpoints kept, no machine restart); a hard reset restarts the machine, which the bridge holds
 * at its first instruction again (its breakpoints put back under the same ids: the session re-arms them once). The
 * program is the machine's ROM (or the open ROM loads it, or the debugger after the restart), so a reload is a hard reset. `statesave`/`stateload` with
 * an absolute path work at once while the CPU is stopped; the files live in MAME's private run folder only while
 * they are read or written (the session keeps the slot in the output folder).
 */
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { incompatibleTarget, timedOut } from '../../core/errors.js';
import type { ResetKind, TargetEmitter, TargetEvent, TargetLifecycle } from '../../core/target.js';
import type { MameRawFeature } from './mame-raw.js';

/** a hard reset of a small machine takes well under a second; a loaded CI machine gets room */
const RESTART_TIMEOUT_MS = 30_000;

export class MameLifecycle implements TargetLifecycle {
  /** called after a state was loaded (the time-travel history cannot reach back past it) */
  onStateLoaded?: () => void;

  constructor(
    private readonly raw: Pick<MameRawFeature, 'console'>,
    private readonly events: TargetEmitter,
    private readonly resume: () => Promise<void>,
    /** MAME's private run folder (removed with the session) */
    private readonly runDir: string,
    /** MAME checks its own header on load but says nothing when it refuses: its version and driver are checked first */
    readonly stateFormat: string,
    /** after a hard reset, while held: what the launch did once the machine stood at entry (bridge-load.ts) */
    private readonly afterRestart?: () => Promise<void>,
  ) {}

  async reset(kind: ResetKind): Promise<'runs' | 'held'> {
    if (kind === 'hard') {
      const started = this.after(
        (e) => e.type === 'reset',
        (e) => e.type === 'stopped',
      );
      await this.raw.console('hardreset');
      await started;
      await this.afterRestart?.();
      return 'held';
    }
    // MAME resets softly once the CPU runs on, and the bridge says so ('reset', not hard): run until it has
    const reset = this.after(undefined, (e) => e.type === 'reset');
    await this.raw.console('softreset');
    await this.resume();
    await reset;
    return 'runs';
  }

  async reload(): Promise<void> {
    await this.reset('hard');
  }

  async saveState(): Promise<Uint8Array> {
    return this.viaFile(async (file) => {
      const lines = await this.raw.console(`statesave "${file}"`);
      const data = await readFile(file).catch(() => undefined);
      if (!data?.length) throw incompatibleTarget(`MAME wrote no state file (${lines.join(' ')}).`);
      return new Uint8Array(data);
    });
  }

  async loadState(payload: Uint8Array): Promise<void> {
    await this.viaFile(async (file) => {
      await writeFile(file, payload, { mode: 0o600 });
      await this.raw.console(`stateload "${file}"`);
    });
    this.onStateLoaded?.();
  }

  private async viaFile<T>(act: (file: string) => Promise<T>): Promise<T> {
    const file = join(this.runDir, 'state', `rd-${randomBytes(6).toString('hex')}.sta`);
    try {
      return await act(file);
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Resolves at the first event `second` accepts after one `first` accepted (armed before the command). */
  private after(first: ((e: TargetEvent) => boolean) | undefined, second: (e: TargetEvent) => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let seen = first === undefined;
      const timer = setTimeout(() => {
        off();
        reject(timedOut(`MAME did not restart within ${RESTART_TIMEOUT_MS} ms.`, { timeout_ms: RESTART_TIMEOUT_MS }));
      }, RESTART_TIMEOUT_MS);
      const off = this.events.on((e) => {
        if (!seen) seen = first?.(e) ?? true;
        else if (second(e)) {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    });
  }
}
