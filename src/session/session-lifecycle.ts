/**
 * Restarting the machine and its snapshots, between the session core and what clients ask: reset (soft, hard),
 * reload (the program loaded again, run to main), save and load of the machine's state. After each the emulator
 * holds exactly one arm per listed breakpoint (BreakpointTable.rearmAll) and the generation is bumped, so stale
 * requests are refused and every front end re-reads (DAP: invalidated).
 */
import { unsupported } from '../core/errors.js';
import type { StopInfo, TargetLifecycle } from '../core/target.js';
import { SessionStops } from './session-stops.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot-file.js';
import type { MutationOptions, RestartKind, SnapshotSource } from './types.js';

/** How long a reloaded program may take from its start to main (as at boot). */
const RELOAD_TO_MAIN_MS = 60_000;

export abstract class SessionLifecycle extends SessionStops {
  /** soft/hard: the machine runs afterwards; reload: stopped at main (or where the program first stopped). */
  async reset(clientId: string, kind: RestartKind, opts?: MutationOptions): Promise<void> {
    this.requireMutation(clientId, opts);
    const life = this.facet('lifecycle');
    await this.breakpoints.settled();
    this.busy = true;
    if (this.state === 'stopped') this.startRunning();
    let stop: StopInfo | undefined;
    let held = false;
    try {
      if (kind === 'reload') stop = await this.reloadProgram(life);
      else held = (await life.reset(kind)) === 'held';
      // the reset event's re-arming (the emulator may have kept its breakpoints, or lost them)
      await this.breakpoints.settled();
      if (kind === 'reload') this.bumpGeneration('program reloaded');
    } catch (err) {
      this.busy = false;
      void this.refreshStop();
      throw err;
    }
    this.busy = false;
    if (stop) return this.publishStop(stop);
    // a breakpoint the machine ran into while the re-arming went on (the session was busy) is told now
    const last = this.state === 'stopped' && !held ? (await this.requireTarget().status()).lastStop : undefined;
    if (last) return this.publishStop(last);
    this.state = 'running';
    // held (MAME): run on, as a reset button does, once the breakpoints are armed
    if (held) await this.facet('run').resume();
  }

  private async reloadProgram(life: TargetLifecycle): Promise<StopInfo> {
    await life.reload(); // its stop at the program's start is not published: the session is busy
    await this.breakpoints.settled();
    await this.breakpoints.rearmAll();
    const main = this.index?.functionByName('main');
    const pc = (await this.requireTarget().status()).pc ?? 0;
    if (!main) return { reason: 'entry', pc };
    return this.stepper!.runTo(main.start, 'entry', RELOAD_TO_MAIN_MS);
  }

  /** The machine's state as a snapshot file's bytes (stopped CPU, the lease). */
  async saveState(clientId: string, opts?: MutationOptions): Promise<Uint8Array> {
    // a machine that can never snapshot says so, not "pause it first" (DOSBox cannot pause either)
    const life = this.snapshots();
    this.requireMutation(clientId, opts, 'stopped');
    const payload = await life.saveState!();
    const { machine, emulator, program } = this.config;
    return encodeSnapshot({ machine, emulator, program, format: life.stateFormat!, pc: this.lastStop?.pc }, payload);
  }

  /** Puts a snapshot back (checked whole first), re-arms the breakpoints once, bumps the generation. */
  async loadState(clientId: string, source: SnapshotSource, opts?: MutationOptions): Promise<void> {
    // a machine that can never snapshot says so, not "pause it first" (DOSBox cannot pause either), nor that a slot
    // file is missing: the file is read only once the machine could take it
    const life = this.snapshots();
    this.requireMutation(clientId, opts, 'stopped');
    const file = typeof source === 'function' ? await source() : source;
    const { machine, emulator } = this.config;
    const { payload } = decodeSnapshot(file, { machine, emulator, format: life.stateFormat! });
    await this.breakpoints.settled();
    this.busy = true;
    try {
      await life.loadState!(payload);
      this.inspector?.invalidate();
      await this.breakpoints.rearmAll();
    } finally {
      this.busy = false;
    }
    this.bumpGeneration('snapshot loaded');
    const status = await this.requireTarget().status();
    this.publishStop({ reason: 'unknown', pc: status.pc ?? 0, log: ['snapshot loaded'] });
  }

  private snapshots(): TargetLifecycle {
    const life = this.facet('lifecycle');
    if (life.saveState && life.loadState && life.stateFormat) return life;
    const kind = this.requireTarget().info.kind;
    throw unsupported(`The ${kind} target cannot save or load the machine's state.`, { target: kind });
  }
}
