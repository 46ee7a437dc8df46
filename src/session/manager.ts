import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { asRetroError, unsupported, sessionExists, noSession } from '../core/errors.js';
import { computeBuildId } from './build-id.js';
import { DebugIndex } from '../debuginfo/index.js';
import { checkProgramLoaded, programBytes } from './program-check.js';
import { DEBUG_INFO_EXTENSIONS, loadDebugInfo } from '../debuginfo/load.js';
import type { DebugInfo } from '../debuginfo/model.js';
import { resolveFramePointers } from '../debuginfo/z80-frame.js';
import type { Target } from '../core/target.js';
import type { Connector } from '../core/connector.js';
import type { LaunchConfig } from '../core/launch.js';
import { Session } from './session.js';
import type { ClientStarter, SessionApi, SessionManagerApi } from './types.js';
import type { ClientSession } from './client-session.js';
import { WorkDirs } from './work-dirs.js';

/** How long the program may take from power-on to main. */
const RUN_TO_MAIN_MS = 60_000;

/** Ended sessions stay listed (for their status and last stop) this long, and at most this many. */
const ENDED_KEEP_MS = 10 * 60_000;
const MAX_ENDED = 8;

export interface SessionManagerOptions {
  /** the connectors sessions can start (src/connectors/registry.ts CONNECTORS; tests add their own) */
  connectors: readonly Connector[];
  /** where sessions' scratch folders go (default: a fresh temp folder, removed with the manager) */
  workDir?: string;
  /** how long an ended session stays listed (default 10 min; at most 8 ended ones are kept) */
  endedKeepMs?: number;
  leaseMs?: number;
  /** the clock leases and client expiry read (tests that must not sleep a minute pass their own) */
  clock?: () => number;
}

/** Owns the sessions of one process and boots them. */
export class SessionManager implements SessionManagerApi {
  private readonly sessions: Session[] = [];
  /** each ended session's drop timer, cleared when it goes earlier (more than MAX_ENDED ended) */
  private readonly dropTimers = new Map<string, NodeJS.Timeout>();
  private readonly listeners = new Set<() => void>();
  /** sessions still starting: closeAll waits for them, so no emulator outlives its manager */
  private readonly boots = new Set<Promise<void>>();
  private readonly workDirs: WorkDirs;
  private readonly endedKeepMs: number;
  readonly leaseMs: number;
  private readonly clock?: () => number;
  readonly connectors: readonly Connector[];

  constructor(opts: SessionManagerOptions) {
    this.connectors = opts.connectors;
    this.workDirs = new WorkDirs(opts.workDir);
    this.endedKeepMs = opts.endedKeepMs ?? ENDED_KEEP_MS;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.clock = opts.clock;
  }

  start(config: LaunchConfig, starter: ClientStarter): ClientSession {
    if (!this.connector(config.emulator)) {
      throw unsupported(
        `Emulator "${config.emulator}" is not supported; use ${this.connectors.map((c) => `"${c.kind}"`).join(', ')}.`,
        { emulator: config.emulator },
      );
    }
    const clash = this.live().find(
      (s) =>
        s.config.emulator === config.emulator &&
        s.config.program === config.program &&
        s.config.machine === config.machine,
    );
    if (clash) {
      throw sessionExists(
        `Session ${clash.id} already runs ${config.program ?? config.machine} in ${config.emulator}; attach to it or stop it first.`,
        { session_id: clash.id },
      );
    }
    const session = new Session(config, this.leaseMs, this.clock);
    const { kind, label, ...opts } = starter;
    const client = session.attach(kind, label, opts);
    client.claimControl();
    this.sessions.push(session);
    session.onEvent((q) => {
      if (q.event.type === 'exited') this.ended(session);
      if (q.event.type === 'exited' || q.event.type === 'phase') this.changed();
    });
    this.changed();
    const boot = this.boot(session).finally(() => this.boots.delete(boot));
    this.boots.add(boot);
    return client;
  }

  attach(sessionId: string | undefined, client: ClientStarter): ClientSession {
    const { kind, label, ...opts } = client;
    return this.get(sessionId).attach(kind, label, opts);
  }

  get(sessionId?: string): SessionApi {
    if (sessionId) {
      const found = this.sessions.find((s) => s.id === sessionId);
      if (!found) throw noSession(`There is no session ${sessionId}.`, { session_id: sessionId });
      return found;
    }
    const latest = this.live().at(-1) ?? this.sessions.at(-1);
    if (!latest) throw noSession('No session is running; start one first (start_session, or F5 in VS Code).');
    return latest;
  }

  list(): SessionApi[] {
    return [...this.sessions];
  }

  onSessionsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once no session is starting (each start has ended ready, failed or stopped). */
  async startsSettled(): Promise<void> {
    while (this.boots.size) await Promise.all([...this.boots]);
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.stop('the owning process is closing')));
    // a session stopped while its emulator was starting closes that emulator once the launch returns
    await this.startsSettled();
    await this.workDirs.closeAll();
  }

  /** A session ended: its scratch folder goes now; it stays listed for a while, then it goes too. */
  private ended(session: Session): void {
    void this.workDirs.release(session.id);
    const id = session.id;
    this.dropTimers.set(id, setTimeout(() => this.dropId(id), this.endedKeepMs).unref());
    const ended = this.sessions.filter((s) => s.statusPhase() === 'exited' || s.statusPhase() === 'failed');
    for (const old of ended.slice(0, Math.max(0, ended.length - MAX_ENDED))) this.drop(old);
  }

  private dropId(id: string): void {
    const s = this.sessions.find((x) => x.id === id);
    if (s) this.drop(s);
  }

  private drop(session: Session): void {
    const at = this.sessions.indexOf(session);
    if (at < 0) return;
    clearTimeout(this.dropTimers.get(session.id));
    this.dropTimers.delete(session.id);
    this.sessions.splice(at, 1);
    this.changed();
  }

  private connector(kind: string): Connector | undefined {
    return this.connectors.find((c) => c.kind === kind);
  }

  private live(): Session[] {
    return this.sessions.filter((s) => !['exited', 'failed'].includes(s.statusPhase()));
  }

  private changed(): void {
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch {
        /* listener bugs stay theirs */
      }
    }
  }

  private async boot(session: Session): Promise<void> {
    const config = session.config;
    const cwd = config.cwd ?? process.cwd();
    // start() returns before its caller subscribes (a DAP client): a launch's first, synchronous notes (a program
    // staged under a DOS name) would reach no one
    await Promise.resolve();
    try {
      const connector = this.connector(config.emulator)!;
      const debugInfoPath = connector.ownDebugInfo ? undefined : this.debugInfoPath(config, cwd);
      const info = debugInfoPath ? await loadDebugInfo(debugInfoPath, { workspace: cwd }) : undefined;
      if (session.statusPhase() === 'exited') return; // stopped before anything started
      session.setPhase('starting_emulator', `Starting ${config.emulator} for ${config.machine}`);
      const target = await connector.launch(
        { ...config, cwd },
        {
          workDir: this.workDirs.forSession(session.id),
          onProgress: (message) => session.setPhase('starting_emulator', message),
        },
      );
      const index = info && new DebugIndex(await this.settleFrames(info, target));
      const buildFiles = [config.program && resolve(cwd, config.program), debugInfoPath].filter((f) => !!f) as string[];
      const buildId = await computeBuildId([config.program && resolve(cwd, config.program), debugInfoPath]);
      if (session.statusPhase() === 'exited') {
        // stopped while the emulator started: nobody will ever close this one but us
        await target.close().catch(() => undefined);
        return;
      }
      session.attachTarget({ target, index, buildId, buildFiles, debugInfoWarnings: info?.warnings });
      // A target without a CPU debugger (a DOS guest) is running from the start: announce it so.
      const atStart = await target.status(); // nothing runs the machine until runTo below
      if (atStart.state === 'running') {
        session.announceRunning(`Ready: ${config.machine} is running (no CPU debugger; run control is unsupported)`);
        return;
      }
      const entryName = index?.info.entry ?? 'main';
      const main = index?.functionByName(entryName);
      if (!main) {
        session.announceReady({ reason: 'entry', pc: atStart.pc ?? 0 }, 'Ready at power-on (no main in debug info)');
        return;
      }
      session.setPhase('booting', `Running to ${entryName}`);
      // an assembly program's entry is the first instruction the launch already stopped at: running to it would pass it
      const pc = atStart.pc;
      const stop =
        pc === main.start ? { reason: 'entry' as const, pc } : await session.runTo(main.start, RUN_TO_MAIN_MS);
      await checkProgramLoaded(target, [main.start]);
      session.announceReady({ ...stop, reason: 'entry' }, `Stopped at ${entryName} (0x${main.start.toString(16)})`);
    } catch (err) {
      session.fail(err);
      await session.stop(`start failed: ${asRetroError(err).message}`).catch(() => undefined);
    }
  }

  /** SDCC's .cdb leaves some Z80 frames undecided; the loaded code settles them. */
  private async settleFrames(info: DebugInfo, target: Target): Promise<DebugInfo> {
    if (info.format !== 'sdcc-cdb') return info;
    // a program its machine loads later is read from its file
    return resolveFramePointers(
      info,
      async (offset, length) =>
        programBytes(target.loadedProgram, offset, length) ?? target.memory.read({ space: 'cpu', offset }, length),
    );
  }

  private debugInfoPath(config: LaunchConfig, cwd: string): string | undefined {
    if (config.debugInfo) return resolve(cwd, config.debugInfo);
    if (!config.program) return undefined;
    // SDCC writes .cdb beside the program, cc65 (ld65 --dbgfile) conventionally .dbg; ACME's report, 64tass's listing
    const guesses = DEBUG_INFO_EXTENSIONS.map((ext) => resolve(cwd, config.program!).replace(/\.[^./]+$/, ext));
    return guesses.find((g) => existsSync(g));
  }
}
