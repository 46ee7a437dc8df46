/**
 * The Target for a VICE binary monitor: a real x64sc or the built-in C64
 * (which serves the same protocol). Run state follows VICE's events; reads
 * while running stop the machine (any command does, in VICE) and resume it
 * unseen, unless a checkpoint fired meanwhile. C-line steps use checkpoints
 * over the addresses outside the line (one run per line step); "over" adds
 * the condition SP >= the line's SP, so calls and interrupts pass.
 */
import { RetroError } from '../../core/errors.js';
import type {
  Address,
  AddressRange,
  Register,
  ScreenImage,
  StopInfo,
  StopReason,
  Target,
  TargetCapabilities,
  TargetEvent,
  TargetListener,
  TargetStatus,
  WatchSpec,
} from '../../core/target.js';
import { handshake, type ViceInfo } from './handshake.js';
import { MonitorErrorReply, type MonitorClient, type MonitorEvent } from './monitor-client.js';
import {
  Cmd,
  EVENT_ID,
  Evt,
  decodeCheckpoint,
  decodeDisplay,
  decodePalette,
  decodeRegisters,
  encodeCheckpointSet,
  encodeMemHeader,
  encodeRegisters,
  type CheckpointInfo,
} from './protocol.js';
import type { CaptureResult, ViceFeature, ViceStatus } from './vice-feature.js';

const OP_EXEC = 4;
/** Reads and writes are split into requests of at most this many bytes (the protocol's u16 range). */
const MAX_MEM_REQUEST = 0x10000;
/** Stepping "into" never stops in the KERNAL/ROM area: it has no C lines and the IRQ runs there. */
const ROM_START = 0xe000;

export interface ViceTargetOptions {
  kind: 'vice' | 'builtin';
  /** called by close(): end the emulator we started (undefined when attached) */
  shutdown?: () => Promise<void>;
  /** lines the emulator logged (the built-in's monitor log) */
  logSource?: (listener: (text: string) => void) => void;
}

