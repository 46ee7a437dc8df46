/**
 * One connection to a VICE binary monitor (a real x64sc or the built-in C64,
 * which serves the same protocol): run state follows VICE's events; commands
 * while running stop the machine (any command does, in VICE) and resume it
 * unseen, unless a checkpoint fired meanwhile. It is the 'vice' feature the
 * vice_* tools use; ViceTarget puts the Target facets on top of it.
 */
import { RetroError, notStopped, incompatibleTarget, tooLarge, badRequest, launchFailed } from '../../core/errors.js';
import type { ExecutedInstruction } from '../../core/cpu-history.js';
import type { Address, Register, StopInfo, StopReason, TargetEmitter } from '../../core/target.js';
import { handshake, type ViceInfo } from './handshake.js';
import { MonitorErrorReply, type MonitorClient, type MonitorEvent } from './monitor-client.js';
import {
  Cmd,
  EVENT_ID,
  Evt,
  decodeCheckpoint,
  decodeRegisters,
  encodeCheckpointSet,
  encodeMemHeader,
  encodeRegisters,
  type CheckpointInfo,
} from './protocol.js';
import { peerName, type CaptureResult, type ViceFeature, type ViceStatus } from './vice-feature.js';
import { captureDisplay } from './vice-capture.js';
import { MAX_MEM_REQUEST, OP_EXEC, bankIdIn, checkRange, u32, type CheckpointSpec } from './vice-requests.js';
import { readCpuHistory } from './vice-cpu-history.js';

