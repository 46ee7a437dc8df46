/**
 * Reset, reload and snapshots on a VICE binary monitor (a real x64sc or the built-in C64): RESET, the program
 * autostarted again (start-program.ts: stopped at its entry, as at launch), and DUMP/UNDUMP through a private temp
 * file (the monitor reads and writes files on its host; VICE and this process share one here).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { badRequest, incompatibleTarget, notFound } from '../../core/errors.js';
import type { LaunchConfig } from '../../core/launch.js';
import type { ResetKind, TargetLifecycle } from '../../core/target.js';
import { MonitorErrorReply } from './monitor-client.js';
import { Cmd } from './protocol.js';
import { startConfiguredProgram } from './start-program.js';
import { peerName } from './vice-feature.js';
import type { ViceTarget } from './vice-target.js';

const RELOAD_TIMEOUT_MS = 30_000;

export class ViceLifecycle implements TargetLifecycle {
  constructor(
    private readonly target: ViceTarget,
    private readonly config: LaunchConfig,
    /** VICE's .vsf, or the built-in's own format with its layout (builtin-c64/snapshot.ts) */
    readonly stateFormat: string,
  ) {}

  async reset(kind: ResetKind): Promise<'runs'> {
    await this.target.vice.reset(kind); // RESET resumes the machine
    return 'runs';
  }

  async reload(): Promise<void> {
    if (!this.config.program)
      throw badRequest('This session has no program to load again; a soft or hard reset restarts the machine.');
    const program = resolve(this.config.cwd ?? process.cwd(), this.config.program);
    // checked before the machine is touched: it still runs what it loaded
    if (!existsSync(program))
      throw notFound(
        `Cannot reload: the program ${program} is gone (deleted or renamed since the session started); the ` +
          'machine still holds the program it loaded. Build it again, or start a session with its new path.',
        { path: program },
      );
    await startConfiguredProgram(this.target, this.config, RELOAD_TIMEOUT_MS);
  }

  saveState(): Promise<Uint8Array> {
    return this.viaFile(async (file) => {
      const name = Buffer.from(file, 'utf8');
      // no ROMs, no disks: the machine's state (the ROMs are the emulator's own)
      await this.target.vice.whileHeld(Cmd.DUMP, Buffer.concat([Buffer.from([0, 0, name.length]), name]));
      return new Uint8Array(await readFile(file));
    });
  }

  loadState(payload: Uint8Array): Promise<void> {
    return this.viaFile(async (file) => {
      await writeFile(file, payload, { mode: 0o600 });
      const name = Buffer.from(file, 'utf8');
      try {
        await this.target.vice.whileHeld(Cmd.UNDUMP, Buffer.concat([Buffer.from([name.length]), name]));
      } catch (err) {
        if (!(err instanceof MonitorErrorReply)) throw err;
        throw incompatibleTarget(
          `${peerName(this.target.vice.connector)} refused the snapshot (monitor error 0x${err.errorCode.toString(16)}); its log says why.`,
        );
      }
    });
  }

  private async viaFile<T>(act: (file: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), 'retro-snap-'));
    try {
      return await act(join(dir, 'state.vsf'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