export class ViceTarget implements Target, ViceFeature {
  readonly kind: string;
  readonly capabilities: TargetCapabilities = {
    cpu: '6502',
    addressBits: 16,
    spaces: ['cpu'],
    screen: true,
    stepOverOut: true,
    nativeStepRange: false,
  };
  private readonly listeners = new Set<TargetListener>();
  private state: 'running' | 'stopped' = 'running';
  private pc = 0;
  private lastStop?: StopInfo;
  private regs = new Map<number, number>();
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
  /** checkpoints this target set: reported as breakpoints (exec) or watchpoints */
  private readonly own = new Map<number, 'break' | 'watch'>();
  private displayShort?: boolean;
  private stopWaiters: ((s: StopInfo) => void)[] = [];
  private eventChain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: MonitorClient,
    readonly info: ViceInfo,
    private readonly opts: ViceTargetOptions,
  ) {
    this.kind = opts.kind;
    client.onEvent((e) => this.onMonitorEvent(e));
    client.onClose((reason) => this.emit({ type: 'exited', reason: `monitor connection closed: ${reason}` }));
    opts.logSource?.((text) => this.emit({ type: 'output', text }));
  }

  /** Handshake, then leave the machine stopped (the PING of the handshake stopped it). */
  static async open(client: MonitorClient, opts: ViceTargetOptions): Promise<ViceTarget> {
    let info: ViceInfo;
    try {
      info = await handshake(client);
    } catch (err) {
      client.close(); // an incompatible or broken peer: do not keep its connection
      throw err;
    }
    const target = new ViceTarget(client, info, opts);
    await target.refreshRegisters();
    target.state = 'stopped';
    target.lastStop = { reason: 'entry', pc: target.pc };
    return target;
  }

  /** Deletes checkpoints left from earlier clients (they survive reconnects); returns how many. */
  async deleteStaleCheckpoints(): Promise<number> {
    const list = await this.listCheckpoints();
    for (const cp of list) await this.client.request(Cmd.CHECKPOINT_DELETE, u32(cp.number));
    return list.length;
  }

  onEvent(listener: TargetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async status(): Promise<TargetStatus> {
    return { state: this.state, pc: this.state === 'stopped' ? this.pc : undefined, lastStop: this.lastStop };
  }

  cachedStatus(): ViceStatus {
    return {
      state: this.client.closed ? 'disconnected' : this.state,
      pc: this.state === 'stopped' ? this.pc : undefined,
      last_stop: this.lastStop,
      connector: this.kind,
      version: this.info.version,
      svn_revision: this.info.svnRevision,
    };
  }

  async readRegisters(): Promise<Register[]> {
    const values = await this.hiddenStop(() => this.refreshRegisters());
    return this.info.registers.map((r) => ({ name: r.name, bits: r.bits, value: values.get(r.id) ?? 0 }));
  }

  async writeRegister(name: string, value: number): Promise<void> {
    const reg = this.info.registers.find((r) => r.name.toUpperCase() === name.toUpperCase());
    if (!reg)
      throw new RetroError(
        'not_found',
        `VICE's main CPU has no register ${name}; it has ${this.info.registers.map((r) => r.name).join(', ')}.`,
      );
    if (value < 0 || value >= 2 ** reg.bits)
      throw new RetroError('bad_request', `${value} does not fit the ${reg.bits}-bit register ${reg.name}.`);
    await this.setRegisters([{ id: reg.id, value }]);
  }

  async setRegisters(items: { id: number; value: number }[]): Promise<void> {
    const body = Buffer.concat([Buffer.from([0]), encodeRegisters(items)]); // main memspace, then the items
    const reply = await this.hiddenStop(() => this.client.request(Cmd.REGISTERS_SET, body));
    this.takeRegisters(reply);
  }

  bankId(bank: Address['bank']): number {
    if (bank === undefined) return 0;
    const found =
      typeof bank === 'number'
        ? this.info.banks.find((b) => b.id === bank)
        : this.info.banks.find((b) => b.name === bank);
    if (!found) {
      throw new RetroError(
        'bad_address',
        `VICE has no bank ${JSON.stringify(bank)}; it has ${this.info.banks.map((b) => `${b.name} (${b.id})`).join(', ')}.`,
        { bank },
      );
    }
    return found.id;
  }

  async readMemory(address: Address, length: number): Promise<Uint8Array> {
    return this.readBank(this.bankId(address.bank), this.checkSpan(address, length), length);
  }

  /** Bank-aware read, no wrap past $FFFF, no side effects. */
  async readBank(bank: number, start: number, length: number): Promise<Uint8Array> {
    this.checkRange(start, length);
    const out = new Uint8Array(length);
    await this.hiddenStop(async () => {
      for (let done = 0; done < length; done += MAX_MEM_REQUEST) {
        const n = Math.min(MAX_MEM_REQUEST, length - done);
        const body = await this.client.request(
          Cmd.MEM_GET,
          encodeMemHeader(false, start + done, start + done + n - 1, 0, bank),
        );
        if (body.length !== 2 + n)
          throw new RetroError('incompatible_target', `VICE returned ${body.length - 2} bytes for a ${n}-byte read.`);
        out.set(body.subarray(2), done);
      }
    });
    return out;
  }

  async writeMemory(address: Address, data: Uint8Array): Promise<void> {
    await this.writeBank(this.bankId(address.bank), this.checkSpan(address, data.length), data);
  }

  async writeBank(bank: number, start: number, data: Uint8Array): Promise<void> {
    this.checkRange(start, data.length);
    await this.hiddenStop(async () => {
      for (let done = 0; done < data.length; done += MAX_MEM_REQUEST) {
        const part = data.subarray(done, done + MAX_MEM_REQUEST);
        const head = encodeMemHeader(false, start + done, start + done + part.length - 1, 0, bank);
        await this.client.request(Cmd.MEM_SET, Buffer.concat([head, part]));
      }
    });
  }

  async setBreakpoint(address: Address, condition?: string): Promise<number> {
    const start = this.checkSpan(address, 1);
    const cp = await this.addCheckpoint({
      start,
      end: start,
      op: OP_EXEC,
      stop: true,
      enabled: true,
      temporary: false,
      condition,
    });
    this.own.set(cp.number, 'break');
    return cp.number;
  }

  async clearBreakpoint(id: number): Promise<void> {
    await this.deleteCheckpoint(id);
  }

  async setWatchpoint(spec: WatchSpec): Promise<number> {
    const start = this.checkSpan(spec.address, spec.length);
    const op = spec.kind === 'read' ? 1 : spec.kind === 'write' ? 2 : 3;
    const cp = await this.addCheckpoint({
      start,
      end: start + spec.length - 1,
      op,
      stop: true,
      enabled: true,
      temporary: false,
      condition: spec.condition,
    });
    this.own.set(cp.number, 'watch');
    return cp.number;
  }

  async clearWatchpoint(id: number): Promise<void> {
    await this.deleteCheckpoint(id);
  }

  async addCheckpoint(spec: {
    start: number;
    end: number;
    op: number;
    stop: boolean;
    enabled: boolean;
    temporary: boolean;
    condition?: string;
    memspace?: number;
  }): Promise<CheckpointInfo> {
    const body = encodeCheckpointSet(spec);
    return this.hiddenStop(async () => {
      // a temporary checkpoint resumes VICE: that is a run, not a hidden stop
      const reply = spec.temporary
        ? await this.resuming(Cmd.CHECKPOINT_SET, body)
        : await this.client.request(Cmd.CHECKPOINT_SET, body);
      const cp = decodeCheckpoint(reply);
      if (spec.condition) {
        try {
          await this.setCondition(cp.number, spec.condition);
        } catch (err) {
          await this.client.request(Cmd.CHECKPOINT_DELETE, u32(cp.number)).catch(() => undefined);
          throw err;
        }
      }
      return cp;
    }, !spec.temporary);
  }

  async setCondition(number: number, expression: string): Promise<void> {
    if (expression.length > 255) throw new RetroError('too_large', 'A VICE condition is at most 255 characters.');
    try {
      await this.hiddenStop(() =>
        this.client.request(
          Cmd.CONDITION_SET,
          Buffer.concat([u32(number), Buffer.from([expression.length]), Buffer.from(expression, 'latin1')]),
        ),
      );
    } catch (err) {
      if (err instanceof MonitorErrorReply && err.errorCode === 0x8f) {
        throw new RetroError(
          'bad_request',
          `VICE could not parse the condition "${expression}" (text-monitor syntax, e.g. "A == $10"; plain numbers are hex).`,
          { condition: expression },
        );
      }
      throw err;
    }
  }

  async deleteCheckpoint(number: number): Promise<void> {
    await this.hiddenStop(() => this.client.request(Cmd.CHECKPOINT_DELETE, u32(number)));
    this.own.delete(number);
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
    if (this.state === 'running') return; // a command now would stop VICE, not resume it
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
    if (this.state === 'stopped') return;
    this.expect = 'pause';
    await this.client.request(Cmd.PING);
  }

  async stepInstruction(count = 1): Promise<void> {
    await this.advance(count, false);
  }

  async stepOver(): Promise<void> {
    await this.advance(1, true);
  }

  async advance(count: number, over: boolean): Promise<void> {
    if (!Number.isInteger(count) || count < 1 || count > 0xffff)
      throw new RetroError('bad_request', `Step count must be 1-65535 (0 would just resume VICE), not ${count}.`);
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

  async stepRange(ranges: AddressRange[], mode: 'into' | 'over'): Promise<void> {
    this.requireStopped('step');
    const sp = this.regs.get(0x04) ?? 0xff;
    const gaps = complement(ranges, mode === 'into' ? ROM_START - 1 : 0xffff);
    const numbers: number[] = [];
    try {
      for (const [start, end] of gaps) {
        const cp = await this.addCheckpoint({
          start,
          end,
          op: OP_EXEC,
          stop: true,
          enabled: true,
          temporary: false,
          condition: mode === 'over' ? `SP >= $${sp.toString(16)}` : undefined,
        });
        numbers.push(cp.number);
      }
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
    this.emit({ type: 'reset', hard: kind === 'hard' });
  }

  async autostart(path: string, run = true): Promise<void> {
    const name = Buffer.from(path, 'latin1');
    if (name.length > 255)
      throw new RetroError('bad_request', `VICE's autostart takes paths of at most 255 bytes; ${path} is longer.`);
    this.expect = undefined;
    const body = Buffer.concat([Buffer.from([run ? 1 : 0, 0, 0, name.length]), name]);
    try {
      await this.resuming(Cmd.AUTOSTART, body, { timeoutMs: 30_000 });
    } catch (err) {
      if (err instanceof MonitorErrorReply)
        throw new RetroError(
          'launch_failed',
          `VICE could not autostart ${path} (error 0x${err.errorCode.toString(16)}); VICE's log says why. The machine runs on.`,
          { path },
        );
      throw err;
    }
  }

  async keyboardFeed(petscii: Uint8Array): Promise<void> {
    if (petscii.length > 255)
      throw new RetroError('too_large', `At most 255 keys can be typed at once; ${petscii.length} were given.`);
    await this.hiddenStop(() =>
      this.client.request(Cmd.KEYBOARD_FEED, Buffer.concat([Buffer.from([petscii.length]), petscii])),
    );
  }

  async setJoyport(port: number, value: number): Promise<void> {
    const body = Buffer.alloc(4);
    body.writeUInt16LE(port, 0);
    body.writeUInt16LE(value, 2);
    await this.hiddenStop(() => this.client.request(Cmd.JOYPORT_SET, body));
  }

  waitForStop(timeoutMs: number): Promise<StopInfo> {
    if (this.state === 'stopped' && this.lastStop) return Promise.resolve(this.lastStop);
    return this.waitForNextStop(timeoutMs);
  }

  /** The next stop reported from now on (arm it before the command that runs the machine). */
  waitForNextStop(timeoutMs: number): Promise<StopInfo> {
    return new Promise<StopInfo>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stopWaiters = this.stopWaiters.filter((w) => w !== waiter);
        reject(
          new RetroError('timeout', `VICE did not stop within ${timeoutMs} ms; it is still running.`, {
            kind: 'connector',
            timeout_ms: timeoutMs,
          }),
        );
      }, timeoutMs);
      const waiter = (s: StopInfo) => {
        clearTimeout(timer);
        resolve(s);
      };
      this.stopWaiters.push(waiter);
    });
  }

  // ---- screen ----

  /** The composited frame with VICE's palette; needs a stopped machine. */
  async capture(): Promise<CaptureResult> {
    this.requireStopped('capture the screen');
    const support = this.info.display;
    if (support.ok === false)
      throw new RetroError(
        'incompatible_target',
        `Screen capture is refused: ${support.reason}. Use VICE r${46020} or later.`,
        { reason: support.reason },
      );
    if (support.ok === 'probe' && this.displayShort) {
      throw new RetroError(
        'incompatible_target',
        `Screen capture is refused: ${support.reason}, and its display body was 4 bytes shorter than its own length field (the overrun bug before r46020).`,
      );
    }
    const raw = await this.client.request(Cmd.DISPLAY_GET, Uint8Array.of(1, 0), { timeoutMs: 20_000 });
    let display;
    try {
      display = decodeDisplay(raw);
    } catch (err) {
      throw new RetroError(
        'incompatible_target',
        `VICE's display reply does not have the API 2 layout: ${(err as Error).message}.`,
      );
    }
    if (display.short) {
      this.displayShort = true;
      throw new RetroError(
        'incompatible_target',
        `Screen capture is refused: ${this.info.display.reason}; its display body was shorter than its own length field (${raw.length - 21} of ${display.width * display.height} pixels), the overrun bug of builds before r46020.`,
      );
    }
    const palette = decodePalette(await this.client.request(Cmd.PALETTE_GET, Uint8Array.of(1)));
    return { ...display, palette };
  }

  async screenshot(): Promise<ScreenImage> {
    const wasRunning = this.state === 'running';
    const shot = wasRunning
      ? await this.hiddenStop(async () => {
          await this.client.request(Cmd.PING);
          return this.captureStopped();
        })
      : await this.captureStopped();
    return { ...shot, maybeStale: !wasRunning };
  }

  private async captureStopped(): Promise<Omit<ScreenImage, 'maybeStale'>> {
    const c = await this.capture();
    // the normally visible area: 32 pixels of border left/right, 35 above and below
    const x0 = Math.max(0, c.innerX - 32),
      y0 = Math.max(0, c.innerY - 35);
    const width = Math.min(c.width - x0, c.innerWidth + 64),
      height = Math.min(c.height - y0, c.innerHeight + 72);
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const [r, g, b] = c.palette[c.pixels[(y0 + y) * c.width + x0 + x]] ?? [0, 0, 0];
        rgba.set([r, g, b, 255], (y * width + x) * 4);
      }
    }
    return { width, height, rgba };
  }

  feature(name: string): unknown {
    return name === 'vice' ? (this as ViceFeature) : undefined;
  }

  async close(): Promise<void> {
    if (this.opts.shutdown) await this.opts.shutdown().catch(() => undefined);
    this.client.close();
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
   */
  private async hiddenStop<T>(fn: () => Promise<T>, resumeAfter = true): Promise<T> {
    if (this.state !== 'running' || this.expect === 'pause') return fn();
    this.hidden++;
    try {
      return await fn();
    } finally {
      await this.eventChain;
      if (!this.realStop && resumeAfter && this.isStopped()) {
        try {
          await this.resuming(Cmd.EXIT);
        } catch {
          /* the connection is gone: its close event says so */
        }
        await this.eventChain;
      }
      this.hidden--;
      // a checkpoint may have fired during our command or right after the resume
      const real = this.realStop;
      this.realStop = undefined;
      if (real && this.hidden === 0) this.publish(real);
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
        break;
      case Evt.JAM:
        this.jammed = true;
        break; // VICE sends no body (not the documented PC)
      case Evt.STOPPED:
        this.onStopped(e.body.length >= 2 ? e.body.readUInt16LE(0) : this.pc);
        break;
      case Evt.RESUMED:
        this.state = 'running';
        this.jammed = false;
        if (!this.hidden) this.emit({ type: 'running' });
        break;
    }
  }

  private onStopped(pc: number): void {
    this.state = 'stopped';
    this.pc = pc;
    if (this.hidden && this.hits.length === 0 && !this.jammed) return;
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

  private isStopped(): boolean {
    return this.state === 'stopped';
  }

  private publish(stop: StopInfo): void {
    const waiters = this.stopWaiters;
    this.stopWaiters = [];
    waiters.forEach((w) => w(stop));
    this.emit({ type: 'stopped', stop });
  }

  private emit(e: TargetEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        /* a listener's bug stays its own */
      }
    }
  }

  private checkSpan(address: Address, length: number): number {
    if (address.space !== 'cpu')
      throw new RetroError(
        'bad_address',
        `VICE memory is addressed in the 'cpu' space with a bank; '${address.space}' is not available.`,
        { space: address.space },
      );
    this.checkRange(address.offset, length);
    return address.offset;
  }

  private checkRange(start: number, length: number): void {
    if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length < 1 || start + length > 0x10000) {
      throw new RetroError(
        'bad_address',
        `$${start.toString(16)}+${length} runs outside $0000-$FFFF; VICE reads do not wrap.`,
        { start, length },
      );
    }
  }
}

/** The addresses of [0, top] not in any of `ranges`, as inclusive [start, end] pairs. */
export function complement(ranges: AddressRange[], top: number): AddressRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: AddressRange[] = [];
  let next = 0;
  for (const [s, e] of sorted) {
    if (s > next) out.push([next, Math.min(s - 1, top)]);
    next = Math.max(next, e + 1);
    if (next > top) break;
  }
  if (next <= top) out.push([next, top]);
  return out.filter(([s, e]) => s <= e);
}

function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0, 0);
  return b;
}