export class ViceConnection implements ViceFeature {
  private state: 'running' | 'stopped' = 'running';
  private pc = 0;
  private lastStop?: StopInfo;
  /** the registers; `regsStand`: as they are now (VICE sent them as it stopped, 0x31 before 0x62, nothing ran since) */
  private regs = new Map<number, number>();
  private regsStand = false;
  private hits: CheckpointInfo[] = [];
  private jammed = false;
  /** why we expect the next stop: a command of ours, or undefined (the machine stopped by itself) */
  private expect?: StopReason;
  /** > 0 while we stop the machine for our own read and resume it unseen */
  private hidden = 0;
  /** a stop that happened by itself during a hidden stop, reported when that ends */
  private realStop?: StopInfo;
  /** the checkpoints a line step set, deleted when it stops */
  private stepCheckpoints: number[] = [];
  private readonly display = { short: undefined as boolean | undefined };
  private eventChain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: MonitorClient,
    readonly info: ViceInfo,
    /** 'vice' or 'builtin' */
    readonly connector: string,
    private readonly events: TargetEmitter,
  ) {
    client.onEvent((e) => this.onMonitorEvent(e));
    client.onClose((reason) => this.events.emit({ type: 'exited', reason: `monitor connection closed: ${reason}` }));
  }

  /** Handshake, then leave the machine stopped (the PING of the handshake stopped it). */
  static async open(client: MonitorClient, connector: string, events: TargetEmitter): Promise<ViceConnection> {
    let info: ViceInfo;
    try {
      info = await handshake(client);
    } catch (err) {
      client.close(); // an incompatible or broken peer: do not keep its connection
      throw err;
    }
    const vice = new ViceConnection(client, info, connector, events);
    await vice.refreshRegisters();
    vice.state = 'stopped';
    vice.lastStop = { reason: 'entry', pc: vice.pc };
    return vice;
  }

  /** The registers as the last reply or event left them (no I/O). */
  cachedRegister(id: number): number | undefined {
    return this.regs.get(id);
  }

  /** A command the stopped machine answers without running (DUMP, UNDUMP); its registers are read again after. */
  async whileHeld(command: number, body: Uint8Array): Promise<void> {
    this.requireStopped('save or load a snapshot');
    await this.client.request(command, body, { timeoutMs: 30_000 });
    await this.refreshRegisters();
  }

  get running(): boolean {
    return this.state === 'running';
  }

  /** The state clients see: a hidden stop of ours is still "running" unless a real stop came during it. */
  private get clientState(): 'running' | 'stopped' {
    return this.hidden > 0 && !this.realStop ? 'running' : this.state;
  }

  status(): { state: 'running' | 'stopped'; pc?: number; lastStop?: StopInfo } {
    const state = this.clientState;
    return { state, pc: state === 'stopped' ? this.pc : undefined, lastStop: this.lastStop };
  }

  cachedStatus(): ViceStatus {
    return {
      state: this.client.closed ? 'disconnected' : this.clientState,
      pc: this.clientState === 'stopped' ? this.pc : undefined,
      last_stop: this.lastStop,
      connector: this.connector,
      version: this.info.version,
      svn_revision: this.info.svnRevision,
    };
  }

  async readRegisters(): Promise<Register[]> {
    const stand = this.clientState === 'stopped' && this.regsStand && !this.client.closed; // lost: target_lost
    const values = stand ? this.regs : await this.hiddenStop(() => this.refreshRegisters());
    return this.info.registers.map((r) => ({ name: r.name, bits: r.bits, value: values.get(r.id) ?? 0 }));
  }

  async setRegisters(items: { id: number; value: number }[]): Promise<void> {
    const body = Buffer.concat([Buffer.from([0]), encodeRegisters(items)]); // main memspace, then the items
    const reply = await this.hiddenStop(() => this.client.request(Cmd.REGISTERS_SET, body));
    this.takeRegisters(reply);
  }

  bankId(bank: Address['bank']): number {
    return bankIdIn(this.info.banks, bank);
  }

  /** The main CPU's last `count` instructions (VICE ≥ 3.10's CPU history; vice-cpu-history.ts). */
  cpuHistory(count: number): Promise<ExecutedInstruction[]> {
    return this.whileStopped(() => readCpuHistory(this.client, this.connector, this.info.version, count));
  }

  /** Bank-aware read, no wrap past $FFFF, no side effects. */
  async readBank(bank: number, start: number, length: number): Promise<Uint8Array> {
    checkRange(start, length);
    const out = new Uint8Array(length);
    await this.hiddenStop(async () => {
      for (let done = 0; done < length; done += MAX_MEM_REQUEST) {
        const n = Math.min(MAX_MEM_REQUEST, length - done);
        const body = await this.client.request(
          Cmd.MEM_GET,
          encodeMemHeader(false, start + done, start + done + n - 1, 0, bank),
        );
        if (body.length !== 2 + n)
          throw incompatibleTarget(`VICE returned ${body.length - 2} bytes for a ${n}-byte read.`);
        out.set(body.subarray(2), done);
      }
    });
    return out;
  }

  async writeBank(bank: number, start: number, data: Uint8Array): Promise<void> {
    checkRange(start, data.length);
    if (start <= 1) this.regsStand = false; // the registers list $00/$01 (the 6510's port) as '00'/'01'
    await this.hiddenStop(async () => {
      for (let done = 0; done < data.length; done += MAX_MEM_REQUEST) {
        const part = data.subarray(done, done + MAX_MEM_REQUEST);
        const head = encodeMemHeader(false, start + done, start + done + part.length - 1, 0, bank);
        await this.client.request(Cmd.MEM_SET, Buffer.concat([head, part]));
      }
    });
  }

  async addCheckpoint(spec: CheckpointSpec): Promise<CheckpointInfo> {
    const body = encodeCheckpointSet(spec);
    return this.hiddenStop(async () => {
      // a temporary checkpoint resumes VICE: that is a run, not a hidden stop
      const reply = spec.temporary
        ? await this.resuming(Cmd.CHECKPOINT_SET, body)
        : await this.client.request(Cmd.CHECKPOINT_SET, body);
      const cp = decodeCheckpoint(reply);
      if (!spec.condition) return cp;
      try {
        await this.setCondition(cp.number, spec.condition);
      } catch (err) {
        await this.client.request(Cmd.CHECKPOINT_DELETE, u32(cp.number)).catch(() => undefined);
        throw err;
      }
      // the set reply predates the condition: what VICE holds now
      return decodeCheckpoint(await this.client.request(Cmd.CHECKPOINT_GET, u32(cp.number)));
    }, !spec.temporary);
  }

  async setCondition(number: number, expression: string): Promise<void> {
    if (expression.length > 255) throw tooLarge('A VICE condition is at most 255 characters.');
    try {
      await this.hiddenStop(() =>
        this.client.request(
          Cmd.CONDITION_SET,
          Buffer.concat([u32(number), Buffer.from([expression.length]), Buffer.from(expression, 'latin1')]),
        ),
      );
    } catch (err) {
      if (err instanceof MonitorErrorReply && err.errorCode === 0x8f) {
        throw badRequest(
          `VICE could not parse the condition "${expression}" (text-monitor syntax, e.g. "A == $10"; plain numbers are hex).`,
          { condition: expression },
        );
      }
      throw err;
    }
  }

  async deleteCheckpoint(number: number): Promise<void> {
    await this.hiddenStop(() => this.client.request(Cmd.CHECKPOINT_DELETE, u32(number)));
  }

  async toggleCheckpoint(number: number, enabled: boolean): Promise<void> {
    await this.hiddenStop(() =>
      this.client.request(Cmd.CHECKPOINT_TOGGLE, Buffer.concat([u32(number), Buffer.from([enabled ? 1 : 0])])),
    );
  }

  async listCheckpoints(): Promise<CheckpointInfo[]> {
    const bodies = await this.hiddenStop(() => this.client.requestList(Cmd.CHECKPOINT_LIST, Cmd.CHECKPOINT_LIST));
    return bodies.map(decodeCheckpoint);
  }

  // ---- run control ----

  async resume(): Promise<void> {
    // a command now would stop VICE, not resume it; during our hidden reads it runs for everyone already
    if (this.runningForClients) return;
    this.expect = undefined;
    await this.resuming(Cmd.EXIT);
  }

  /**
   * Sends a command after which VICE runs. The state turns 'running' before
   * sending, so a stop that follows closely cannot be overtaken by it.
   */
  private async resuming(
    command: number,
    body: Uint8Array = new Uint8Array(0),
    opts?: { timeoutMs?: number },
  ): Promise<Buffer> {
    const before = this.state;
    this.state = 'running';
    try {
      return await this.client.request(command, body, opts);
    } catch (err) {
      if (command !== Cmd.AUTOSTART) this.state = before; // autostart resumes even when it fails
      throw err;
    }
  }

  async pause(): Promise<void> {
    if (this.state === 'stopped' && this.hidden > 0) {
      // stopped for our own reads: stay stopped when they are done, and say so then
      this.realStop = { reason: 'pause', pc: this.pc };
      this.lastStop = this.realStop;
      return;
    }
    if (this.state === 'stopped') return;
    this.expect = 'pause';
    await this.client.request(Cmd.PING);
  }

  async advance(count: number, over: boolean): Promise<void> {
    if (!Number.isInteger(count) || count < 1 || count > 0xffff)
      throw badRequest(`Step count must be 1-65535 (0 would just resume VICE), not ${count}.`);
    this.expect = 'step';
    const body = Buffer.alloc(3);
    body[0] = over ? 1 : 0;
    body.writeUInt16LE(count, 1);
    await this.resuming(Cmd.ADVANCE_INSTRUCTIONS, body);
  }

  async stepOut(): Promise<void> {
    this.expect = 'step';
    await this.resuming(Cmd.EXECUTE_UNTIL_RETURN);
  }

  /**
   * Runs with `specs` set as checkpoints (a line step: the addresses outside
   * the line); they are deleted before anyone hears of the stop.
   */
  async runWithStepCheckpoints(specs: CheckpointSpec[]): Promise<void> {
    if (this.clientState !== 'stopped') throw notStopped('running', { action: 'step' });
    const numbers: number[] = [];
    try {
      for (const spec of specs) numbers.push((await this.addCheckpoint(spec)).number);
    } catch (err) {
      for (const n of numbers) await this.client.request(Cmd.CHECKPOINT_DELETE, u32(n)).catch(() => undefined);
      throw err;
    }
    this.stepCheckpoints = numbers;
    this.expect = 'step';
    await this.resuming(Cmd.EXIT);
  }

  async reset(kind: 'soft' | 'hard' = 'soft'): Promise<void> {
    this.expect = undefined;
    await this.resuming(Cmd.RESET, Uint8Array.of(kind === 'hard' ? 1 : 0));
    this.events.emit({ type: 'reset', hard: kind === 'hard' });
  }

  async autostart(path: string, run = true): Promise<void> {
    const name = Buffer.from(path, 'utf8'); // the file system's own bytes; monitor-path.ts stages a longer path
    if (name.length > 255) throw badRequest(`The monitor's autostart takes at most 255 bytes; ${path} is longer.`);
    this.expect = undefined;
    const body = Buffer.concat([Buffer.from([run ? 1 : 0, 0, 0, name.length]), name]);
    try {
      await this.resuming(Cmd.AUTOSTART, body, { timeoutMs: 30_000 });
    } catch (err) {
      if (err instanceof MonitorErrorReply)
        throw launchFailed(
          `${peerName(this.connector)} could not autostart ${path} (error 0x${err.errorCode.toString(16)}); its log says why. The machine runs on.`,
          { path },
        );
      throw err;
    }
  }

  async keyboardFeed(petscii: Uint8Array): Promise<void> {
    if (petscii.length > 255) throw tooLarge(`At most 255 keys can be typed at once; ${petscii.length} were given.`);
    await this.hiddenStop(() =>
      this.client.request(Cmd.KEYBOARD_FEED, Buffer.concat([Buffer.from([petscii.length]), petscii])),
    );
  }

  /** An integer resource (RESOURCE_SET type 1, a 4-byte value). */
  async setResource(name: string, value: number): Promise<void> {
    const n = Buffer.from(name, 'latin1');
    const v = Buffer.alloc(4);
    v.writeInt32LE(value, 0);
    await this.hiddenStop(() =>
      this.client.request(Cmd.RESOURCE_SET, Buffer.concat([Buffer.from([1, n.length]), n, Buffer.from([4]), v])),
    );
  }

  async setJoyport(port: number, value: number): Promise<void> {
    const body = Buffer.alloc(4);
    body.writeUInt16LE(port, 0);
    body.writeUInt16LE(value, 2);
    await this.hiddenStop(() => this.client.request(Cmd.JOYPORT_SET, body));
  }

  // ---- screen ----

  /** The composited frame with VICE's palette; needs a stopped machine. */
  async capture(): Promise<CaptureResult> {
    this.requireStopped('capture the screen');
    return captureDisplay(this.client, this.info, this.display);
  }

  /** Runs `fn` with the machine stopped: stopped for it (unseen) when it runs, or joining a hidden stop under way. */
  whileStopped<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running)
      return this.hiddenStop(async () => {
        await this.client.request(Cmd.PING);
        return fn();
      });
    return this.hidden > 0 ? this.hiddenStop(fn) : fn();
  }

  /** True while the machine runs for its clients: running, or stopped only for our own hidden reads. */
  get runningForClients(): boolean {
    return this.running || this.hidden > 0;
  }

  /** Asks VICE to exit (its reply comes, then the socket closes). */
  async quit(): Promise<void> {
    await this.client.request(Cmd.QUIT, new Uint8Array(0), { timeoutMs: 3000 });
  }

  /** Drops our connection only: VICE (or the built-in) keeps running. */
  disconnect(): void {
    this.client.close();
  }

  // ---- internals ----

  private requireStopped(what: string): void {
    if (this.state !== 'stopped')
      throw new RetroError('not_stopped', `VICE must be stopped to ${what}; it is running (interrupt it first).`);
  }

  /**
   * Runs monitor commands; if the machine was running they stop it (as any
   * VICE command does), so resume it afterwards without telling anyone —
   * unless a checkpoint fired in the meantime, which is then a real stop.
   * Overlapping hidden stops are counted: a command that starts while another
   * one's stop is under way joins it, and only the last to finish resumes, so
   * none of them ever finds the machine running under it.
   */
  private async hiddenStop<T>(fn: () => Promise<T>, resumeAfter = true): Promise<T> {
    if ((this.state !== 'running' && this.hidden === 0) || this.expect === 'pause') return fn();
    this.hidden++;
    try {
      return await fn();
    } finally {
      if (this.hidden === 1) await this.eventChain;
      // re-checked after the wait: a command that joined meanwhile resumes when it is done
      if (this.hidden === 1 && !this.realStop && resumeAfter && !this.running) {
        try {
          await this.resuming(Cmd.EXIT);
        } catch {
          /* the connection is gone: its close event says so */
        }
        await this.eventChain;
      }
      this.hidden--;
      // a checkpoint may have fired during our command or right after the resume: told once the last one is done
      const real = this.realStop;
      if (real && this.hidden === 0) {
        this.realStop = undefined;
        this.publish(real);
      }
    }
  }

  private async refreshRegisters(): Promise<Map<number, number>> {
    this.takeRegisters(await this.client.request(Cmd.REGISTERS_GET, Uint8Array.of(0)));
    return this.regs;
  }

  private takeRegisters(body: Buffer): void {
    for (const r of decodeRegisters(body)) this.regs.set(r.id, r.value);
    this.pc = this.regs.get(0x03) ?? this.pc;
  }

  /** Events are handled as they arrive (synchronously), so a hidden stop is recognised before its reply. */
  private onMonitorEvent(e: MonitorEvent): void {
    if (e.requestId !== EVENT_ID) return;
    switch (e.type) {
      case Evt.CHECKPOINT:
        this.hits.push(decodeCheckpoint(e.body));
        break;
      case Evt.REGISTERS:
        this.takeRegisters(e.body);
        this.regsStand = true;
        break;
      case Evt.JAM:
        this.jammed = true;
        break; // VICE sends no body (not the documented PC)
      case Evt.STOPPED:
        this.onStopped(e.body.length >= 2 ? e.body.readUInt16LE(0) : this.pc);
        break;
      case Evt.RESUMED:
        this.state = 'running';
        this.regsStand = false;
        this.jammed = false;
        if (!this.hidden) this.events.emit({ type: 'running' });
        break;
    }
  }

  private onStopped(pc: number): void {
    this.state = 'stopped';
    this.pc = pc;
    if (this.hidden && this.hits.length === 0 && !this.jammed && this.expect !== 'pause') return;
    const hits = this.hits;
    this.hits = [];
    const stepCps = this.stepCheckpoints;
    this.stepCheckpoints = [];
    const user = hits.filter((h) => h.hit && !stepCps.includes(h.number) && h.stop);
    let stop: StopInfo;
    if (this.jammed) stop = { reason: 'exception', pc, log: [`CPU JAM at $${pc.toString(16).padStart(4, '0')}`] };
    else if (user.length) {
      const watch = user.find((h) => (h.op & OP_EXEC) === 0);
      stop = watch
        ? { reason: 'watchpoint', pc, watchpointId: watch.number }
        : { reason: 'breakpoint', pc, breakpointId: user[0].number };
    } else stop = { reason: this.expect ?? (stepCps.length ? 'step' : 'pause'), pc };
    this.expect = undefined;
    this.lastStop = stop;
    if (this.hidden) {
      this.realStop = stop;
      return;
    } // hiddenStop reports it once its command is done
    if (!stepCps.length) {
      this.publish(stop);
      return;
    }
    // a line step's checkpoints go before anyone hears of the stop
    this.eventChain = this.eventChain.then(async () => {
      for (const n of stepCps) await this.client.request(Cmd.CHECKPOINT_DELETE, u32(n)).catch(() => undefined);
      this.publish(stop);
    });
  }

  private publish(stop: StopInfo): void {
    this.events.emit({ type: 'stopped', stop });
  }
}
